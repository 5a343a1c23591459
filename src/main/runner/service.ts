import type { z } from 'zod'
import { runSpecSchema, type RunEstimate, type RunSpec } from '../../shared/contract/run-operations'
import { AssayError } from '../../shared/errors'
import { templateRef } from '../../shared/templates'
import { createProvider as createRealProvider } from '../providers'
import type { Provider, ProviderKind, ProviderOptions } from '../providers/types'
import { envVarFor, keyRefFor } from '../secrets/refs'
import type { KeyStore } from '../secrets/key-stores'
import type { Project } from '../store/project'
import { executeBatch } from './batch'
import { getRunRow, insertPlannedCalls, insertRun, markRunRunning, runCounts, runOptions, runWithDefinition, setRunOptions, setRunStatus, workOf, type RunCounts, type RunOptions } from '../store/model-calls'
import { estimatePlan } from './estimate'
import { executeCalls, type ExecuteOutcome, type RunCallOptions, type RunProgress } from './execute'
import { DEFAULT_RETRY_POLICY, gateFor, type RetryPolicy } from './gate'
import { getJudge, judgeConfig, type Judge } from './judges'
import { definitionKey, planRun, resolveInstrument, type Plan, type RunDefinition } from './plan'
import { priceFor, seedDefaultPrices } from './prices'
import { builtInTemplates, parseTemplateRef, resolveTemplate } from './templates'
import type { Scheme } from './chain'
import { executeGeneration } from './generate'
import { estimateGeneration, generationKey, planTasks, schemeTemplate, selectTasks, tokenBudgetsOf } from './generate-plan'
import { ORDERABLE } from './requests'

export type ParsedRunSpec = z.output<typeof runSpecSchema>

export const DEFAULT_CONCURRENCY = 8
export const DEFAULT_POLL_INTERVAL_MS = 30_000
const MAX_SKIPPED_STORED = 1000

export interface RunEnvironment {
  keyStore: KeyStore
  /** Replaces the provider clients (a proxy's fetch, tests). */
  createProvider?: (kind: ProviderKind, options: ProviderOptions) => Provider
  retry?: Partial<RetryPolicy>
  progressEveryMs?: number
  /** Batch polling interval when the run does not set one. */
  pollIntervalMs?: number
}

export function parseRunSpec(spec: RunSpec): ParsedRunSpec {
  const parsed = runSpecSchema.safeParse(spec)
  if (!parsed.success) {
    throw new AssayError('invalid_input', 'Invalid run', parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })))
  }
  return parsed.data
}

/** The definition of a run from its spec and judge (a judge not yet saved has id 0). */
export function defineRun(project: Project, spec: ParsedRunSpec, judge: Judge): RunDefinition {
  if (spec.instrument === 'generation') throw new AssayError('invalid_input', 'A generation run has no single request definition')
  const instrument = resolveInstrument(spec.instrument)
  const ref = spec.template ? parseTemplateRef(spec.template) : { id: instrument.templates[0] ?? '' }
  if (!ref.id) throw new AssayError('invalid_input', `${instrument.id} has no model template; models are not asked it`)
  const { template } = resolveTemplate(project.db, ref.id, ref.version)
  if (spec.bothOrders && !ORDERABLE.has(instrument.id)) {
    throw new AssayError('invalid_input', `Both orders apply to pairs (${[...ORDERABLE].join(', ')}); ${instrument.id} has no sides to swap`, [
      { field: 'bothOrders', message: 'not for this instrument' }
    ])
  }
  if (spec.batch && judge.provider === 'openai-compatible') {
    throw new AssayError('invalid_input', 'OpenAI-compatible servers have no batch API; run without batch', [{ field: 'batch', message: 'not available' }])
  }
  return {
    instrument,
    judge,
    template,
    selection: { ...(spec.set ? { set: spec.set } : {}), ...(spec.split ? { split: spec.split } : {}), ...(spec.limit ? { limit: spec.limit } : {}) },
    seed: spec.seed ?? project.seed,
    viewer: spec.viewer ?? '',
    bothOrders: spec.bothOrders ?? false,
    trials: spec.trials ?? 1
  }
}

