import { getInstrument } from '../../shared/instruments'
import { redact } from '../providers/errors'
import { ProviderError, type BatchApi, type BatchResult } from '../providers/types'
import type { Project } from '../store/project'
import { answerRecorder } from './answer-record'
import { cacheLookup, getRunRow, RecordWriter, runCounts, setRunBatch, type WorkCall } from '../store/model-calls'
import { batchCall } from '../store/step-calls'
import { backoffMs, sleep } from './gate'
import { judgementJsonSchema } from './plan'
import { payloadLoader, type ExecuteResult, type RunCallOptions } from './execute'

// Large runs through the providers' batch APIs (about half price, answers within a day). Submitted batch ids are
// written to the run before anything else happens, so a run stopped while a batch is out polls that batch again
// when it resumes instead of submitting (and paying for) its requests twice.

export interface BatchJob {
  id: string
  callIds: number[]
  submittedAt: string
  ingested: boolean
}

export interface RunBatchState {
  provider: string
  jobs: BatchJob[]
}

export interface BatchOptions extends RunCallOptions {
  instrumentId: string
  pollIntervalMs: number
  /** Requests per submitted batch; also bounded by `maxBatchChars` of prompt text. */
  maxBatchRequests?: number
  maxBatchChars?: number
}

const customIdOf = (callId: number) => `c${callId}`

function batchState(project: Project, runId: number, provider: string): RunBatchState {
  const raw = getRunRow(project.db, runId)?.batch
  const state = raw ? (JSON.parse(raw) as RunBatchState) : null
  return state && Array.isArray(state.jobs) ? state : { provider, jobs: [] }
}

function chunks(work: readonly WorkCall[], maxRequests: number, maxChars: number): WorkCall[][] {
  const out: WorkCall[][] = []
  let current: WorkCall[] = []
  let chars = 0
  for (const call of work) {
    const size = (call.prompt.system?.length ?? 0) + call.prompt.user.length
    if (current.length > 0 && (current.length >= maxRequests || chars + size > maxChars)) {
      out.push(current)
      current = []
      chars = 0
    }
    current.push(call)
    chars += size
  }
  if (current.length) out.push(current)
  return out
}

/** A batch control call (submit, poll, results) with retries for transient failures. */
async function control<T>(o: BatchOptions, call: () => Promise<T>): Promise<T> {
  let failures = 0
  for (;;) {
    try {
      return await call()
    } catch (e) {
      if (!(e instanceof ProviderError) || !e.retryable || o.signal.aborted) throw e
      failures++
      if (failures > Math.max(o.policy.attempts, 5)) throw e
      await sleep(e.retryAfterMs ?? backoffMs(o.policy, failures), o.signal)
    }
  }
}

