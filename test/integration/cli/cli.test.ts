import { existsSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { LATEST_SCHEMA_VERSION } from '../../../src/main/store/migrations'
import { runCli, spawnCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('assay CLI', () => {
  it('creates the demo project and prints its counts as JSON (the real executable)', () => {
    const path = tmp.file('demo.assay')
    const created = spawnCli(['new', path, '--demo'])
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/Created .*demo\.assay with the demo: 12 pairs/)
    const info = spawnCli(['info', path, '--json'])
    expect(info.code).toBe(0)
    const json = JSON.parse(info.stdout) as { schemaVersion: number; items: number; counts: Array<{ kind: string; set_name: string; split: string; n: number }> }
    expect(json.schemaVersion).toBe(LATEST_SCHEMA_VERSION)
    const byKind = Object.fromEntries(json.counts.map((c) => [c.kind, c.n]))
    expect(byKind).toEqual({ 'proposal-pair': 12, 'rediscovery-task': 3, 'hypothesis-set': 6, 'research-question': 3, 'fs-problem': 4 })
    expect(json.items).toBe(28)
  })

  it('prints a human table without --json', async () => {
    const path = tmp.file('plain.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const r = await runCli('info', path)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/schema \d+ · curator/)
    expect(r.stdout).toMatch(/items 0/)
  })

  it('has --help on every command, exiting 0', async () => {
    for (const args of [['--help'], ['new', '--help'], ['info', '--help'], ['serve', '--help']]) {
      const r = await runCli(...args)
      expect(r.code, args.join(' ')).toBe(0)
      expect(r.stdout, args.join(' ')).toMatch(/Usage: assay/)
    }
  })

  it('exits 2 on usage errors', async () => {
    expect((await runCli('frobnicate')).code).toBe(2)
    expect((await runCli('info')).code).toBe(2)
    expect((await runCli('new', tmp.file('u.assay'), '--no-such-flag')).code).toBe(2)
    expect(existsSync(tmp.file('u.assay'))).toBe(false)
  })

  it('exits 1 with a clear message on failures', async () => {
    const missing = await runCli('info', tmp.file('missing.assay'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No project file at/)
    const path = tmp.file('twice.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const again = await runCli('new', path)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exists/)
  })

  it('refuses a project from a newer schema with a clear message', async () => {
    const path = tmp.file('future.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const db = new Database(path)
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`)
    db.close()
    const r = await runCli('info', path)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/written by a newer version of Assay/)
  })
})