/** The dry run: the plan and its estimate; nothing is written or sent. */
export function estimateRun(project: Project, spec: ParsedRunSpec, judge: Judge): { plan: Plan | null; estimate: RunEstimate } {
  if (spec.instrument === 'generation') {
    const scheme = generationScheme(spec, judge)
    const target = spec.generate ?? 'hypotheses'
    const { tasks, skipped } = planTasks(project.db, spec, target, spec.keepLeaky ?? false, spec.trials ?? 1)
    const g = estimateGeneration(project.db, judge, scheme, tasks, target)
    const price = priceFor(project.db, judge.provider, judge.model)
    return {
      plan: null,
      estimate: {
        items: new Set(tasks.map((t) => t.id)).size,
        skipped: skipped.length,
        calls: g.calls,
        cached: 0,
        toSend: g.calls,
        inputTokens: g.inputTokens,
        outputTokens: g.outputTokens,
        costUsd: g.costUsd,
        price: price ? { provider: price.provider, model: price.model, inputPerMtok: price.inputPerMtok, outputPerMtok: price.outputPerMtok, batchDiscount: price.batchDiscount, source: price.source } : null,
        batch: false,
        template: `${schemeTemplate(scheme, target)}@1`,
        skippedItems: skipped.slice(0, MAX_SKIPPED_STORED)
      }
    }
  }
  const definition = defineRun(project, spec, judge)
  const plan = planRun(project.db, definition)
  const e = estimatePlan(project.db, judge, plan, spec.batch ?? false)
  return {
    plan,
    estimate: {
      ...e,
      price: e.price ? { provider: e.price.provider, model: e.price.model, inputPerMtok: e.price.inputPerMtok, outputPerMtok: e.price.outputPerMtok, batchDiscount: e.price.batchDiscount, source: e.price.source } : null,
      template: templateRef(definition.template.entry),
      skippedItems: plan.skipped.slice(0, MAX_SKIPPED_STORED)
    }
  }
}

