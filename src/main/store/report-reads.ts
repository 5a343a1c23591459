import type { CallStatus } from '../../shared/report'
import type { ItemKind, Split } from '../../shared/items/kinds'
import { ACTIVE_RUN_SQL } from './archive'
import { runInterrupted, type RunOptions } from './model-calls'
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
  // The small columns as one JSON array each and the payloads as a list, both by id: a row per item costs the driver
  // more than reading the columns. Gathering reads inside one transaction, so both reads see the same items.
  const where = `FROM items WHERE kind = ? AND (? IS NULL OR split = ?) ORDER BY id`
  const args = [kind, split ?? null, split ?? null]
  const [ids, externalIds, sets, splits] = (
    db.prepare(`SELECT json_group_array(id), json_group_array(external_id), json_group_array(set_name), json_group_array(split) FROM (SELECT id, external_id, set_name, split ${where})`).raw(true).get(...args) as string[]
  ).map((json) => JSON.parse(json) as unknown[]) as [number[], string[], string[], Array<ReportItemRow['split']>]
  const payloads = db.prepare(`SELECT payload ${where}`).pluck().all(...args) as string[]
  // An aggregate's order follows its rows' order in SQLite, though not promised: checked, and read by rows otherwise.
  if (payloads.length !== ids.length || ids.some((id, i) => i > 0 && id <= (ids[i - 1] as number))) return itemRowsByRow(db, where, args)
  return ids.map((id, i) => ({ id, kind, external_id: externalIds[i] as string, set_name: sets[i] as string, split: splits[i] as ReportItemRow['split'], payload: payloads[i] as string }))
}

function itemRowsByRow(db: Db, where: string, args: unknown[]): ReportItemRow[] {
  const rows = db.prepare(`SELECT id, kind, external_id, set_name, split, payload ${where}`).raw(true).all(...args) as Array<[number, ItemKind, string, string, ReportItemRow['split'], string]>
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
  /** Killed while running (its process is gone): shown as interrupted, as runs lists show it. */
  interrupted: boolean
}

/** The runs of an instrument with their judge's facts (archived ones only when asked). */
export function reportRunRows(db: Db, instrumentId: string, includeArchived: boolean): ReportRunRow[] {
  const rows = db
    .prepare(
      `SELECT r.id AS run_id, r.template_id, r.template_version, r.trials, r.both_orders, r.status AS run_status,
              NOT ${ACTIVE_RUN_SQL} AS archived, r.options,
              j.name AS judge, j.provider, j.model, j.company, j.base_url
       FROM runs r JOIN judges j ON j.id = r.judge_id
       WHERE r.instrument_id = ? AND (? = 1 OR ${ACTIVE_RUN_SQL})`
    )
    .all(instrumentId, includeArchived ? 1 : 0) as Array<Omit<ReportRunRow, 'interrupted'> & { options: string }>
  return rows.map(({ options, ...r }) => ({ ...r, interrupted: r.run_status === 'running' && runInterrupted({ status: r.run_status }, JSON.parse(options) as RunOptions) }))
}

/** A run's calls as columns, one entry per call, in item, trial and display order. */
export interface CallColumns {
  item: number[]
  trial: number[]
  order: number[]
  status: CallStatus[]
  display: string[]
  judgement: Array<string | null>
}

/** Calls read in one go: bounds the JSON text of one chunk's columns. */
const CALL_CHUNK = 65_536

const KEY_ORDER = 'ORDER BY item_id, trial, order_index'
const AFTER = 'run_id = ? AND (item_id, trial, order_index) > (?, ?, ?)'

/**
 * Every call of one run, by item, trial and display order, as columns, a chunk at a time. The small columns come as
 * one JSON array each, parsed at once: a row per call costs the driver more than the rest of the report's reading.
 * The judgements come as a list of strings by the same key. Read inside one transaction (gathering is), so both
 * reads of a chunk see the same rows.
 */
export function* runCallColumns(db: Db, runId: number, chunk = CALL_CHUNK): Generator<CallColumns> {
  const small = db
    .prepare(
      `SELECT json_group_array(item_id), json_group_array(trial), json_group_array(order_index), json_group_array(status), json_group_array(display)
       FROM (SELECT item_id, trial, order_index, status, display FROM model_calls WHERE ${AFTER} ${KEY_ORDER} LIMIT ?)`
    )
    .raw(true)
  const judgements = db.prepare(`SELECT judgement FROM model_calls WHERE ${AFTER} ${KEY_ORDER} LIMIT ?`).pluck()
  let after: [number, number, number] = [-1, -1, -1]
  for (;;) {
    const [item, trial, order, status, display] = (small.get(runId, ...after, chunk) as string[]).map((json) => JSON.parse(json) as unknown[])
    const columns = { item, trial, order, status, display, judgement: judgements.all(runId, ...after, chunk) } as CallColumns
    const n = columns.item.length
    if (n === 0) return
    // An aggregate's order follows its rows' order in SQLite, though not promised: checked against the key, and the
    // chunk read row by row where it does not hold.
    yield inKeyOrder(columns) ? columns : callRowsByKey(db, runId, after, chunk)
    if (n < chunk) return
    after = [columns.item[n - 1] as number, columns.trial[n - 1] as number, columns.order[n - 1] as number]
  }
}

/** Whether a chunk's columns are in key order (item, trial, display order; each key once) with a judgement each. */
export function inKeyOrder(c: CallColumns): boolean {
  for (let i = 1; i < c.item.length; i++) {
    const item = (c.item[i] as number) - (c.item[i - 1] as number)
    const trial = (c.trial[i] as number) - (c.trial[i - 1] as number)
    if (item < 0 || (item === 0 && (trial < 0 || (trial === 0 && (c.order[i] as number) <= (c.order[i - 1] as number))))) return false
  }
  return c.judgement.length === c.item.length
}

function callRowsByKey(db: Db, runId: number, after: readonly number[], chunk: number): CallColumns {
  const rows = db
    .prepare(`SELECT item_id, trial, order_index, status, display, judgement FROM model_calls WHERE ${AFTER} ${KEY_ORDER} LIMIT ?`)
    .raw(true)
    .all(runId, ...after, chunk) as Array<[number, number, number, CallStatus, string, string | null]>
  return {
    item: rows.map((r) => r[0]),
    trial: rows.map((r) => r[1]),
    order: rows.map((r) => r[2]),
    status: rows.map((r) => r[3]),
    display: rows.map((r) => r[4]),
    judgement: rows.map((r) => r[5])
  }
}
