import { randomUUID } from 'node:crypto'
import type { Db, WritableDB } from './database'

// Adjudications are append-only like annotations: a new judgement of an item supersedes the previous one, so each
// (item, instrument) has one chain whose head is the final label.

export interface AdjudicationRow {
  id: string
  item_id: number
  instrument_id: string
  judgement: string
  reason: string
  curator: string
  based_on: string
  supersedes: string | null
  created_at: string
}

export interface NewAdjudication {
  itemId: number
  instrumentId: string
  judgement: unknown
  reason: string
  curator: string
  basedOn: ReadonlyArray<string>
  supersedes: string | null
}

export function appendAdjudication(db: WritableDB, a: NewAdjudication): string {
  return adjudicationAppender(db)(a)
}

/**
 * Appends adjudications with one prepared statement (imports append many). An imported one keeps its id and time
 * when it has them; otherwise it gets a new id and the present time.
 */
export function adjudicationAppender(db: WritableDB): (a: NewAdjudication & { id?: string | null; createdAt?: string | null }) => string {
  const insert = db.prepare(
    `INSERT INTO adjudications (id, item_id, instrument_id, judgement, reason, curator, based_on, supersedes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))`
  )
  return (a) => {
    const id = a.id ?? randomUUID()
    insert.run(id, a.itemId, a.instrumentId, JSON.stringify(a.judgement), a.reason, a.curator, JSON.stringify(a.basedOn), a.supersedes, a.createdAt ?? null)
    return id
  }
}

/** A finder of the current adjudication of an (item, instrument), prepared once; see adjudicationHead. */
export function adjudicationHeadFinder(db: Db): (itemId: number, instrumentId: string) => AdjudicationRow | undefined {
  const stmt = db.prepare(`SELECT a.* FROM current_adjudications a WHERE a.item_id = ? AND a.instrument_id = ?`)
  return (itemId, instrumentId) => stmt.get(itemId, instrumentId) as AdjudicationRow | undefined
}

/** Every adjudication of an item for an instrument, oldest first. */
export function adjudicationHistory(db: Db, itemId: number, instrumentId: string): AdjudicationRow[] {
  return db
    .prepare(`SELECT * FROM adjudications WHERE item_id = ? AND instrument_id = ? ORDER BY created_at, rowid`)
    .all(itemId, instrumentId) as AdjudicationRow[]
}

/** The current adjudication: the row nothing supersedes (the latest, should a chain ever fork). */
export function adjudicationHead(db: Db, itemId: number, instrumentId: string): AdjudicationRow | undefined {
  return adjudicationHeadFinder(db)(itemId, instrumentId)
}

/** Heads of every chain of an instrument, by item. */
export function adjudicationHeads(db: Db, instrumentId: string): Map<number, AdjudicationRow> {
  const rows = db.prepare(`SELECT a.* FROM current_adjudications a WHERE a.instrument_id = ?`).all(instrumentId) as AdjudicationRow[]
  return new Map(rows.map((r) => [r.item_id, r]))
}

export function basedOnOf(row: AdjudicationRow): string[] {
  try {
    const list = JSON.parse(row.based_on) as unknown
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

export interface AdjudicationFilter {
  set?: string | undefined
  split?: string | undefined
  instrument?: string | undefined
}

export type AdjudicationWithItem = AdjudicationRow & { external_id: string; kind: string; set_name: string; split: string; payload: string }

/** Current adjudications with their items, by item and instrument. */
export function currentAdjudicationsWithItems(db: Db, filter: AdjudicationFilter = {}): AdjudicationWithItem[] {
  return db
    .prepare(
      `SELECT a.*, i.external_id, i.kind, i.set_name, i.split, i.payload FROM current_adjudications a
       JOIN items i ON i.id = a.item_id
       WHERE (@set IS NULL OR i.set_name = @set) AND (@split IS NULL OR i.split = @split)
         AND (@instrument IS NULL OR a.instrument_id = @instrument)
       ORDER BY i.id, a.instrument_id`
    )
    .all({ set: filter.set ?? null, split: filter.split ?? null, instrument: filter.instrument ?? null }) as AdjudicationWithItem[]
}

/** A finder of an adjudication by its id. */
export function adjudicationByIdFinder(db: Db): (id: string) => AdjudicationRow | undefined {
  const stmt = db.prepare(`SELECT * FROM adjudications WHERE id = ?`)
  return (id) => stmt.get(id) as AdjudicationRow | undefined
}
