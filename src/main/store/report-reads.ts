import type { CallStatus } from '../../shared/report'
import type { ItemKind, Split } from '../../shared/items/kinds'
import { ACTIVE_RUN_SQL } from './archive'
import type { Db } from './database'

// What gathering for the audit reads, in the shapes it reads them: items of one kind, exposures, pseudonyms, current
// adjudications, and the runs and calls of one instrument (calls as raw rows: this runs over every call of every run).

export interface ReportItemRow {
  id: number
  kind: ItemKind
  external_id: string
  set_name: string
  split: Split | 'none'
  payload: string
}

export function itemRowsOfKind(db: Db, kind: ItemKind, split: Split | undefined): ReportItemRow[] {
  // Arrays made into literals here: a third faster than rows built as objects by the driver.
  const rows = db
    .prepare(`SELECT id, kind, external_id, set_name, split, payload FROM items WHERE kind = ? AND (? IS NULL OR split = ?) ORDER BY id`)
    .raw(true)
    .all(kind, split ?? null, split ?? null) as Array<[number, ItemKind, string, string, ReportItemRow['split'], string]>
  return rows.map((r) => ({ id: r[0], kind: r[1], external_id: r[2], set_name: r[3], split: r[4], payload: r[5] }))
}

/** Every exposure of a test item, in the order they were logged. */
export function exposureRows(db: Db): Array<{ item_id: number; kind: string }> {
  return db.prepare(`SELECT item_id, kind FROM exposures ORDER BY id`).all() as Array<{ item_id: number; kind: string }>
}

/** Annotators' pseudonyms by id: reports name people by pseudonym. */
export function annotatorPseudonyms(db: Db): Map<number, string> {
  return new Map((db.prepare(`SELECT id, pseudonym FROM annotators`).all() as { id: number; pseudonym: string }[]).map((r) => [r.id, r.pseudonym]))
}

/** Current adjudications of an instrument, by item. */
export function currentAdjudicationRows(db: Db, instrumentId: string): Array<{ item_id: number; judgement: string; curator: string }> {
  return db
    .prepare(
      `SELECT a.item_id, a.judgement, a.curator FROM current_adjudications a
       WHERE a.instrument_id = ?
       ORDER BY a.item_id`
    )
    .all(instrumentId) as Array<{ item_id: number; judgement: string; curator: string }>
}

export interface ReportRunRow {
  run_id: number
  template_id: string
  template_version: number
  trials: number
  both_orders: number
  run_status: string
  archived: number
  judge: string
  provider: string
  model: string
  company: string | null
  base_url: string | null
}

/** A call as read for the report, in column order. */
export type ReportCallRow = [run_id: number, item_id: number, trial: number, order_index: number, status: CallStatus, display: string, judgement: string | null]

/** The runs of an instrument with their judge's facts (archived ones only when asked). */
export function reportRunRows(db: Db, instrumentId: string, includeArchived: boolean): ReportRunRow[] {
  return db
    .prepare(
      `SELECT r.id AS run_id, r.template_id, r.template_version, r.trials, r.both_orders, r.status AS run_status,
              NOT ${ACTIVE_RUN_SQL} AS archived,
              j.name AS judge, j.provider, j.model, j.company, j.base_url
       FROM runs r JOIN judges j ON j.id = r.judge_id
       WHERE r.instrument_id = ? AND (? = 1 OR ${ACTIVE_RUN_SQL})`
    )
    .all(instrumentId, includeArchived ? 1 : 0) as ReportRunRow[]
}

/** Every call of those runs, by run, item, trial and display order. */
export function reportCallRows(db: Db, instrumentId: string, includeArchived: boolean): IterableIterator<ReportCallRow> {
  return db
    .prepare(
      `SELECT c.run_id, c.item_id, c.trial, c.order_index, c.status, c.display, c.judgement
       FROM model_calls c JOIN runs r ON r.id = c.run_id JOIN judges j ON j.id = r.judge_id
       WHERE r.instrument_id = ? AND (? = 1 OR ${ACTIVE_RUN_SQL}) ORDER BY c.run_id, c.item_id, c.trial, c.order_index`
    )
    .raw(true)
    .iterate(instrumentId, includeArchived ? 1 : 0) as IterableIterator<ReportCallRow>
}
