import { AssayError } from '../../shared/errors'
import { finishForModel, renderRequest } from '../../shared/templates'
import { sha256Hex } from '../../shared/protocol'
import type { Db } from '../store/database'
import { getRunRow, runOptions } from '../store/model-calls'
import { outputTokensByTask } from '../store/step-calls'
import { nextStep, type ChainSettings, type GeneratedHypothesis, type GenerationTarget, type Scheme, type StepOutcome } from './chain'
import { nextIdeaStep } from './idea-chain'
import { checkBudgetTarget, ideaTokenBudgets, keywordTask, selectKeywordTasks } from './idea-tasks'
import { nextCompositionStep, paperTask, selectPaperTasks } from './task-composition'
import { nextResponseStep, responseTask, selectResponseTasks } from './fs-responses'
import { ASSUMED_OUTPUT_TOKENS, estimateTokens } from './estimate'
import type { GenerationTaskRow } from './chain'
import { canonicalJson } from './hash'
import type { Judge } from './judges'
import { itemsWhere } from '../store/item-selection'
import { leakDecisions, leakReason } from './leak-gate'
import { selectedItemsOfKind, type SkippedItem } from './plan'
import { priceFor } from './prices'
import { builtInTemplates, usedValues } from './templates'

/** The template a generation run records as its own (the first request of the scheme). */
export const SCHEME_TEMPLATE: Record<Scheme, string> = {
  single: 'hypothesis-single',
  'multi-stage': 'chain-stages',
  'omega-point': 'omega-stages'
}

/** The same for idea generation. */
export const IDEA_SCHEME_TEMPLATE: Record<Scheme, string> = {
  single: 'idea-generation',
  'multi-stage': 'idea-chain-stages',
  'omega-point': 'idea-omega-stages'
}

export function schemeTemplate(scheme: Scheme, target: GenerationTarget): string {
  if (target === 'tasks') return 'task-composition'
  if (target === 'responses') return 'fs-answer'
  return (target === 'ideas' ? IDEA_SCHEME_TEMPLATE : SCHEME_TEMPLATE)[scheme]
}

export interface GenerationSelection {
  set?: string | undefined
  split?: string | undefined
  limit?: number | undefined
}

/** The rediscovery tasks a generation run works on, in id order. */
export function selectTasks(db: Db, selection: GenerationSelection, target: GenerationTarget = 'hypotheses', keepLeaky = false, trials = 1): GenerationTaskRow[] {
  return planTasks(db, selection, target, keepLeaky, trials).tasks
}

/**
 * The tasks a generation run works on and those it leaves out: a rediscovery task whose leak audit found a leak is
 * not generated for (the protocol drops it) unless `keepLeaky`; the limit counts the tasks kept.
 */
export function planTasks(db: Db, selection: GenerationSelection, target: GenerationTarget, keepLeaky: boolean, trials = 1): { tasks: GenerationTaskRow[]; skipped: SkippedItem[] } {
  if (target === 'responses') return { tasks: selectResponseTasks(db, selection, trials), skipped: [] }
  if (target === 'ideas') return { tasks: selectKeywordTasks(db, selection), skipped: [] }
  if (target === 'tasks') return { tasks: selectPaperTasks(db, selection), skipped: [] }
  if (keepLeaky) return { tasks: selectedItemsOfKind<GenerationTaskRow>(db, 'rediscovery-task', selection, 'id, external_id, payload'), skipped: [] }
  const decisions = leakDecisions(db)
  const tasks: GenerationTaskRow[] = []
  const skipped: SkippedItem[] = []
  for (const row of itemsWhere<GenerationTaskRow>(db, 'id, external_id, payload', ['kind = ?'], ['rediscovery-task'], selection)) {
    const d = decisions.get(row.id)
    if (d?.leak) skipped.push({ itemId: row.id, externalId: row.external_id, reason: leakReason(d) })
    else if (!selection.limit || tasks.length < selection.limit) tasks.push(row)
  }
  return { tasks, skipped }
}

export function generationKey(scheme: Scheme, judgeId: number, selection: GenerationSelection, outSet: string | null, tokenBudgetRun: number | null, target: GenerationTarget = 'hypotheses', keepLeaky = false, trials = 1): string {
  // Hypothesis runs keep the key they had before ideas could be generated, so they still resume.
  return sha256Hex(canonicalJson({ generation: scheme, judge: judgeId, selection, outSet, tokenBudgetRun, ...(target !== 'hypotheses' ? { target } : {}), ...(keepLeaky ? { keepLeaky } : {}), ...(trials !== 1 ? { trials } : {}) }))
}

/** Generated tokens per task id of an Omega Point generation run: what a multi-stage chain's further requests approach. */
export function tokenBudgetsOf(db: Db, runId: number, target: GenerationTarget = 'hypotheses'): Map<string, number> {
  const run = getRunRow(db, runId)
  if (!run) throw new AssayError('not_found', `No run ${runId}`)
  const options = runOptions(run)
  if (run.instrument_id !== 'generation' || options.scheme !== 'omega-point') {
    throw new AssayError('invalid_input', `Run ${runId} is not an Omega Point generation run`, [{ field: 'tokenBudgetRun', message: 'needs an omega-point generation run' }])
  }
  checkBudgetTarget(target, options.generate ?? 'hypotheses', runId)
  if (target === 'ideas') return ideaTokenBudgets(db, runId)
  const rows = outputTokensByTask(db, runId)
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
export function estimateGeneration(db: Db, judge: Judge, scheme: Scheme, tasks: readonly GenerationTaskRow[], target: GenerationTarget = 'hypotheses'): GenerationEstimate {
  const settings: ChainSettings = { scheme, templates: builtInTemplates(), tokenBudget: null, target }
  const planNext = target === 'ideas' ? nextIdeaStep : target === 'tasks' ? nextCompositionStep : target === 'responses' ? nextResponseStep : nextStep
  let calls = 0
  let inputTokens = 0
  let outputTokens = 0
  for (const row of tasks) {
    const p = JSON.parse(row.payload) as { task_id?: string; background?: string; question?: string }
    const task = target === 'ideas' ? keywordTask(row) : target === 'tasks' ? paperTask(row) : target === 'responses' ? responseTask(row) : { taskId: p.task_id ?? row.external_id, background: p.background ?? '', question: p.question ?? '' }
    const done: StepOutcome[] = []
    for (let step = planNext(settings, task, done); step; step = planNext(settings, task, done)) {
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
        hypotheses: target === 'hypotheses' && step.format === 'json' && step.kind !== 'selection' ? Array.from({ length: 5 }, () => ASSUMED_HYPOTHESIS) : null,
        ideas: target === 'ideas' && step.format === 'json' && step.kind !== 'selection' ? Array.from({ length: 2 }, () => 'x'.repeat(600)) : null,
        selected: step.kind === 'selection' ? [] : null,
        outputTokens: out
      })
    }
  }
  const price = priceFor(db, judge.provider, judge.model)
  return { tasks: tasks.length, calls, inputTokens, outputTokens, costUsd: price ? (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1_000_000 : null }
}
