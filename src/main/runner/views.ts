import { RUN_SKIPPED_LISTED, type CallDetail, type CallRow, type RunSummary } from '../../shared/contract/run-operations'
import { AssayError } from '../../shared/errors'
import { getInstrument } from '../../shared/instruments'
import { payloadWithContext } from '../annotation/item-context'
import { logExposure } from '../store/exposures'
import { getItem } from '../store/items'
import { allRunRows, callPage, callWithItem, commonestError, type CallJoinRow } from '../store/call-views'
import type { Db, WritableDB } from '../store/database'
import { getRunRow, runCounts, runOptions, type CallStatus, type RunRow, runningElsewhere } from '../store/model-calls'
import { interpretAnswer } from './interpret'
import { readStepAnswer, type StepKind } from './chain'
import { readIdeaStepAnswer } from './idea-chain'
import { readCompositionAnswer } from './task-composition'
import { readResponseAnswer } from './fs-responses'
import { getJudge } from './judges'
import type { StoredPrompt } from './plan'

// What the workbench shows of runs and calls. Lists carry no answers; one call's answer is shown on request, and
// showing a judge's output on a held-out (test) item is logged, because a seen output is no longer blind.

export function runSummary(db: Db, row: RunRow, active: boolean): RunSummary {
  const judge = getJudge(db, row.judge_id)
  const options = runOptions(row)
  return {
    id: row.id,
    instrument: row.instrument_id,
    judge: { id: judge.id, name: judge.name, provider: judge.provider, model: judge.model, company: judge.effectiveCompany },
    template: `${row.template_id}@${row.template_version}`,
    selection: JSON.parse(row.selection) as RunSummary['selection'],
    seed: row.seed,
    viewer: options.viewer,
    bothOrders: row.both_orders === 1,
    trials: row.trials,
    batch: options.batch,
    status: row.status,
    // Executing here, or in another process that is still alive; a `running` run that is neither was interrupted.
    active: active || runningElsewhere(row, options),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    counts: runCounts(db, row.id),
    skipped: options.skippedCount ?? 0,
    // Runs recorded before skipped items were kept have none listed.
    skippedItems: (options.skipped ?? []).slice(0, RUN_SKIPPED_LISTED).map((s) => ({ externalId: s.externalId, reason: s.reason })),
    lastError: commonestError(db, row.id)
  }
}

export function getRunSummary(db: Db, runId: number, isActive: (id: number) => boolean): RunSummary {
  const row = getRunRow(db, runId)
  if (!row) throw new AssayError('not_found', `No run ${runId}`)
  return runSummary(db, row, isActive(runId))
}

export function listRunSummaries(db: Db, isActive: (id: number) => boolean): RunSummary[] {
  return allRunRows(db).map((r) => runSummary(db, r, isActive(r.id)))
}

function callRow(r: CallJoinRow): CallRow {
  return {
    id: r.id,
    itemId: r.item_id,
    externalId: r.external_id,
    split: r.split,
    trial: r.trial,
    orderIndex: r.order_index,
    status: r.status,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    costUsd: r.cost_usd,
    latencyMs: r.latency_ms,
    attempts: r.attempts,
    cached: r.cached === 1,
    error: r.error
  }
}

export function callsPage(db: Db, runId: number, status: CallStatus | undefined, offset: number, limit: number): { total: number; rows: CallRow[] } {
  const { total, rows } = callPage(db, runId, status, offset, limit)
  return { total, rows: rows.map(callRow) }
}

/** One call with its prompt and answer. Viewing the output of a test-split item is logged as an exposure. */
export function callDetail(db: Db, callId: number, actor: string, write: <T>(fn: (db: WritableDB) => T) => T): CallDetail {
  const r = callWithItem(db, callId)
  if (!r) throw new AssayError('not_found', `No call ${callId}`)
  const run = getRunRow(db, r.run_id)!
  const prompt = JSON.parse(r.prompt) as StoredPrompt
  const display = JSON.parse(r.display) as Record<string, unknown>
  let parse: CallDetail['parse'] = null
  if (r.raw_answer !== null && run.instrument_id === 'generation') {
    const step = (display.step as StepKind | undefined) ?? 'stage'
    const target = runOptions(run).generate
    const read = target === 'ideas' ? readIdeaStepAnswer(step, prompt.format, r.raw_answer) : target === 'tasks' ? readCompositionAnswer(step, prompt.format, r.raw_answer) : target === 'responses' ? readResponseAnswer(step, prompt.format, r.raw_answer) : readStepAnswer(step, prompt.format, r.raw_answer)
    parse = read.ok ? { status: 'ok', error: null } : { status: 'unparseable', error: read.error }
  } else if (r.raw_answer !== null) {
    const row = getItem(db, r.item_id)
    const payload = row ? payloadWithContext(db, row) : {}
    const i = interpretAnswer(getInstrument(run.instrument_id), prompt.format, r.raw_answer, display, payload)
    parse = { status: i.status, error: i.error }
  }
  if (r.split === 'test' && (r.raw_answer !== null || r.judgement !== null)) {
    write((w) => logExposure(w, r.item_id, 'judge_output_viewed', actor, `run ${r.run_id}, call ${r.id}`))
  }
  return {
    ...callRow(r),
    runId: r.run_id,
    requestHash: r.request_hash,
    template: prompt.template,
    format: prompt.format,
    display,
    prompt: { system: prompt.system ?? null, user: prompt.user },
    rawAnswer: r.raw_answer,
    judgement: r.judgement === null ? null : (JSON.parse(r.judgement) as unknown),
    parse
  }
}
