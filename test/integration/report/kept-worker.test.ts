import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeReportInWorker, projectReport } from '../../../src/main/report'
import { keptReportWorker, releaseReportWorker } from '../../../src/main/report/report-job'
import { Project } from '../../../src/main/store/project'
import { insertItems } from '../../../src/main/store/items'
import { call, contextFor } from '../../support/project'
import { repoRoot, tempDir } from '../../support/tmp'
import { demoAfterJudgeRun } from './fixtures'

// The report's worker is kept after a report for the next one. Each report is still the report of its own file:
// the same figures as on the calling thread, and only that file's declared instruments, whichever file came before.

const tmp = tempDir('assay-kept-worker-')
const STUDY = readFileSync(join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml'), 'utf8')
const WIDE = 'max: 10\n    points: { "1": "not novel", "10": "very novel" }'
const NARROW = 'max: 5\n    points: { "1": "not novel", "5": "very novel" }'
let demo: Project
const projects: Project[] = []

async function projectWith(name: string, declaration?: string): Promise<Project> {
  const project = await Project.create(tmp.file(`${name}.assay`))
  project.write((db) => insertItems(db, [{ kind: 'idea', externalId: `${name}-1`, set: 'ideas', split: 'none', payload: { idea: 'Cool atoms below the recoil limit.' } }]))
  if (declaration) await call(contextFor(project), 'instruments.add', { text: declaration, file: `${name}.yaml` })
  projects.push(project)
  return project
}

/** The title of the declared study a report was made with. */
const titleOf = (report: { instrument: { title: string } }): string => report.instrument.title

beforeAll(async () => {
  await releaseReportWorker()
  demo = await demoAfterJudgeRun(tmp.file('demo.assay'))
}, 120_000)
afterAll(async () => {
  await releaseReportWorker()
  demo.close()
  for (const p of projects) p.close()
  tmp.cleanup()
})

describe('the kept report worker', () => {
  it('answers the next report on the same thread, with the same report as on the calling thread', async () => {
    const generatedAt = '2026-01-01T00:00:00.000Z'
    const first = await computeReportInWorker({ path: demo.path, instrument: 'pairwise-preference', report: { generatedAt } })
    const thread = keptReportWorker()
    expect(thread).not.toBeNull()
    const second = await computeReportInWorker({ path: demo.path, instrument: 'pairwise-preference', report: { generatedAt } })
    expect(keptReportWorker()).toBe(thread)
    const expected = projectReport(demo.db, { instrument: 'pairwise-preference', generatedAt })
    expect(first).toEqual(expected)
    expect(second).toEqual(expected)
  }, 120_000)

  it('serves each file with its own declared instruments only, whichever file it served before', async () => {
    const wide = await projectWith('wide', STUDY)
    expect(STUDY).toContain(WIDE)
    expect(STUDY).toContain('title: Research idea review\n')
    const narrow = await projectWith('narrow', STUDY.replace(WIDE, NARROW).replace('title: Research idea review\n', 'title: Narrow review\n'))
    const none = await projectWith('none')
    const report = (p: Project) => computeReportInWorker({ path: p.path, instrument: 'idea-study', report: {} })
    expect(titleOf(await report(wide))).toBe('Research idea review')
    const thread = keptReportWorker()
    expect(titleOf(await report(narrow))).toBe('Narrow review')
    // The third file declares nothing: the id is unknown there, though the worker knew it a moment ago.
    // The message lists the ids this file knows: the built-in ones, without the other file's.
    const unknown = await report(none).then(() => null, (e: { code: string; message: string }) => e)
    expect(unknown?.code).toBe('invalid_input')
    expect(unknown?.message).toMatch(/^Unknown instrument "idea-study"; instruments: pairwise-preference, /)
    expect(unknown?.message.split('; instruments: ')[1]).not.toContain('idea-study')
    expect(titleOf(await report(wide))).toBe('Research idea review')
    expect(keptReportWorker()).toBe(thread)
  }, 120_000)

  it('is kept after a refused report, and not after a cancelled one', async () => {
    await expect(computeReportInWorker({ path: demo.path, instrument: 'no-such', report: {} })).rejects.toMatchObject({ code: 'invalid_input' })
    const thread = keptReportWorker()
    expect(thread).not.toBeNull()
    const controller = new AbortController()
    const pending = computeReportInWorker({ path: demo.path, instrument: 'pairwise-preference', report: { resamples: 50_000 } }, { signal: controller.signal, onProgress: () => controller.abort() })
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' })
    // The cancelled job's worker was the kept one; it was ended, so none is kept now.
    expect(keptReportWorker()).toBeNull()
    await computeReportInWorker({ path: demo.path, instrument: 'pairwise-preference', report: {} })
    expect(keptReportWorker()).not.toBe(thread)
  }, 120_000)
})
