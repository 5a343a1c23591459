import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { writeJsonl } from '../../support/pairs'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// A grading instrument grades a response: it is not assigned to problems that have none, on the command line and
// through the operation the workbench calls, and the refusal counts them.

const tmp = tempDir()
afterAll(() => tmp.cleanup())

const assignments = (path: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return (db.prepare(`SELECT count(*) AS n FROM assignments`).get() as { n: number }).n
  } finally {
    db.close()
  }
}

/** A demo project plus two olympiad problems without a response, in the set "gold". */
async function projectWithGold(name: string): Promise<string> {
  const path = tmp.file(name)
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  const gold = tmp.file(`${name}.gold.jsonl`)
  writeJsonl(gold, [1, 2].map((n) => ({ problem: `Problem ${n}: compute \\(x^${n}\\).`, answer: `\\(${n}\\)`, subject: 'physics', task_group_id: `g${n}`, track: 'olympiad' })))
  expect((await runCli('import', path, 'frontierscience', gold, '--set', 'gold')).code).toBe(0)
  expect((await runCli('annotators', 'add', path, 'carol')).code).toBe(0)
  return path
}

describe('assigning a grading instrument', () => {
  it('is refused on the command line, with the count, when items have no response to grade; a set with responses is assigned', async () => {
    const path = await projectWithGold('cli.assay')
    const refused = await runCli('assign', path, '--instrument', 'fs-olympiad-grade', '--annotators', 'carol', '--overlap', '1')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/2 of the \d+ items for fs-olympiad-grade have no response to grade, so none were assigned/)
    expect(refused.stderr).toContain('Choose a set whose items carry responses ("demo-frontierscience")')
    expect(assignments(path)).toBe(0)
    const onlyGold = await runCli('assign', path, '--instrument', 'fs-olympiad-grade', '--annotators', 'carol', '--overlap', '1', '--set', 'gold')
    expect(onlyGold.code).toBe(1)
    expect(onlyGold.stderr).toContain('2 of the 2 items for fs-olympiad-grade have no response to grade')
    expect(onlyGold.stderr).toContain('Import responses to grade first')
    const demo = await runCli('assign', path, '--instrument', 'fs-olympiad-grade', '--annotators', 'carol', '--overlap', '1', '--set', 'demo-frontierscience', '--json')
    expect(demo.code).toBe(0)
    expect(JSON.parse(demo.stdout).created).toBeGreaterThan(0)
  })

  it('is refused by the operation the workbench calls, before any annotator or assignment is written', async () => {
    const path = await projectWithGold('gui.assay')
    const project = await Project.open(path)
    try {
      const res = await dispatch(contextFor(project), 'assignments.create', { instrument: 'fs-olympiad-grade', annotators: ['dora'], overlap: 1 })
      expect(res.ok).toBe(false)
      if (!res.ok) expect(res.error.message).toMatch(/^2 of the \d+ items for fs-olympiad-grade have no response to grade/)
      expect((project.db.prepare(`SELECT count(*) AS n FROM annotators WHERE name = 'dora'`).get() as { n: number }).n).toBe(0)
    } finally {
      project.close()
    }
    expect(assignments(path)).toBe(0)
  })
})