/** A generation run's scheme, refusing what does not apply to generation. */
function generationScheme(spec: ParsedRunSpec, judge: Judge): Scheme {
  const problems: { field: string; message: string }[] = []
  if (!spec.scheme) problems.push({ field: 'scheme', message: 'choose single, multi-stage or omega-point' })
  if (spec.bothOrders) problems.push({ field: 'bothOrders', message: 'not for generation' })
  if ((spec.trials ?? 1) !== 1 && spec.generate !== 'responses') problems.push({ field: 'trials', message: 'generation makes one set per task and run (trials apply to answering problems, --generate responses)' })
  if (spec.generate === 'responses' && spec.scheme !== 'single') problems.push({ field: 'scheme', message: 'a problem is answered in a single request' })
  if (spec.batch) problems.push({ field: 'batch', message: 'a generation sequence waits for each answer; batches do not apply' })
  if (spec.template) problems.push({ field: 'template', message: 'the scheme decides the templates' })
  if (spec.tokenBudgetRun && spec.scheme !== 'multi-stage') problems.push({ field: 'tokenBudgetRun', message: 'only the multi-stage chain asks further requests' })
  if (spec.generate === 'tasks' && spec.scheme !== 'single') problems.push({ field: 'scheme', message: 'a task is composed from a paper in a single request' })
  if (problems.length) throw new AssayError('invalid_input', `Invalid generation run: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, problems)
  void judge
  return spec.scheme!
}

export interface PreparedRun {
  runId: number
  /** An unfinished (or finished) run with the same definition was taken up instead of starting another. */
  resumed: boolean
  plan: Plan
  /** Null for generation runs, whose requests are planned one after another as the answers come. */
  definition: RunDefinition | null
}

/**
 * Records a run and its planned calls (pending), in one transaction, or takes up the run with the same definition:
 * calls it already has are kept, new items get new calls, and failed or pending calls will be made again.
 */
export function prepareRun(project: Project, spec: ParsedRunSpec): PreparedRun {
  const judge = getJudge(project.db, spec.judgeId)
  if (spec.instrument === 'generation') return prepareGeneration(project, spec, judge)
  const definition = defineRun(project, spec, judge)
  const plan = planRun(project.db, definition)
  const key = definitionKey(definition)
  const options: RunOptions = {
    definitionKey: key,
    viewer: definition.viewer,
    concurrency: spec.concurrency ?? DEFAULT_CONCURRENCY,
    timeoutMs: spec.timeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
    attempts: spec.attempts ?? DEFAULT_RETRY_POLICY.attempts,
    batch: spec.batch ?? false,
    ...(spec.pollIntervalMs !== undefined ? { pollIntervalMs: spec.pollIntervalMs } : {}),
    skipped: plan.skipped.slice(0, MAX_SKIPPED_STORED),
    skippedCount: plan.skipped.length
  }
  return project.write((db) => {
    seedDefaultPrices(db)
    const existing = runWithDefinition(db, key)
    if (existing) {
      setRunOptions(db, existing.id, options)
      insertPlannedCalls(db, existing.id, plan.calls)
      return { runId: existing.id, resumed: true, plan, definition }
    }
    const runId = insertRun(db, {
      instrumentId: definition.instrument.id,
      judgeId: judge.id,
      templateId: definition.template.entry.id,
      templateVersion: definition.template.entry.version,
      selection: definition.selection,
      seed: definition.seed,
      bothOrders: definition.bothOrders,
      trials: definition.trials,
      options
    })
    insertPlannedCalls(db, runId, plan.calls)
    return { runId, resumed: false, plan, definition }
  })
}

function prepareGeneration(project: Project, spec: ParsedRunSpec, judge: Judge): PreparedRun {
  const scheme = generationScheme(spec, judge)
  const selection = { ...(spec.set ? { set: spec.set } : {}), ...(spec.split ? { split: spec.split } : {}), ...(spec.limit ? { limit: spec.limit } : {}) }
  const target = spec.generate ?? 'hypotheses'
  const keepLeaky = target === 'hypotheses' && (spec.keepLeaky ?? false)
  const trials = target === 'responses' ? (spec.trials ?? 1) : 1
  const { tasks, skipped } = planTasks(project.db, selection, target, keepLeaky, trials)
  if (spec.tokenBudgetRun) tokenBudgetsOf(project.db, spec.tokenBudgetRun, target)
  const key = generationKey(scheme, judge.id, selection, spec.outSet ?? null, spec.tokenBudgetRun ?? null, target, keepLeaky, trials)
  return project.write((db) => {
    seedDefaultPrices(db)
    const existing = runWithDefinition(db, key)
    const runId =
      existing?.id ??
      insertRun(db, {
        instrumentId: 'generation',
        judgeId: judge.id,
        templateId: schemeTemplate(scheme, target),
        templateVersion: 1,
        selection,
        seed: spec.seed ?? project.seed,
        bothOrders: false,
        trials,
        options: {} as RunOptions
      })
    const options: RunOptions = {
      definitionKey: key,
      viewer: '',
      concurrency: spec.concurrency ?? DEFAULT_CONCURRENCY,
      timeoutMs: spec.timeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
      attempts: spec.attempts ?? DEFAULT_RETRY_POLICY.attempts,
      batch: false,
      skipped: skipped.slice(0, MAX_SKIPPED_STORED),
      skippedCount: skipped.length,
      ...(keepLeaky ? { keepLeaky: true } : {}),
      scheme,
      outSet: spec.outSet ?? `generated-run${runId}`,
      tokenBudgetRun: spec.tokenBudgetRun ?? null,
      ...(target !== 'hypotheses' ? { generate: target } : {})
    }
    setRunOptions(db, runId, options)
    return { runId, resumed: !!existing, plan: { items: new Set(tasks.map((t) => t.id)).size, calls: [], skipped }, definition: null }
  })
}

export interface RunResult {
  runId: number
  outcome: ExecuteOutcome
  /** Requests sent to the provider by this execution. */
  requests: number
  fatal: string | null
  counts: RunCounts
}

/** Explains where the key of a judge is looked for, without ever naming its value. */
export function missingKeyMessage(judge: Judge, ref: string): string {
  const vars = envVarFor(ref)
  return `No API key for ${judge.name} (${ref}): set ${vars.length ? vars.join(' or ') : 'it'} in the environment${
    ref.startsWith('named:') ? '' : ' or store it in the workbench'
  }`
}

/** The provider client of a judge, with its key from the store. */
export async function providerFor(judge: Judge, env: RunEnvironment): Promise<{ provider: Provider; secrets: string[] }> {
  const ref = keyRefFor(judge.provider, judge.options.keyName)
  const apiKey = ref ? await env.keyStore.get(ref) : undefined
  if (ref && !apiKey) throw new AssayError('invalid_input', missingKeyMessage(judge, ref))
  const factory = env.createProvider ?? createRealProvider
  const provider = factory(judge.provider, { apiKey: apiKey ?? '', ...(judge.baseUrl ? { baseUrl: judge.baseUrl } : {}) })
  return { provider, secrets: apiKey ? [apiKey] : [] }
}

/** Makes the pending and failed calls of a recorded run. */
export async function executeRun(
  project: Project,
  runId: number,
  env: RunEnvironment,
  control: { signal: AbortSignal; onProgress?: (p: RunProgress) => void }
): Promise<RunResult> {
  const db = project.db
  const row = getRunRow(db, runId)
  if (!row) throw new AssayError('not_found', `No run ${runId}`)
  const judge = getJudge(db, row.judge_id)
  const options = runOptions(row)
  const { provider, secrets } = await providerFor(judge, env)
  const config = judgeConfig(judge)
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...env.retry, attempts: options.attempts, timeoutMs: options.timeoutMs }
  const price = priceFor(db, judge.provider, judge.model)
  project.write((db) => markRunRunning(db, runId))
  const work = row.instrument_id === 'generation' ? [] : workOf(db, runId)
  // What every way of making the calls takes; the gate only where calls go out one by one.
  const calling: RunCallOptions = { project, runId, provider, config, price, policy, signal: control.signal, secrets, ...(control.onProgress ? { onProgress: control.onProgress } : {}) }
  const gated = () => ({ gate: gateFor(judge.provider, judge.baseUrl, options.concurrency), concurrency: options.concurrency })
  let result
  try {
    result = row.instrument_id === 'generation'
      ? await executeGeneration(
          {
            ...calling,
            ...gated(),
            scheme: options.scheme ?? 'single',
            outSet: options.outSet ?? `generated-run${runId}`,
            templates: builtInTemplates(),
            tokenBudgets: options.tokenBudgetRun ? tokenBudgetsOf(db, options.tokenBudgetRun, options.generate ?? 'hypotheses') : new Map(),
            judge,
            target: options.generate ?? 'hypotheses'
          },
          selectTasks(db, JSON.parse(row.selection) as { set?: string; split?: string; limit?: number }, options.generate ?? 'hypotheses', options.keepLeaky ?? false, row.trials)
        )
      : options.batch
      ? await executeBatch(
          {
            ...calling,
            instrumentId: row.instrument_id,
            pollIntervalMs: options.pollIntervalMs ?? env.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
          },
          work
        )
      : await executeCalls(
          {
            ...calling,
            ...gated(),
            instrumentId: row.instrument_id,
            ...(env.progressEveryMs !== undefined ? { progressEveryMs: env.progressEveryMs } : {})
          },
          work
        )
  } catch (e) {
    project.write((db) => setRunStatus(db, runId, 'failed'))
    throw e
  }
  project.write((db) => setRunStatus(db, runId, result.outcome))
  return { runId, outcome: result.outcome, requests: result.requests, fatal: result.fatal, counts: runCounts(db, runId) }
}

/** Runs executing in this process, so they can be cancelled and are not started twice. */
export class RunRegistry {
  private readonly active = new Map<string, AbortController>()

  private key(project: Project, runId: number): string {
    return `${project.path}#${runId}`
  }

  isActive(project: Project, runId: number): boolean {
    return this.active.has(this.key(project, runId))
  }

  /** Executes a run; refuses one that is executing already. */
  async run(project: Project, runId: number, env: RunEnvironment, onProgress?: (p: RunProgress) => void): Promise<RunResult> {
    const key = this.key(project, runId)
    if (this.active.has(key)) throw new AssayError('conflict', `Run ${runId} is running already`)
    const controller = new AbortController()
    this.active.set(key, controller)
    try {
      return await executeRun(project, runId, env, { signal: controller.signal, ...(onProgress ? { onProgress } : {}) })
    } finally {
      this.active.delete(key)
    }
  }

  cancel(project: Project, runId: number): boolean {
    const controller = this.active.get(this.key(project, runId))
    if (!controller) return false
    controller.abort()
    return true
  }
}

export const runRegistry = new RunRegistry()
