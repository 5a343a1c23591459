import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/main/store/database'
import { MIGRATIONS } from '../../../src/main/store/migrations'
import { runArchiveStates, setArchived } from '../../../src/main/store/archive'
import { tempDir } from '../../support/tmp'

// A folder per test, removed after it (none is left behind after the last).
let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => {
  tmp.cleanup()
})

describe('archived runs and judges', () => {
  it('upgrade a file made before archiving: its runs are kept and none is archived', async () => {
    const path = tmp.file('old.assay')
    const before = await openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version < 5) })
    before.prepare(`INSERT INTO judges (id, name, provider, model) VALUES (1, 'j', 'openai', 'gpt-test')`).run()
    before.prepare(`INSERT INTO runs (id, instrument_id, judge_id, template_id, template_version, seed) VALUES (7, 'pairwise-preference', 1, 't', 1, '42')`).run()
    before.close()
    const db = await openDatabase(path)
    expect(runArchiveStates(db).get(7)).toEqual({ archived: false, judgeArchived: false })
    expect(setArchived(db, 'run', 7, true)).toBe(true)
    const firstMark = (db.prepare(`SELECT archived_at FROM runs WHERE id = 7`).get() as { archived_at: string }).archived_at
    // Archiving twice keeps the first time; restoring clears it; a judge's mark reaches its runs.
    setArchived(db, 'run', 7, true)
    expect((db.prepare(`SELECT archived_at FROM runs WHERE id = 7`).get() as { archived_at: string }).archived_at).toBe(firstMark)
    setArchived(db, 'run', 7, false)
    setArchived(db, 'judge', 1, true)
    expect(runArchiveStates(db).get(7)).toEqual({ archived: false, judgeArchived: true })
    expect(() => setArchived(db, 'judge', 2, true)).toThrow(/No judge 2/)
    db.close()
  })
})
