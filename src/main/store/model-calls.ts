import type { Db, WritableDB } from './database'
import type { Project } from './project'
import type { AnswerFormat } from '../../shared/templates'
import { ACTIVE_RUN_SQL } from './archive'

// The records of runs and calls. Every answer is written with its cache row in one transaction as soon as it arrives
// (answers arriving close together share one commit, see RecordWriter); a call is never sent again once its row says
// so, and a request whose hash is in the cache is never sent at all.

/** The stored prompt of a call: the messages as sent and how to read the answer. */
export interface StoredPrompt {
  system?: string
  user: string
  template: string
  format: AnswerFormat
}

/** A call as planned, before it is sent: what the run records for it. */
export interface PlannedCall {
  itemId: number
  externalId: string
  trial: number
  orderIndex: number
  display: Record<string, unknown>
  prompt: StoredPrompt
  jsonSchema?: Record<string, unknown>
  hash: string
}

export type CallStatus = 'pending' | 'ok' | 'failed' | 'unparseable'
export type RunStatus = 'created' | 'running' | 'done' | 'cancelled' | 'failed'

export interface CachedAnswer {
  raw: string
  inputTokens: number | null
  outputTokens: number | null
  modelVersion: string | null
}

type CacheRow = { raw_answer: string; input_tokens: number | null; output_tokens: number | null; model_version: string | null }

/**
 * A paid answer for a request hash. Every answer the runner receives is written to the cache in the transaction that
 * records its call, so the cache alone says whether a request was paid for.
 */
export function cacheLookup(db: Db): (hash: string) => CachedAnswer | undefined {
  const stmt = db.prepare(`SELECT raw_answer, input_tokens, output_tokens, model_version FROM response_cache WHERE request_hash = ?`)
  return function lookupCachedAnswer(hash) {
    const r = stmt.get(hash) as CacheRow | undefined
    return r ? { raw: r.raw_answer, inputTokens: r.input_tokens, outputTokens: r.output_tokens, modelVersion: r.model_version } : undefined
  }
}

export function cachedAnswer(db: Db, hash: string): CachedAnswer | undefined {
  return cacheLookup(db)(hash)
}

export interface RunOptions {
  definitionKey: string
  viewer: string
  concurrency: number
  timeoutMs: number
  attempts: number
  batch: boolean
  pollIntervalMs?: number
  /** Generation runs: the scheme, where the new sets go, the Omega Point run whose tokens further requests approach. */
  scheme?: 'single' | 'multi-stage' | 'omega-point'
  outSet?: string
  tokenBudgetRun?: number | null
  /** What a generation run generates (absent in runs recorded before ideas could be generated: hypotheses). */
  generate?: 'hypotheses' | 'ideas' | 'tasks' | 'responses'
  /** The process executing the run (while `running`), so another process can tell a live run from a killed one. */
  runningPid?: number
  /** Hypothesis generation: tasks a leak audit found leaking were kept, as asked (they are left out otherwise). */
  keepLeaky?: boolean
  /** Items the template could not be asked about, with the reason (at most the first 1000). */
  skipped: { itemId: number; externalId: string; reason: string }[]
  skippedCount: number
}

export interface RunRow {
  id: number
  instrument_id: string
  judge_id: number
  template_id: string
  template_version: number
  selection: string
  seed: string
  both_orders: number
  trials: number
  options: string
  status: RunStatus
  batch: string | null
  created_at: string
  finished_at: string | null
}

export function getRunRow(db: Db, id: number): RunRow | undefined {
  return db.prepare(`SELECT * FROM runs WHERE id = ?`).get(id) as RunRow | undefined
}

export function runOptions(row: RunRow): RunOptions {
  return JSON.parse(row.options) as RunOptions
}

export interface NewRun {
  instrumentId: string
  judgeId: number
  templateId: string
  templateVersion: number
  selection: Record<string, unknown>
  seed: string
  bothOrders: boolean
  trials: number
  options: RunOptions
}

