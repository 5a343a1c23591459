import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/main/store/database'
import { MIGRATIONS } from '../../../src/main/store/migrations'
import { tempDir } from '../../support/tmp'

// A folder per test, removed after it (none is left behind after the last).
let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => {
  tmp.cleanup()
})

describe('migration 4: fields of a file move under $extra', () => {
  it('moves unknown fields of imported items, unchanged, and leaves known fields, generated items and packet views alone', async () => {
    const path = tmp.file('old.assay')
    ;(await openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version < 4) })).close()
    const db = new Database(path)
    const importId = db.prepare(`INSERT INTO imports (format, source, set_name, item_count, label_count, warnings) VALUES ('hypotheses', 'x', 's', 2, 0, '[]')`).run().lastInsertRowid
    const insert = db.prepare(`INSERT INTO items (kind, external_id, set_name, split, payload, import_id, created_at) VALUES (?, ?, 's', 'none', ?, ?, 'now')`)
    const own = { set_id: 'S1', task_id: 'T1', task: 'our own note', hypotheses: [{ id: 'H1', statement: 'x', note: true }], flag: false, n: 2, none: null, nested: { a: [1, 'b'] }, text: "it's" }
    insert.run('hypothesis-set', 'S1', JSON.stringify(own), importId)
    const known = { question_id: 'Q1', question: 'Why?' }
    insert.run('research-question', 'Q1', JSON.stringify(known), importId)
    const generated = { set_id: 'G1', task_id: 'T1', hypotheses: [{ id: 'H1', statement: 'y' }], provenance: { run_id: 1 } }
    insert.run('hypothesis-set', 'G1', JSON.stringify(generated), null)
    const view = { $view: { a: { markdown: 'x' } } }
    insert.run('proposal-pair', 'V1', JSON.stringify(view), importId)
    db.close()

    const migrated = await openDatabase(path)
    const payload = (id: string) => JSON.parse((migrated.prepare(`SELECT payload FROM items WHERE external_id = ?`).get(id) as { payload: string }).payload)
    expect(payload('S1')).toEqual({
      set_id: 'S1',
      task_id: 'T1',
      hypotheses: own.hypotheses,
      $extra: { task: 'our own note', flag: false, n: 2, none: null, nested: { a: [1, 'b'] }, text: "it's" }
    })
    expect(payload('Q1')).toEqual(known)
    expect(payload('G1')).toEqual(generated)
    expect(payload('V1')).toEqual(view)
    migrated.close()
  })
})
