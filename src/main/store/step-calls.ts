import type { Db, WritableDB } from './database'

// The calls of runs that ask one request after another (generation; probes written by a model): each read back by
// its item and position, and planned only when the step before it has its answer. Statements are prepared once per
// run, since a run asks for them on every step.

export interface StepCallRow {
  id: number
  order_index: number
  request_hash: string
  status: string
  raw_answer: string | null
  output_tokens: number | null
  attempts: number
  prompt: string
}

export interface GenerationCalls {
  /** The recorded steps of one task of a run, by position. */
  callsOf(runId: number, itemId: number, trial: number): StepCallRow[]
  insert(runId: number, itemId: number, trial: number, orderIndex: number, hash: string, display: string, prompt: string): number
  /** A recorded step whose request changed (a template edited, a new answer before it) is asked anew. */
  replan(id: number, hash: string, display: string, prompt: string): void
}

export function generationCalls(db: WritableDB): GenerationCalls {
  const callsOf = db.prepare(`SELECT id, order_index, request_hash, status, raw_answer, output_tokens, attempts, prompt FROM model_calls WHERE run_id = ? AND item_id = ? AND trial = ? ORDER BY order_index`)
  const insert = db.prepare(`INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt) VALUES (?, ?, ?, ?, ?, ?, ?)`)
  const replan = db.prepare(`UPDATE model_calls SET request_hash = ?, display = ?, prompt = ? WHERE id = ?`)
  return {
    callsOf: (runId, itemId, trial) => callsOf.all(runId, itemId, trial) as StepCallRow[],
    insert: (runId, itemId, trial, orderIndex, hash, display, prompt) => Number(insert.run(runId, itemId, trial, orderIndex, hash, display, prompt).lastInsertRowid),
    replan: (id, hash, display, prompt) => {
      replan.run(hash, display, prompt, id)
    }
  }
}

export type ProbeCallRow = Pick<StepCallRow, 'id' | 'request_hash' | 'status' | 'raw_answer' | 'attempts'>

export interface ProbeCalls {
  find(runId: number, itemId: number, orderIndex: number): ProbeCallRow | undefined
  insert(runId: number, itemId: number, orderIndex: number, hash: string, display: string, prompt: string): number
  /** A call whose request changed is asked anew. */
  replan(id: number, hash: string, prompt: string): void
}

export function probeCalls(db: WritableDB): ProbeCalls {
  const find = db.prepare(`SELECT id, request_hash, status, raw_answer, attempts FROM model_calls WHERE run_id = ? AND item_id = ? AND order_index = ?`)
  const insert = db.prepare(`INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt) VALUES (?, ?, 0, ?, ?, ?, ?)`)
  const replan = db.prepare(`UPDATE model_calls SET request_hash = ?, prompt = ?, status = 'pending' WHERE id = ?`)
  return {
    find: (runId, itemId, orderIndex) => find.get(runId, itemId, orderIndex) as ProbeCallRow | undefined,
    insert: (runId, itemId, orderIndex, hash, display, prompt) => Number(insert.run(runId, itemId, orderIndex, hash, display, prompt).lastInsertRowid),
    replan: (id, hash, prompt) => {
      replan.run(hash, prompt, id)
    }
  }
}

/** Generated tokens per item of a run, with the item's payload (an Omega Point run's budgets). */
export function outputTokensByItem(db: Db, runId: number): { payload: string; tokens: number }[] {
  return db
    .prepare(`SELECT i.payload AS payload, coalesce(sum(c.output_tokens), 0) AS tokens FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.run_id = ? GROUP BY c.item_id`)
    .all(runId) as { payload: string; tokens: number }[]
}

/** Generated tokens per task id of a run (an Omega Point run's budgets); null where an item names no task. */
export function outputTokensByTask(db: Db, runId: number): { task_id: string | null; tokens: number }[] {
  return db
    .prepare(
      `SELECT json_extract(i.payload, '$.task_id') AS task_id, coalesce(sum(c.output_tokens), 0) AS tokens
       FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.run_id = ? GROUP BY c.item_id`
    )
    .all(runId) as { task_id: string | null; tokens: number }[]
}

/** Every call of a run with its status, judgement and the item's payload, in call order. */
export function callsWithPayloads(db: Db, runId: number): { status: string; judgement: string | null; payload: string }[] {
  return db
    .prepare(`SELECT c.status, c.judgement, i.payload FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.run_id = ? ORDER BY c.id`)
    .all(runId) as { status: string; judgement: string | null; payload: string }[]
}

export interface BatchCallRow {
  id: number
  item_id: number
  trial: number
  order_index: number
  request_hash: string
  display: string
  prompt: string
  attempts: number
  status: string
}

/** One call of a run, as a batch resubmits it. */
export function batchCall(db: Db, runId: number, id: number): BatchCallRow | undefined {
  return db.prepare(`SELECT id, item_id, trial, order_index, request_hash, display, prompt, attempts, status FROM model_calls WHERE id = ? AND run_id = ?`).get(id, runId) as
    | BatchCallRow
    | undefined
}