/**
 * Removes a run that never got an answer (every call failed: a wrong model name, an endpoint that does not answer),
 * so a run that could not start leaves no record, as one refused before it starts. Refuses to touch a run with any
 * answer. Says whether it was removed, and the first call's error.
 */
export function discardUnansweredRun(db: WritableDB, runId: number): { discarded: boolean; firstError: string | null } {
  const answered = db.prepare(`SELECT count(*) AS n FROM model_calls WHERE run_id = ? AND (raw_answer IS NOT NULL OR status IN ('ok', 'unparseable'))`).get(runId) as { n: number }
  const first = db.prepare(`SELECT error FROM model_calls WHERE run_id = ? AND error IS NOT NULL ORDER BY id LIMIT 1`).get(runId) as { error: string } | undefined
  if (answered.n > 0) return { discarded: false, firstError: first?.error ?? null }
  db.prepare(`DELETE FROM model_calls WHERE run_id = ?`).run(runId)
  db.prepare(`DELETE FROM runs WHERE id = ?`).run(runId)
  return { discarded: true, firstError: first?.error ?? null }
}

export function insertRun(db: WritableDB, run: NewRun): number {
  const info = db
    .prepare(
      `INSERT INTO runs (instrument_id, judge_id, template_id, template_version, selection, seed, both_orders, trials, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    .run(run.instrumentId, run.judgeId, run.templateId, run.templateVersion, JSON.stringify(run.selection), run.seed, run.bothOrders ? 1 : 0, run.trials, JSON.stringify(run.options))
  return Number(info.lastInsertRowid)
}

/** Records the planned calls as pending; calls the run has already are kept as they are. Returns how many were new. */
export function insertPlannedCalls(db: WritableDB, runId: number, calls: readonly PlannedCall[]): number {
  const stmt = db.prepare(
    `INSERT OR IGNORE INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt) VALUES (?, ?, ?, ?, ?, ?, ?)`
  )
  let added = 0
  for (const c of calls) added += stmt.run(runId, c.itemId, c.trial, c.orderIndex, c.hash, JSON.stringify(c.display), JSON.stringify(c.prompt)).changes
  return added
}

export function setRunStatus(db: WritableDB, runId: number, status: RunStatus): void {
  const finished = status === 'done' || status === 'cancelled' || status === 'failed'
  db.prepare(`UPDATE runs SET status = ?, finished_at = ? WHERE id = ?`).run(status, finished ? new Date().toISOString() : null, runId)
}

/** Marks a run as executing in this process. */
export function markRunRunning(db: WritableDB, runId: number): void {
  db.prepare(`UPDATE runs SET status = 'running', finished_at = NULL, options = json_set(options, '$.runningPid', ?) WHERE id = ?`).run(process.pid, runId)
}

/** Whether a `running` run is executing in another process that is still alive (a killed one is not). */
export function runningElsewhere(row: Pick<RunRow, 'status'>, options: Pick<RunOptions, 'runningPid'>): boolean {
  const pid = options.runningPid
  if (row.status !== 'running' || typeof pid !== 'number' || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A run marked running whose recorded process is gone: it was killed, and is interrupted (the same command resumes
 * it). A run of this process, or of a live one, or one that names no process, is not said to be.
 */
export function runInterrupted(row: Pick<RunRow, 'status'>, options: Pick<RunOptions, 'runningPid'>): boolean {
  const pid = options.runningPid
  return row.status === 'running' && typeof pid === 'number' && pid !== process.pid && !runningElsewhere(row, options)
}

export function setRunBatch(db: WritableDB, runId: number, batch: unknown): void {
  db.prepare(`UPDATE runs SET batch = ? WHERE id = ?`).run(JSON.stringify(batch), runId)
}

/** The most recent run with this definition, for resuming. */
export function runWithDefinition(db: Db, key: string): RunRow | undefined {
  return db.prepare(`SELECT * FROM runs WHERE json_extract(options, '$.definitionKey') = ? ORDER BY id DESC LIMIT 1`).get(key) as RunRow | undefined
}

export interface WorkCall {
  id: number
  itemId: number
  trial: number
  orderIndex: number
  hash: string
  display: Record<string, unknown>
  prompt: StoredPrompt
  attempts: number
}

/** Calls still to make: pending, and failed ones (a rerun retries them). */
export function workOf(db: Db, runId: number): WorkCall[] {
  const rows = db
    .prepare(
      `SELECT id, item_id, trial, order_index, request_hash, display, prompt, attempts FROM model_calls
       WHERE run_id = ? AND status IN ('pending','failed') ORDER BY id`
    )
    .all(runId) as { id: number; item_id: number; trial: number; order_index: number; request_hash: string; display: string; prompt: string; attempts: number }[]
  return rows.map((r) => ({
    id: r.id,
    itemId: r.item_id,
    trial: r.trial,
    orderIndex: r.order_index,
    hash: r.request_hash,
    display: JSON.parse(r.display) as Record<string, unknown>,
    prompt: JSON.parse(r.prompt) as StoredPrompt,
    attempts: r.attempts
  }))
}

export interface RunCounts {
  total: number
  pending: number
  ok: number
  unparseable: number
  failed: number
  cached: number
  costUsd: number
  /** Answered calls (not from the cache) with no known price; their cost is not in costUsd. */
  unpriced: number
  inputTokens: number
  outputTokens: number
}

export function runCounts(db: Db, runId: number): RunCounts {
  const r = db
    .prepare(
      `SELECT count(*) AS total,
              coalesce(sum(status = 'pending'), 0) AS pending,
              coalesce(sum(status = 'ok'), 0) AS ok,
              coalesce(sum(status = 'unparseable'), 0) AS unparseable,
              coalesce(sum(status = 'failed'), 0) AS failed,
              coalesce(sum(cached), 0) AS cached,
              coalesce(sum(cost_usd), 0) AS costUsd,
              coalesce(sum(status IN ('ok', 'unparseable') AND cached = 0 AND cost_usd IS NULL), 0) AS unpriced,
              coalesce(sum(input_tokens), 0) AS inputTokens,
              coalesce(sum(output_tokens), 0) AS outputTokens
       FROM model_calls WHERE run_id = ?`
    )
    .get(runId) as RunCounts
  return r
}

/** One finished call, as the writer records it. */
export type CallRecord =
  | {
      kind: 'answer'
      callId: number
      hash: string
      raw: string
      inputTokens: number | null
      outputTokens: number | null
      modelVersion: string | null
      status: 'ok' | 'unparseable'
      judgement: unknown
      error: string | null
      costUsd: number | null
      latencyMs: number | null
      attempts: number
      cached: boolean
    }
  | { kind: 'failed'; callId: number; error: string; latencyMs: number | null; attempts: number }

/**
 * Group commit: a record is written in an IMMEDIATE transaction (synchronous=FULL makes each commit durable) at the
 * start of the next turn of the event loop when answers are rare, and with the records that arrive meanwhile at most
 * `maxDelayMs` later when they come fast, so that a run against a fast server does not spend its time in fsync. A call
 * is complete once its commit returns; `onCommit` reports the records that are.
 */
export const COMMIT_MAX_DELAY_MS = 50

export class RecordWriter {
  private queue: CallRecord[] = []
  private waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = []
  private scheduled = false
  private timer: NodeJS.Timeout | null = null
  private lastFlush = 0
  private failure: Error | null = null
  private readonly putCache
  private readonly putAnswer
  private readonly putFailure

  constructor(
    private readonly project: Project,
    private readonly onCommit: (records: readonly CallRecord[]) => void,
    private readonly onError: (e: Error) => void = () => {},
    private readonly maxDelayMs: number = COMMIT_MAX_DELAY_MS
  ) {
    const db = project.db
    this.putCache = db.prepare(
      `INSERT OR IGNORE INTO response_cache (request_hash, raw_answer, input_tokens, output_tokens, model_version) VALUES (?, ?, ?, ?, ?)`
    )
    this.putAnswer = db.prepare(
      `UPDATE model_calls SET raw_answer = ?, judgement = ?, status = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, latency_ms = ?,
         attempts = ?, error = ?, cached = ?, finished_at = ? WHERE id = ?`
    )
    this.putFailure = db.prepare(`UPDATE model_calls SET status = 'failed', error = ?, latency_ms = ?, attempts = ?, finished_at = ? WHERE id = ?`)
  }

  get error(): Error | null {
    return this.failure
  }

  push(record: CallRecord): void {
    this.queue.push(record)
    if (this.scheduled) return
    this.scheduled = true
    const wait = this.lastFlush + this.maxDelayMs - Date.now()
    if (wait <= 0) setImmediate(() => this.flush())
    else this.timer = setTimeout(() => this.flush(), wait)
  }

  /** Queues a record and resolves once it is committed (a step of a chain waits for its predecessor's record). */
  pushAndWait(record: CallRecord): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject })
      this.push(record)
    })
  }

  /** Writes everything queued now. */
  flush(): void {
    this.scheduled = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.lastFlush = Date.now()
    const waiters = this.waiters
    this.waiters = []
    if (this.failure) {
      for (const w of waiters) w.reject(this.failure)
      return
    }
    if (this.queue.length === 0) {
      for (const w of waiters) w.resolve()
      return
    }
    const batch = this.queue
    this.queue = []
    const now = new Date().toISOString()
    const { putCache, putAnswer, putFailure } = this
    try {
      this.project.write(function writeBatch() {
        for (const r of batch) {
          if (r.kind === 'answer') {
            if (!r.cached) putCache.run(r.hash, r.raw, r.inputTokens, r.outputTokens, r.modelVersion)
            putAnswer.run(
              r.raw,
              r.judgement === null || r.judgement === undefined ? null : JSON.stringify(r.judgement),
              r.status,
              r.inputTokens,
              r.outputTokens,
              r.costUsd,
              r.latencyMs,
              r.attempts,
              r.error,
              r.cached ? 1 : 0,
              now,
              r.callId
            )
          } else {
            putFailure.run(r.error, r.latencyMs, r.attempts, now, r.callId)
          }
        }
      })
    } catch (e) {
      this.failure = e instanceof Error ? e : new Error(String(e))
      for (const w of waiters) w.reject(this.failure)
      this.onError(this.failure)
      return
    }
    this.onCommit(batch)
    for (const w of waiters) w.resolve()
  }
}

/** How many calls the runs of an instrument hold, leaving out archived runs and judges. */
export function activeCallCount(db: Db, instrumentId: string): number {
  return (
    db.prepare(`SELECT count(*) AS n FROM model_calls c JOIN runs r ON r.id = c.run_id JOIN judges j ON j.id = r.judge_id WHERE r.instrument_id = ? AND ${ACTIVE_RUN_SQL}`).get(instrumentId) as {
      n: number
    }
  ).n
}

export function setRunOptions(db: WritableDB, runId: number, options: RunOptions): void {
  db.prepare(`UPDATE runs SET options = ? WHERE id = ?`).run(JSON.stringify(options), runId)
}

export type CacheRowWithHash = CacheRow & { request_hash: string }

/** The cached answers of these request hashes (hashes with none are left out). */
export function cachedAnswersOf(db: Db, hashes: readonly string[]): CacheRowWithHash[] {
  return db
    .prepare(`SELECT request_hash, raw_answer, input_tokens, output_tokens, model_version FROM response_cache WHERE request_hash IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(hashes)) as CacheRowWithHash[]
}
