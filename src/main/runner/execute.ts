import { setMaxListeners } from 'node:events'
import { getInstrument } from '../../shared/instruments'
import { payloadWithContext } from '../annotation/item-context'
import { redact } from '../providers/errors'
import { ProviderError, type JudgeConfig, type Provider } from '../providers/types'
import type { Db } from '../store/database'
import type { Project } from '../store/project'
import { answerRecorder } from './answer-record'
import { RecordWriter, runCounts, type CallRecord, type WorkCall } from '../store/model-calls'
import { openCacheView } from './shared-cache'
import type { ProviderGate, RetryPolicy } from './gate'
import { isFatal, sendWithRetries } from './send'
import { judgementJsonSchema } from './plan'
import type { Price } from './prices'
import { kindsAndPayloads } from '../store/items'

export interface RunProgress {
  runId: number
  /** Calls finished, with any status. */
  done: number
  /** Of those, calls that failed after their retries. */
  failed: number
  total: number
  costUsd: number
  etaMs: number | null
}

/** What every way of making a run's calls (one by one, in batches, as generation chains) takes. */
export interface RunCallOptions {
  project: Project
  runId: number
  provider: Provider
  config: JudgeConfig
  price: Price | undefined
  policy: RetryPolicy
  signal: AbortSignal
  onProgress?: (p: RunProgress) => void
  /** Keys used by this run, removed from any text that is stored. */
  secrets?: readonly string[]
}

/** Calls sent one at a time, at most `concurrency` at once, through the provider's gate. */
export interface GatedCallOptions extends RunCallOptions {
  gate: ProviderGate
  concurrency: number
}

export interface ExecuteOptions extends GatedCallOptions {
  instrumentId: string
  /** Called at most every `progressEveryMs` while calls finish, and once at the end. */
  onProgress?: (p: RunProgress) => void
  progressEveryMs?: number
}

export type ExecuteOutcome = 'done' | 'cancelled' | 'failed'

export interface ExecuteResult {
  outcome: ExecuteOutcome
  /** Requests sent to the provider by this execution (retries included). */
  requests: number
  /** Why the run stopped early: a key refused, the project file unwritable. */
  fatal: string | null
}

/** Shared state of a run's pass and the counters its progress is reported from. */
class Progress {
  done = 0
  failed = 0
  costUsd = 0
  private lastEmit = 0
  private readonly started = Date.now()
  private finishedHere = 0

  constructor(
    private readonly runId: number,
    readonly total: number,
    private readonly everyMs: number,
    private readonly sink?: (p: RunProgress) => void
  ) {}

  committed(records: readonly CallRecord[]): void {
    for (const r of records) {
      this.done++
      this.finishedHere++
      if (r.kind === 'failed') this.failed++
      else this.costUsd += r.costUsd ?? 0
    }
    this.emit(false)
  }

  emit(force: boolean): void {
    if (!this.sink) return
    const now = Date.now()
    if (!force && now - this.lastEmit < this.everyMs) return
    this.lastEmit = now
    const elapsed = now - this.started
    const left = this.total - this.done
    const etaMs = left === 0 ? 0 : this.finishedHere > 0 ? Math.round((elapsed / this.finishedHere) * left) : null
    this.sink({ runId: this.runId, done: this.done, failed: this.failed, total: this.total, costUsd: this.costUsd, etaMs })
  }
}

/**
 * Makes every pending or failed call of a run: answers from the cache where the request was paid for before, the
 * others through the provider with `concurrency` workers, retries with backoff that honour Retry-After, a deadline
 * per try, and cancellation. Each answer is recorded as it arrives (see RecordWriter).
 */