export async function executeBatch(o: BatchOptions, work: readonly WorkCall[]): Promise<ExecuteResult> {
  const api: BatchApi | undefined = o.provider.batch
  if (!api) throw new ProviderError({ kind: 'bad_request', message: `${o.provider.kind} has no batch API; run without --batch` })
  const db = o.project.db
  const instrument = getInstrument(o.instrumentId)
  const secrets = o.secrets ?? []
  const counts = runCounts(db, o.runId)
  let done = counts.total - work.length
  let failed = 0
  let costUsd = counts.costUsd
  const emit = (extraDone = 0) => o.onProgress?.({ runId: o.runId, done: done + extraDone, failed, total: counts.total, costUsd, etaMs: null })
  const writer = new RecordWriter(o.project, (records) => {
    for (const r of records) {
      done++
      if (r.kind === 'failed') failed++
      else costUsd += r.costUsd ?? 0
    }
  })
  const byId = new Map(work.map((c) => [c.id, c]))
  const payloadOf = payloadLoader(db, work)
  const cached = cacheLookup(db)
  const answerRecord = answerRecorder({ instrument, price: o.price, batch: true, payloadOf })

  const state = batchState(o.project, o.runId, o.provider.kind)
  const saveState = () => o.project.write((db) => setRunBatch(db, o.runId, state))
  const outstanding = new Set(state.jobs.filter((j) => !j.ingested).flatMap((j) => j.callIds))
  let requests = 0

  // Cache hits are answered now; calls already out in a batch wait for it.
  const toSubmit: WorkCall[] = []
  for (const call of work) {
    if (outstanding.has(call.id)) continue
    const hit = cached(call.hash)
    if (hit) writer.push(answerRecord(call, hit.raw, { ...hit, truncated: false }, { latencyMs: null, attempts: call.attempts, cached: true }))
    else toSubmit.push(call)
  }
  writer.flush()
  emit()

  try {
    const schema = o.config.structuredOutput ? (judgementJsonSchema(instrument) ?? undefined) : undefined
    for (const chunk of chunks(toSubmit, o.maxBatchRequests ?? 10_000, o.maxBatchChars ?? 15_000_000)) {
      if (o.signal.aborted) break
      const items = chunk.map((c) => ({
        customId: customIdOf(c.id),
        request: { ...(c.prompt.system !== undefined ? { system: c.prompt.system } : {}), user: c.prompt.user, ...(schema && c.prompt.format === 'json' ? { jsonSchema: schema } : {}), timeoutMs: o.policy.timeoutMs }
      }))
      // No retry here: a submit that failed after reaching the provider might have created the batch.
      const { batchId } = await api.submit(o.config, items, { signal: o.signal })
      requests += items.length
      state.jobs.push({ id: batchId, callIds: chunk.map((c) => c.id), submittedAt: new Date().toISOString(), ingested: false })
      saveState()
    }

    for (const job of state.jobs) {
      if (job.ingested) continue
      for (;;) {
        const status = await control(o, () => api.poll(job.id, { signal: o.signal }))
        emit(Math.min(status.done, job.callIds.length))
        if (status.state !== 'running') break
        await sleep(o.pollIntervalMs, o.signal)
      }
      const results = await control(o, () => api.results(job.id, { signal: o.signal }))
      ingest(job, results)
      job.ingested = true
      saveState()
      emit()
    }
  } catch (e) {
    writer.flush()
    if (e instanceof ProviderError && (e.kind === 'cancelled' || o.signal.aborted)) return { outcome: 'cancelled', requests, fatal: null }
    if (e instanceof ProviderError && !e.retryable) return { outcome: 'failed', requests, fatal: redact(e.message, secrets) }
    throw e
  }
  writer.flush()
  emit()
  return { outcome: o.signal.aborted ? 'cancelled' : 'done', requests, fatal: null }

  function ingest(job: BatchJob, results: readonly BatchResult[]): void {
    const seen = new Set<number>()
    for (const r of results) {
      const id = Number(r.customId.slice(1))
      const call = byId.get(id) ?? workCallFromDb(id)
      if (!call || !job.callIds.includes(id)) continue
      seen.add(id)
      if (r.response) writer.push(answerRecord(call, r.response.text, r.response, { latencyMs: null, attempts: call.attempts + 1, cached: false }))
      else writer.push({ kind: 'failed', callId: id, error: redact(`${r.error?.kind ?? 'server'}: ${r.error?.message ?? 'no answer'}`, secrets), latencyMs: null, attempts: call.attempts + 1 })
    }
    for (const id of job.callIds) {
      if (seen.has(id)) continue
      const call = byId.get(id) ?? workCallFromDb(id)
      if (call) writer.push({ kind: 'failed', callId: id, error: `server: batch ${job.id} returned no result for this request`, latencyMs: null, attempts: call.attempts + 1 })
    }
    writer.flush()
  }

  function workCallFromDb(id: number): WorkCall | undefined {
    const r = batchCall(db, o.runId, id)
    if (!r || (r.status !== 'pending' && r.status !== 'failed')) return undefined
    return { id: r.id, itemId: r.item_id, trial: r.trial, orderIndex: r.order_index, hash: r.request_hash, display: JSON.parse(r.display), prompt: JSON.parse(r.prompt), attempts: r.attempts }
  }
}
