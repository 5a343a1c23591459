import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { Project } from '../../../src/main/store/project'
import { sharedDir } from '../../support/tmp'

// The public FrontierScience gold set, in the shared folder beside the repository; the suite says so when it is not.
const DATA = join(sharedDir, 'data', 'frontierscience')
const DUPLICATE_ID = 'af50243e-3a60-4460-9536-f9a02c4f8eb8'
const present = existsSync(join(DATA, 'olympiad.jsonl')) && existsSync(join(DATA, 'research.jsonl'))

describe.skipIf(!present)(present ? 'FrontierScience gold set' : 'FrontierScience gold set (skipped: source documents not present)', () => {
  let dir: string
  let project: Project
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assay-fs-'))
    project = await Project.create(join(dir, 'fs.assay'))
  })
  afterAll(() => {
    project.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('imports exactly 100 olympiad and 60 research problems', async () => {
    const olympiad = await importFile(project, 'frontierscience', join(DATA, 'olympiad.jsonl'))
    const research = await importFile(project, 'frontierscience', join(DATA, 'research.jsonl'))
    expect(olympiad.errors).toEqual([])
    expect(research.errors).toEqual([])
    expect([olympiad.imported, research.imported]).toEqual([100, 60])
    const byTrack = project.db
      .prepare(`SELECT json_extract(payload, '$.track') AS track, count(*) AS n FROM items WHERE kind = 'fs-problem' GROUP BY track ORDER BY track`)
      .all()
    expect(byTrack).toEqual([
      { track: 'olympiad', n: 100 },
      { track: 'research', n: 60 }
    ])
    expect(olympiad.warnings).toEqual([])
    // The one repeated task_group_id is warned about and stored under a stable second key.
    expect(research.warnings).toEqual([
      expect.objectContaining({ line: 12, field: 'task_group_id', message: expect.stringContaining(`fs-research-${DUPLICATE_ID}#2`) })
    ])
    expect(project.db.prepare(`SELECT count(*) AS n FROM items WHERE external_id LIKE ?`).get(`fs-research-${DUPLICATE_ID}%`)).toEqual({ n: 2 })
  })

  it('parses every research rubric into 7 to 18 items totalling 10 points', () => {
    const rows = project.db.prepare(`SELECT payload FROM items WHERE kind = 'fs-problem' AND json_extract(payload, '$.track') = 'research'`).all() as {
      payload: string
    }[]
    expect(rows).toHaveLength(60)
    const rubrics = rows.map((r) => (JSON.parse(r.payload) as { rubric: { points: number; item: string }[] }).rubric)
    for (const rubric of rubrics) {
      expect(rubric.reduce((s, it) => s + it.points, 0)).toBeCloseTo(10, 9)
      expect(rubric.every((it) => it.item.length > 0 && it.points > 0)).toBe(true)
    }
    const sizes = rubrics.map((r) => r.length)
    expect([Math.min(...sizes), Math.max(...sizes)]).toEqual([7, 18])
  })
})