export async function executeCalls(o: ExecuteOptions, work: readonly WorkCall[]): Promise<ExecuteResult> {
  const db = o.project.db
  const instrument = getInstrument(o.instrumentId)
  const counts = runCounts(db, o.runId)
  const progress = new Progress(o.runId, counts.total, o.progressEveryMs ?? 250, o.onProgress)
  // Calls not in `work` are finished already; their cost counts towards the run's.
  progress.done = counts.total - work.length
  progress.costUsd = counts.costUsd
  const stop = new AbortController()
  const signal = AbortSignal.any([o.signal, stop.signal])
  // Every request in flight listens to the run's signal; dozens at once are expected, not a leak.
  setMaxListeners(0, signal)
  let fatal: string | null = null
  const view = openCacheView(db, work.map((c) => c.hash))
  // Claims on requests answered here, released when their records are committed.
  const claims = new Map<number, { committed(): void }>()
  const writer = new RecordWriter(
    o.project,
    (records) => {
      for (const r of records) {
        claims.get(r.callId)?.committed()
        claims.delete(r.callId)
      }
      progress.committed(records)
    },
    (e) => {
      fatal = `the project file could not be written: ${e.message}`
      stop.abort()
    }
  )
  const payloadOf = payloadLoader(db, work)
  const secrets = o.secrets ?? []
  const jsonSchema = o.config.structuredOutput ? (judgementJsonSchema(instrument) ?? undefined) : undefined
  let requests = 0
  let next = 0

  const answerRecord = answerRecorder({ instrument, price: o.price, batch: false, payloadOf })

  const processCall = async (call: WorkCall): Promise<void> => {
    for (;;) {
      const hit = view.lookup(call.hash)
      if (hit) {
        writer.push(answerRecord(call, hit.raw, { ...hit, truncated: false }, { latencyMs: null, attempts: call.attempts, cached: true }))
        return
      }
      // An identical request on its way (in this run or another) is waited for, not sent again.
      const waiting = view.waitFor(call.hash)
      if (!waiting) break
      const response = await waiting
      if (response) {
        writer.push(answerRecord(call, response.text, response, { latencyMs: null, attempts: call.attempts, cached: true }))
        return
      }
    }
    const claim = view.claim(call.hash)
    try {
      const result = await sendWithRetries(
        o.provider,
        o.config,
        {
          ...(call.prompt.system !== undefined ? { system: call.prompt.system } : {}),
          user: call.prompt.user,
          ...(jsonSchema && call.prompt.format === 'json' ? { jsonSchema } : {})
        },
        o.policy,
        o.gate,
        signal,
        () => requests++
      )
      if ('response' in result) {
        claim.settle(result.response)
        claims.set(call.id, claim)
        writer.push(answerRecord(call, result.response.text, result.response, { latencyMs: result.latencyMs, attempts: call.attempts + result.sent, cached: false }))
      } else {
        claim.settle(null)
        if (isFatal(result.error)) {
          fatal ??= redact(result.error.message, secrets)
          stop.abort()
        }
        writer.push({ kind: 'failed', callId: call.id, error: redact(`${result.error.kind}: ${result.error.message}`, secrets), latencyMs: result.latencyMs, attempts: call.attempts + result.sent })
      }
    } catch (e) {
      claim.settle(null)
      // Cancelled: the call stays pending and is made when the run resumes.
      if (!(e instanceof ProviderError && e.kind === 'cancelled')) throw e
    }
  }

  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      const call = work[next++]
      if (!call) return
      await processCall(call)
    }
  }

  progress.emit(true)
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, work.length)) }, worker))
  } finally {
    writer.flush()
    for (const claim of claims.values()) claim.committed()
    view.close()
  }
  progress.emit(true)
  const writeError = writer.error as Error | null
  if (writeError) fatal ??= `the project file could not be written: ${writeError.message}`
  const outcome: ExecuteOutcome = fatal ? 'failed' : o.signal.aborted ? 'cancelled' : 'done'
  return { outcome, requests, fatal }
}

/** The payloads (with their context) of the items a pass works on, read in one query and parsed on first use. */
export function payloadLoader(db: Db, work: readonly WorkCall[]): (itemId: number) => Record<string, unknown> {
  const ids = [...new Set(work.map((c) => c.itemId))]
  const rows = new Map<number, { kind: string; payload: string }>()
  for (const r of kindsAndPayloads(db, ids)) rows.set(r.id, r)
  const parsed = new Map<number, Record<string, unknown>>()
  return (itemId) => {
    let p = parsed.get(itemId)
    if (!p) {
      const row = rows.get(itemId)
      p = row ? payloadWithContext(db, row as never) : {}
      parsed.set(itemId, p)
    }
    return p
  }
}
