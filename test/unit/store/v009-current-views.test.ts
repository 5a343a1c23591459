import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { adjudicationHeadFinder, adjudicationHeads, currentAdjudicationsWithItems } from '../../../src/main/store/adjudications'
import { currentAdjudicationRows } from '../../../src/main/store/report-reads'
import { currentAnnotations, currentAnswerCount, sourceHeadFinder } from '../../../src/main/store/annotations'
import { openDatabase } from '../../../src/main/store/database'
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../../src/main/store/migrations'
import { tempDir } from '../../support/tmp'

// A project written before the views existed gets them when it is opened, and they give the current answers and
// adjudications the rule gave before, forks and ties included.

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => {
  tmp.cleanup()
})

// The rule as the queries of schema 8 wrote it, to compare the views with.
const OLD_CURRENT_ANSWERS = `SELECT a.* FROM annotations a
  WHERE a.retracted = 0 AND NOT EXISTS (SELECT 1 FROM annotations successor WHERE successor.supersedes = a.id)
  ORDER BY a.item_id, a.created_at`
const OLD_ADJUDICATION_HEADS = `SELECT a.* FROM adjudications a
  WHERE NOT EXISTS (SELECT 1 FROM adjudications successor WHERE successor.supersedes = a.id)
  ORDER BY a.item_id, a.instrument_id, a.created_at DESC, a.rowid DESC`

type Row = { id: string; item_id: number; instrument_id: string }

function firstPerChain<T extends Row>(rows: T[]): T[] {
  const seen = new Set<string>()
  return rows.filter((r) => {
    const key = `${r.item_id}/${r.instrument_id}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

async function projectAtV8(path: string): Promise<void> {
  ;(await openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= 8) })).close()
  const db = new Database(path)
  const item = db.prepare(`INSERT INTO items (kind, external_id, set_name, split, payload, created_at) VALUES ('proposal-pair', ?, 's', 'test', '{}', 'now')`)
  for (const id of ['p1', 'p2', 'p3', 'p4']) item.run(id)
  const answer = db.prepare(
    `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, source_kind, source_name, judgement, supersedes, retracted, created_at)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`
  )
  // A revised answer, an undone one, a model's answer alone, and an answer for another instrument.
  answer.run('a1', 1, 'pref', 'human', 'ada', '{"v":"a"}', null, 0, '2026-01-01T00:00:00.000Z')
  answer.run('a2', 1, 'pref', 'human', 'ada', '{"v":"b"}', 'a1', 0, '2026-01-01T00:01:00.000Z')
  answer.run('b1', 2, 'pref', 'human', 'ada', '{"v":"a"}', null, 0, '2026-01-01T00:00:00.000Z')
  answer.run('b2', 2, 'pref', 'human', 'ada', '{"v":"a"}', 'b1', 1, '2026-01-01T00:02:00.000Z')
  answer.run('c1', 2, 'pref', 'model', 'gpt', '{"v":"b"}', null, 0, '2026-01-01T00:00:00.000Z')
  answer.run('d1', 3, 'other', 'human', 'ben', '{"v":"a"}', null, 0, '2026-01-01T00:00:00.000Z')
  const adjudication = db.prepare(`INSERT INTO adjudications (id, item_id, instrument_id, judgement, reason, curator, supersedes, created_at) VALUES (?, ?, 'pref', ?, '', 'cur', ?, ?)`)
  // A revised label; a fork at one instant (the row written last stands); a fork whose later-written row is older.
  adjudication.run('j1', 1, '{"v":"a"}', null, '2026-01-01T00:00:00.000Z')
  adjudication.run('j2', 1, '{"v":"b"}', 'j1', '2026-01-01T00:01:00.000Z')
  adjudication.run('k1', 2, '{"v":"a"}', null, '2026-01-01T00:00:00.000Z')
  adjudication.run('k2', 2, '{"v":"b"}', 'k1', '2026-01-01T00:05:00.000Z')
  adjudication.run('k3', 2, '{"v":"a"}', 'k1', '2026-01-01T00:05:00.000Z')
  adjudication.run('m1', 3, '{"v":"a"}', null, '2026-01-01T00:00:00.000Z')
  adjudication.run('m2', 3, '{"v":"b"}', 'm1', '2026-01-01T00:09:00.000Z')
  adjudication.run('m3', 3, '{"v":"a"}', 'm1', '2026-01-01T00:03:00.000Z')
  db.close()
}

describe('migration 9: current answers and adjudications as views', () => {
  it('gives a project of schema 8 the views, with the current versions the rule gave before', async () => {
    const path = tmp.file('old.assay')
    await projectAtV8(path)
    const old = new Database(path, { readonly: true })
    const answersBefore = old.prepare(OLD_CURRENT_ANSWERS).all() as Row[]
    const adjudicationsBefore = firstPerChain(old.prepare(OLD_ADJUDICATION_HEADS).all() as Row[])
    old.close()
    expect(answersBefore.map((r) => r.id)).toEqual(['a2', 'c1', 'd1'])
    expect(adjudicationsBefore.map((r) => r.id)).toEqual(['j2', 'k3', 'm2'])

    const db = await openDatabase(path)
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION)
    const views = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name`).pluck().all()
    expect(views).toEqual(['adjudication_heads', 'annotation_heads', 'current_adjudications', 'current_annotations'])

    expect(currentAnnotations(db)).toEqual(answersBefore)
    expect(currentAnnotations(db, 'pref').map((r) => r.id)).toEqual(['a2', 'c1'])
    expect(currentAnswerCount(db, 'pref')).toBe(2)
    // The undone answer's head is still what a new revision of that source is appended after.
    expect(sourceHeadFinder(db)(2, 'pref', 'human', 'ada')).toMatchObject({ id: 'b2', retracted: 1 })

    expect(db.prepare(`SELECT * FROM current_adjudications ORDER BY item_id`).all()).toEqual(adjudicationsBefore)
    expect([...adjudicationHeads(db, 'pref').values()]).toEqual(adjudicationsBefore)
    expect(adjudicationHeadFinder(db)(2, 'pref')?.id).toBe('k3')
    expect(currentAdjudicationRows(db, 'pref').map((r) => r.item_id)).toEqual([1, 2, 3])
    expect(currentAdjudicationsWithItems(db).map((r) => r.id)).toEqual(['j2', 'k3', 'm2'])
    db.close()
  })

  it('reads current adjudications of an instrument through its index, not a scan of every adjudication', async () => {
    const path = tmp.file('new.assay')
    const db = await openDatabase(path, { create: true })
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail)
    for (const detail of plan(`SELECT * FROM current_adjudications WHERE item_id = 1 AND instrument_id = 'pref'`)) expect(detail).not.toMatch(/^SCAN/)
    for (const detail of plan(`SELECT * FROM current_annotations WHERE item_id = 1 AND instrument_id = 'pref'`)) expect(detail).not.toMatch(/^SCAN/)
    db.close()
  })
})
