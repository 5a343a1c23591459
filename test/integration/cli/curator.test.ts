import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

function count(path: string, sql: string): number {
  const db = new Database(path, { readonly: true })
  try {
    return (db.prepare(sql).get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('curator steps on the command line', () => {
  it('adds and lists annotators, then assigns with overlap through the same code as the workbench', async () => {
    const path = tmp.file('curate.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)

    const added = await runCli('annotators', 'add', path, 'carol', 'Dr Dave', '--expertise', 'biology', '--json')
    expect(added.code).toBe(0)
    expect(JSON.parse(added.stdout).annotators.map((a: { name: string; added: boolean }) => [a.name, a.added])).toEqual([
      ['carol', true],
      ['Dr Dave', true]
    ])
    // Adding an existing name changes nothing.
    const again = await runCli('annotators', 'add', path, 'carol')
    expect(again.stdout).toMatch(/Exists: carol/)
    expect(count(path, `SELECT count(*) AS n FROM annotators WHERE name = 'carol'`)).toBe(1)

    const assigned = await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol,Dr Dave', '--overlap', '2', '--json')
    expect(assigned.code).toBe(0)
    expect(JSON.parse(assigned.stdout)).toMatchObject({ items: 12, created: 24, perAnnotator: { carol: 12, 'Dr Dave': 12 } })
    // Re-running adds only what is missing.
    const rerun = await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol,Dr Dave', '--overlap', '2', '--json')
    expect(JSON.parse(rerun.stdout)).toMatchObject({ items: 12, created: 0 })

    const listed = await runCli('annotators', 'list', path, '--json')
    const rows = JSON.parse(listed.stdout).annotators as Array<{ name: string; expertise: string | null; assignments: number; done: number }>
    expect(rows.find((r) => r.name === 'carol')).toMatchObject({ expertise: 'biology', assignments: 12, done: 0 })
  })

  it('refuses unknown annotators without writing, and says how to add them', async () => {
    const path = tmp.file('unknown.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    expect((await runCli('annotators', 'add', path, 'carol')).code).toBe(0)
    const before = count(path, `SELECT count(*) AS n FROM annotators`)
    const r = await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol,zed,yan', '--overlap', '1')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`No annotators named "zed", "yan" in this project; add them with: assay annotators add ${path} zed yan`)
    expect(count(path, `SELECT count(*) AS n FROM annotators`)).toBe(before)
    expect(count(path, `SELECT count(*) AS n FROM assignments`)).toBe(0)
  })

  it('says which command creates what packet export needs: the annotator, then assignments', async () => {
    const path = tmp.file('packet.assay')
    const out = tmp.file('alice-packet.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    const noAnnotator = await runCli('packet', 'export', path, '--annotator', 'alice', '--out', out)
    expect(noAnnotator.code).toBe(1)
    expect(noAnnotator.stderr).toContain(`add it with: assay annotators add ${path} alice`)
    expect((await runCli('annotators', 'add', path, 'alice')).code).toBe(0)
    const noAssignments = await runCli('packet', 'export', path, '--annotator', 'alice', '--out', out)
    expect(noAssignments.code).toBe(1)
    expect(noAssignments.stderr).toContain(`assign items with: assay assign ${path} --instrument <id> --annotators alice --overlap 1`)
    expect((await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'alice', '--overlap', '1')).code).toBe(0)
    expect((await runCli('packet', 'export', path, '--annotator', 'alice', '--out', out)).code).toBe(0)
  })

  it('rejects bad flags as usage errors and an empty selection with how to import items', async () => {
    const path = tmp.file('flags.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    expect((await runCli('annotators', 'add', path, 'carol')).code).toBe(0)
    expect((await runCli('assign', path, '--instrument', 'nope', '--annotators', 'carol', '--overlap', '1')).code).toBe(2)
    expect((await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol', '--overlap', '0')).code).toBe(2)
    expect((await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol', '--overlap', '2')).code).toBe(2)
    const none = await runCli('assign', path, '--instrument', 'pairwise-preference', '--annotators', 'carol', '--overlap', '1', '--set', 'nope')
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`import some first with: assay import ${path}`)
  })
})
