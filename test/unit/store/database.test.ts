import { readFileSync, writeFileSync, readdirSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { APPLICATION_ID, openDatabase } from '../../../src/main/store/database'
import { MIGRATIONS, LATEST_SCHEMA_VERSION, type Migration } from '../../../src/main/store/migrations'
import { Project } from '../../../src/main/store/project'
import { AssayError } from '../../../src/shared/errors'
import { tempDir } from '../../support/tmp'

// A folder per test, removed after it (none is left behind after the last).
let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => {
  tmp.cleanup()
})

describe('project database', () => {
  it('opens with WAL, synchronous=FULL, foreign keys and a busy timeout', async () => {
    const db = await openDatabase(tmp.file('p.assay'), { create: true })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('synchronous', { simple: true })).toBe(2)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION)
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID)
    db.close()
  })

  it('refuses a missing file unless asked to create it', async () => {
    await expect(openDatabase(tmp.file('missing.assay'))).rejects.toMatchObject({ code: 'not_found' })
  })

  it('refuses a file written by a newer schema with a clear message and leaves it unchanged', async () => {
    const path = tmp.file('future.assay')
    const db = await openDatabase(path, { create: true })
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 5}`)
    db.pragma('journal_mode = DELETE')
    db.close()
    const before = readFileSync(path)
    const err = await openDatabase(path).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AssayError)
    expect((err as AssayError).code).toBe('newer_schema')
    expect((err as AssayError).message).toMatch(/newer version of Assay/)
    expect((err as AssayError).message).toContain(`schema ${LATEST_SCHEMA_VERSION + 5}`)
    expect(readFileSync(path).equals(before)).toBe(true)
  })

  it('refuses a SQLite file that is not an Assay project, and a file that is not SQLite', async () => {
    const other = tmp.file('other.db')
    const db = new Database(other)
    db.exec('CREATE TABLE t (x)')
    db.close()
    await expect(openDatabase(other)).rejects.toMatchObject({ code: 'not_a_project' })
    const text = tmp.file('text.assay')
    writeFileSync(text, 'this is not a database, just some text that is long enough to have a header'.repeat(10))
    await expect(openDatabase(text)).rejects.toMatchObject({ code: 'not_a_project' })
  })

  it('backs the file up with the SQLite backup API before a migration, then migrates in one transaction', async () => {
    const path = tmp.file('old.assay')
    const v1 = await openDatabase(path, { create: true, migrations: MIGRATIONS.slice(0, 1) })
    v1.prepare(`INSERT INTO meta (key, value) VALUES ('name', 'kept')`).run()
    v1.close()
    const v2: Migration = { version: 2, name: 'test column', sql: `ALTER TABLE items ADD COLUMN extra TEXT;` }
    const backups: string[] = []
    const db = await openDatabase(path, { migrations: [...MIGRATIONS.slice(0, 1), v2], onBackup: (p) => backups.push(p) })
    expect(db.pragma('user_version', { simple: true })).toBe(2)
    db.close()
    expect(backups).toHaveLength(1)
    expect(readdirSync(tmp.dir).some((f) => f.startsWith('old.assay.bak-v1-'))).toBe(true)
    const backup = new Database(backups[0]!, { readonly: true })
    expect(backup.pragma('user_version', { simple: true })).toBe(1)
    expect(backup.prepare(`SELECT value FROM meta WHERE key = 'name'`).get()).toEqual({ value: 'kept' })
    backup.close()
  })

  it('leaves the file at its old version when a migration fails half-way', async () => {
    const path = tmp.file('fail.assay')
    ;(await openDatabase(path, { create: true, migrations: MIGRATIONS.slice(0, 1) })).close()
    const broken: Migration = { version: 2, name: 'broken', sql: `CREATE TABLE fine (x); CREATE TABLE items (dup);` }
    await expect(openDatabase(path, { migrations: [...MIGRATIONS.slice(0, 1), broken] })).rejects.toThrow()
    const db = new Database(path, { readonly: true })
    expect(db.pragma('user_version', { simple: true })).toBe(1)
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name = 'fine'`).get()).toBeUndefined()
    db.close()
  })

  it('keeps annotations append-only', async () => {
    const project = await Project.create(tmp.file('a.assay'))
    const db = project.db
    db.prepare(`INSERT INTO items (kind, external_id, payload, created_at) VALUES ('idea', 'i1', '{"idea":"x"}', 'now')`).run()
    db.prepare(
      `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, source_kind, source_name, judgement) VALUES ('x1', 1, 'idea-review', 1, 'human', 'ann', '{}')`
    ).run()
    expect(() => db.prepare(`UPDATE annotations SET judgement = '{"a":1}' WHERE id = 'x1'`).run()).toThrow(/append-only/)
    expect(() => db.prepare(`DELETE FROM annotations WHERE id = 'x1'`).run()).toThrow(/append-only/)
    project.close()
  })

  it('gives every project a stable id and seed', async () => {
    const path = tmp.file('id.assay')
    const p1 = await Project.create(path)
    const { projectId, seed } = p1.info()
    p1.close()
    const p2 = await Project.open(path)
    expect(p2.info().projectId).toBe(projectId)
    expect(p2.info().seed).toBe(seed)
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/)
    p2.close()
  })
})
