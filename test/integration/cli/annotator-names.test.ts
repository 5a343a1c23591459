import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { lockedAnnotatorSession } from '../../../src/main/api/annotator-session'
import { Project } from '../../../src/main/store/project'
import { runCli, type CliResult } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { ctxFor } from '../packets/support'

// An annotator's name is one line of 1 to 200 characters, whichever door it comes in by: the workbench form, the
// command line, a server started for one annotator, the role switch or an assignment.

const tmp = tempDir('assay-annotator-names-')
const path = tmp.file('p.assay')

async function names(): Promise<string[]> {
  const project = await Project.open(path)
  try {
    return (project.db.prepare(`SELECT name FROM annotators ORDER BY id`).all() as Array<{ name: string }>).map((r) => r.name)
  } finally {
    project.close()
  }
}

/** `assay serve`, in-process; a refusal comes back at once, a server that started is reported as not refused. */
async function serveRefusal(...args: string[]): Promise<CliResult | 'served'> {
  return Promise.race([runCli('serve', path, '--port', '0', ...args), new Promise<'served'>((done) => setTimeout(() => done('served'), 10_000).unref())])
}

beforeAll(async () => {
  expect((await runCli('new', path, '--demo')).code).toBe(0)
})
afterAll(() => tmp.cleanup())

describe('annotator names', () => {
  it('over 200 characters are refused by serve --annotator as by annotators add, and nothing is stored', async () => {
    const before = await names()
    const long = 'y'.repeat(300)
    const added = await runCli('annotators', 'add', path, long)
    expect(added.code).toBe(2)
    const served = await serveRefusal('--annotator', long)
    expect(served).not.toBe('served')
    expect((served as CliResult).code).toBe(2)
    expect((served as CliResult).stderr).toMatch(/200/)
    expect(await names()).toEqual(before)
  }, 30_000)

  it.each([
    ['a line break', 'Eve\nline2'],
    ['a tab', 'Eve\tTab'],
    ['a NUL', 'Eve\u0000'],
    ['an escape', 'Eve\u001b[31m'],
    ['a line separator', 'Eve\u2028line2']
  ])('holding %s are refused at every door, and nothing is stored', async (_what, name) => {
    const before = await names()
    const added = await runCli('annotators', 'add', path, name)
    expect(added.code).toBe(2)
    expect(added.stderr).toMatch(/one line|control/)
    const served = await serveRefusal('--annotator', name)
    expect(served).not.toBe('served')
    expect((served as CliResult).code).toBe(2)
    const project = await Project.open(path)
    try {
      const ctx = ctxFor(project)
      for (const [op, input] of [
        ['annotators.create', { name }],
        ['session.setRole', { role: 'annotator', annotator: name }],
        ['assignments.create', { instrument: 'pairwise-preference', annotators: [name], overlap: 1 }]
      ] as const) {
        const envelope = await dispatch(ctx, op, input)
        expect(envelope, op).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      }
    } finally {
      project.close()
    }
    expect(await names()).toEqual(before)
  }, 30_000)

  it('an ordinary name is still taken, without the spaces around it', async () => {
    const added = await runCli('annotators', 'add', path, '  Dr Ada Lovelace-Byron  ')
    expect(added.code, added.stderr).toBe(0)
    expect(await names()).toContain('Dr Ada Lovelace-Byron')
  })

  it('in imported labels are held to the same rule, with the line and field, and nothing is imported', async () => {
    const project = await Project.open(path)
    const pair = (project.db.prepare(`SELECT external_id FROM items WHERE kind = 'proposal-pair' ORDER BY id LIMIT 1`).get() as { external_id: string }).external_id
    project.close()
    const before = await names()
    const row = (source: string) => JSON.stringify({ item: pair, instrument: 'pairwise-preference', source, source_kind: 'human', judgement: { verdict: 'a_better', analysis: '' } })
    const file = tmp.file('labels.jsonl')
    writeFileSync(file, `${row('Ada Imported')}\n${row('z'.repeat(300))}\n${row('Eve\nline2')}\n`)
    const imported = await runCli('import', path, 'labels', file)
    expect(imported.code).not.toBe(0)
    expect(imported.stderr).toContain('labels.jsonl:2: source: a name has at most 200 characters')
    expect(imported.stderr).toContain('labels.jsonl:3: source: a name is one line of text')
    expect(await names()).toEqual(before)
  })

  it('a pseudonym given to a session locked to one annotator names that person, and adds nobody', async () => {
    const before = await names()
    const project = await Project.open(path)
    try {
      const session = await lockedAnnotatorSession(project, { emit: () => undefined }, 'A01')
      expect(session.annotator?.name).toBe('Demo Expert 1')
    } finally {
      project.close()
    }
    expect(await names()).toEqual(before)
  })
})
