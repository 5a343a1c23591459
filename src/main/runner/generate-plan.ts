import { AssayError } from '../../shared/errors'
import { finishForModel, renderRequest } from '../../shared/templates'
import { sha256Hex } from '../../shared/protocol'
import type { Db } from '../store/database'
import { getRunRow, runOptions } from './calls'
import { nextStep, type ChainSettings, type GeneratedHypothesis, type Scheme, type StepOutcome } from './chain'
import { ASSUMED_OUTPUT_TOKENS, estimateTokens } from './estimate'
import type { GenerationTaskRow } from './generate'
import { canonicalJson } from './hash'
import type { Judge } from './judges'
import { selectedItemsOfKind } from './plan'
import { priceFor } from './prices'
import { builtInTemplates, usedValues } from './templates'

/** The template a generation run records as its own (the first request of the scheme). */
export const SCHEME_TEMPLATE: Record<Scheme, string> = {
  single: 'hypothesis-single',
  'multi-stage': 'chain-stages',
  'omega-point': 'omega-stages'
}

export interface GenerationSelection {
  set?: string | undefined
  split?: string | undefined
  limit?: number | undefined
}

/** The rediscovery tasks a generation run works on, in id order. */
export function selectTasks(db: Db, selection: GenerationSelection): GenerationTaskRow[] {
  return selectedItemsOfKind<GenerationTaskRow>(db, 'rediscovery-task', selection, 'id, external_id, payload')
}

export function generationKey(scheme: Scheme, judgeId: number, selection: GenerationSelection, outSet: string | null, tokenBudgetRun: number | null): string {
  return sha256Hex(canonicalJson({ generation: scheme, judge: judgeId, selection, outSet, tokenBudgetRun }))
}

/** Generated tokens per task id of an Omega Point generation run: what a multi-stage chain's further requests approach. */
export function tokenBudgetsOf(db: Db, runId: number): Map<string, number> {
  const run = getRunRow(db, runId)
  if (!run) throw new AssayError('not_found', `No run ${runId}`)
  const options = runOptions(run) as { scheme?: string }
  if (run.instrument_id !== 'generation' || options.scheme !== 'omega-point') {
    throw new AssayError('invalid_input', `Run ${runId} is not an Omega Point generation run`, [{ field: 'tokenBudgetRun', message: 'needs an omega-point generation run' }])
  }
  const rows = db
    .prepare(
      `SELECT json_extract(i.payload, '$.task_id') AS task_id, coalesce(sum(c.output_tokens), 0) AS tokens
       FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.run_id = ? GROUP BY c.item_id`
    )
    .all(runId) as { task_id: string | null; tokens: number }[]
  return new Map(rows.filter((r) => r.task_id !== null).map((r) => [r.task_id!, r.tokens]))
}

const ASSUMED_HYPOTHESIS: GeneratedHypothesis = {
  statement: 'x'.repeat(240),
  mechanism: 'x'.repeat(240),
  prediction: 'x'.repeat(160),
  domain_category: 'x'.repeat(20)
}

export interface GenerationEstimate {
  tasks: number
  calls: number
  inputTokens: number
  outputTokens: number
  costUsd: number | null
}

/**
 * A generation run's requests depend on its answers, so its estimate plays each sequence through with answers of the
 * assumed length (five hypotheses a JSON answer); further requests, which depend on real token counts, are not counted.
 */
export function estimateGeneration(db: Db, judge: Judge, scheme: Scheme, tasks: readonly GenerationTaskRow[]): GenerationEstimate {
  const settings: ChainSettings = { scheme, templates: builtInTemplates(), tokenBudget: null }
  let calls = 0
  let inputTokens = 0
  let outputTokens = 0
  for (const row of tasks) {
    const p = JSON.parse(row.payload) as { task_id?: string; background?: string; question?: string }
    const task = { taskId: p.task_id ?? row.external_id, background: p.background ?? '', question: p.question ?? '' }
    const done: StepOutcome[] = []
    for (let step = nextStep(settings, task, done); step; step = nextStep(settings, task, done)) {
      const rendered = finishForModel(step.template.entry, renderRequest(step.template, usedValues(step.template, step.values)), judge.model, step.format)
      const out = step.kind === 'selection' ? 50 : (judge.options.maxTokens ?? ASSUMED_OUTPUT_TOKENS[step.format])
      calls++
      inputTokens += estimateTokens(`${rendered.system ?? ''}${rendered.user}`)
      outputTokens += out
      done.push({
        index: step.index,
        kind: step.kind,
        stage: step.stage,
        text: 'x'.repeat(out * 4),
        hypotheses: step.format === 'json' && step.kind !== 'selection' ? Array.from({ length: 5 }, () => ASSUMED_HYPOTHESIS) : null,
        selected: step.kind === 'selection' ? [] : null,
        outputTokens: out
      })
    }
  }
  const price = priceFor(db, judge.provider, judge.model)
  return { tasks: tasks.length, calls, inputTokens, outputTokens, costUsd: price ? (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1_000_000 : null }
}
