import type { Split } from '../../shared/items/kinds'
import type { Db } from './database'
import type { CallStatus, RunRow } from './model-calls'

// What the workbench lists of runs and calls: the runs, a page of a run's calls with their items, one call.

export interface CallJoinRow {
  id: number
  run_id: number
  item_id: number
  external_id: string
  split: Split
  trial: number
  order_index: number
  request_hash: string
  display: string
  prompt: string
  raw_answer: string | null
  judgement: string | null
  status: CallStatus
  input_tokens: number | null
  output_tokens: number | null
  cost_usd: number | null
  latency_ms: number | null
  attempts: number
  error: string | null
  cached: number
}

/** Every run, newest first. */
export function allRunRows(db: Db): RunRow[] {
  return db.prepare(`SELECT * FROM runs ORDER BY id DESC`).all() as RunRow[]
}

/** The error most of a run's failed calls ended with, if any failed. */
export function commonestError(db: Db, runId: number): string | null {
  const row = db
    .prepare(`SELECT error, count(*) AS n FROM model_calls WHERE run_id = ? AND status = 'failed' GROUP BY error ORDER BY n DESC LIMIT 1`)
    .get(runId) as { error: string | null } | undefined
  return row?.error ?? null
}

/** A page of a run's calls (of one status when given), in call order, without prompts or answers; and how many there are. */
export function callPage(db: Db, runId: number, status: CallStatus | undefined, offset: number, limit: number): { total: number; rows: CallJoinRow[] } {
  const where = `c.run_id = ?${status ? ' AND c.status = ?' : ''}`
  const params: unknown[] = status ? [runId, status] : [runId]
  const total = (db.prepare(`SELECT count(*) AS n FROM model_calls c WHERE ${where}`).get(...params) as { n: number }).n
  const rows = db
    .prepare(
      `SELECT c.id, c.run_id, c.item_id, i.external_id, i.split, c.trial, c.order_index, c.status, c.input_tokens, c.output_tokens,
              c.cost_usd, c.latency_ms, c.attempts, c.error, c.cached
       FROM model_calls c JOIN items i ON i.id = c.item_id WHERE ${where} ORDER BY c.id LIMIT ? OFFSET ?`
    )
    .all(...params, limit, offset) as CallJoinRow[]
  return { total, rows }
}

/** One call with everything recorded of it, and its item's external id and split. */
export function callWithItem(db: Db, callId: number): CallJoinRow | undefined {
  return db.prepare(`SELECT c.*, i.external_id, i.split FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.id = ?`).get(callId) as CallJoinRow | undefined
}
