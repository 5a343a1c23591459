import { setMaxListeners } from 'node:events'
import { finishForModel, renderRequest, type TemplateSet } from '../../shared/templates'
import { redact } from '../providers/errors'
import { ProviderError } from '../providers/types'
import { getItemByExternalId, hypothesisSetsOfRun, insertItems } from '../store/items'
import type { Project } from '../store/project'
import { cacheLookup, RecordWriter, type CallRecord } from '../store/model-calls'
import { generationCalls } from '../store/step-calls'
import { generatedSet, nextStep, omegaOf, readStepAnswer, type ChainSettings, type GenerationTarget, type GenerationTask, type GenerationTaskRow, type Scheme, type StepKind, type StepOutcome, type StepPlan } from './chain'
import { nextIdeaStep, readIdeaStepAnswer } from './idea-chain'
import { keywordTask, storeGeneratedIdeas } from './idea-tasks'
import { nextCompositionStep, paperTask, readCompositionAnswer, storeComposedTask, type CompositionAnswer } from './task-composition'
import { nextResponseStep, readResponseAnswer, responseTask, storeResponse, type ResponseTask } from './fs-responses'
import type { ExecuteResult, GatedCallOptions } from './execute'
import { requestHash } from './hash'
import type { Judge } from './judges'
import type { StoredPrompt } from './plan'
import { costOf } from './prices'
import { isFatal, sendWithRetries } from './send'
import { usedValues } from './templates'

// Generation runs: each task's sequence of requests (see chain.ts) is made one request after another, every call
// recorded before the next is planned, so a run stopped anywhere resumes from its last recorded answer. A finished
// sequence becomes a new hypothesis set, with its provenance, that can be annotated and judged like any other.

export interface GenerationOptions extends GatedCallOptions {
  scheme: Scheme
  outSet: string
  templates: TemplateSet
  /** Generated tokens per task id to approach with further requests (multi-stage), from an Omega Point run. */
  tokenBudgets: ReadonlyMap<string, number>
  judge: Judge
  /** Hypotheses for rediscovery tasks (default), or ideas for keywords. */
  target?: GenerationTarget
}

type StepRead = { ok: true; hypotheses: StepOutcome['hypotheses']; ideas: string[] | null; selected: StepOutcome['selected']; composition?: CompositionAnswer; response?: string } | { ok: false; error: string }

/** The answer of one step, read for what the run generates. */
function readAnswer(target: GenerationTarget, kind: StepKind, format: StepPlan['format'], text: string): StepRead {
  if (target === 'responses') {
    const r = readResponseAnswer(kind, format, text)
    return r.ok ? { ok: true, hypotheses: null, ideas: null, selected: null, response: r.response } : r
  }
  if (target === 'tasks') {
    const r = readCompositionAnswer(kind, format, text)
    return r.ok ? { ok: true, hypotheses: null, ideas: null, selected: null, composition: r.composition } : r
  }
  if (target === 'ideas') {
    const r = readIdeaStepAnswer(kind, format, text)
    return r.ok ? { ok: true, hypotheses: null, ideas: r.ideas, selected: r.selected } : r
  }
  const r = readStepAnswer(kind, format, text)
  return r.ok ? { ...r, ideas: null } : r
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '') || 'model'
}

/** The external id of the set a run generates for a task. */
export function generatedSetId(taskId: string, judge: Judge, scheme: Scheme, runId: number): string {
  return `${taskId}.${slug(judge.model)}.${scheme}.run${runId}`
}

function taskOf(row: GenerationTaskRow): GenerationTask {
  const p = JSON.parse(row.payload) as { task_id?: string; background?: string; question?: string }
  return { taskId: p.task_id ?? row.external_id, background: p.background ?? '', question: p.question ?? '' }
}

export async function executeGeneration(o: GenerationOptions, tasks: readonly GenerationTaskRow[]): Promise<ExecuteResult> {
  const db = o.project.db
  const stop = new AbortController()
  const signal = AbortSignal.any([o.signal, stop.signal])
  // Every request in flight listens to the run's signal; dozens at once are expected, not a leak.
  setMaxListeners(0, signal)
  const secrets = o.secrets ?? []
  const cached = cacheLookup(db)
  let fatal: string | null = null
  let requests = 0
  let done = 0
  let failed = 0
  let costUsd = 0
  const emit = () => o.onProgress?.({ runId: o.runId, done, failed, total: tasks.length, costUsd, etaMs: null })
  const writer = new RecordWriter(o.project, (records) => {
    for (const r of records) if (r.kind === 'answer') costUsd += r.costUsd ?? 0
  }, (e) => {
    fatal = `the project file could not be written: ${e.message}`
    stop.abort()
  })
  const calls = o.project.write(generationCalls)

  const runTask = async (row: GenerationTaskRow): Promise<'done' | 'failed' | 'stopped'> => {
    const target = o.target ?? 'hypotheses'
    const task = target === 'ideas' ? keywordTask(row) : target === 'tasks' ? paperTask(row) : target === 'responses' ? responseTask(row) : taskOf(row)
    const settings: ChainSettings = { scheme: o.scheme, templates: o.templates, tokenBudget: o.tokenBudgets.get(task.taskId) ?? null, target }
    const planNext = target === 'ideas' ? nextIdeaStep : target === 'tasks' ? nextCompositionStep : target === 'responses' ? nextResponseStep : nextStep
    // The trials of an answering run are separate samples: each its own request, never the cached answer of another.
    const trial = target === 'responses' ? (task as ResponseTask).trial : 0
    const omega = omegaOf(settings, task)
    const rows = new Map(calls.callsOf(o.runId, row.id, trial).map((r) => [r.order_index, r]))
    const outcomes: StepOutcome[] = []
    const callIds: number[] = []
    const templatesUsed = new Set<string>()
    for (;;) {
      if (signal.aborted) return 'stopped'
      const step = planNext(settings, task, outcomes)
      if (!step) break
      const rendered = finishForModel(step.template.entry, renderRequest(step.template, usedValues(step.template, step.values)), o.config.model, step.format)
      const hash = requestHash(o.config, { system: rendered.system, user: rendered.user, trial })
      const ref = `${step.template.entry.id}@${step.template.entry.version}`
      templatesUsed.add(ref)
      const prompt: StoredPrompt = { ...(rendered.system !== undefined ? { system: rendered.system } : {}), user: rendered.user, template: ref, format: step.format }
      const display = { step: step.kind, stage: step.stage, ...(omega && step.stage === 3 ? { lens: omega.lensKey } : {}), ...(omega && step.stage === 4 ? { fourthRole: omega.fourthRole } : {}) }
      let existing = rows.get(step.index)
      // A recorded answer to this very request is replayed, never asked again.
      if (existing && existing.request_hash === hash && (existing.status === 'ok' || existing.status === 'unparseable') && existing.raw_answer !== null) {
        callIds.push(existing.id)
        const read = readAnswer(target, step.kind, step.format, existing.raw_answer)
        if (!read.ok) return 'done'
        outcomes.push(outcome(step, existing.raw_answer, read, existing.output_tokens ?? 0))
        continue
      }
      if (existing) o.project.write(() => calls.replan(existing!.id, hash, JSON.stringify(display), JSON.stringify(prompt)))
      else {
        const id = o.project.write(() => calls.insert(o.runId, row.id, trial, step.index, hash, JSON.stringify(display), JSON.stringify(prompt)))
        existing = { id, order_index: step.index, request_hash: hash, status: 'pending', raw_answer: null, output_tokens: null, attempts: 0, prompt: '' }
      }
      const callId = existing.id
      callIds.push(callId)
      const hit = cached(hash)
      let text: string
      let meta: { inputTokens: number | null; outputTokens: number | null; modelVersion: string | null; truncated: boolean }
      let latencyMs: number | null = null
      let attempts = existing.attempts
      if (hit) {
        text = hit.raw
        meta = { ...hit, truncated: false }
      } else {
        let result
        try {
          result = await sendWithRetries(o.provider, o.config, { ...(rendered.system !== undefined ? { system: rendered.system } : {}), user: rendered.user }, o.policy, o.gate, signal, () => requests++)
        } catch (e) {
          if (e instanceof ProviderError && e.kind === 'cancelled') return 'stopped'
          throw e
        }
        attempts += result.sent
        if ('error' in result) {
          if (isFatal(result.error)) {
            fatal ??= redact(result.error.message, secrets)
            stop.abort()
          }
          await writer.pushAndWait({ kind: 'failed', callId, error: redact(`${result.error.kind}: ${result.error.message}`, secrets), latencyMs: result.latencyMs, attempts })
          return 'failed'
        }
        text = result.response.text
        meta = result.response
        latencyMs = result.latencyMs
      }
      const read = readAnswer(target, step.kind, step.format, text)
      const record: CallRecord = {
        kind: 'answer',
        callId,
        hash,
        raw: text,
        inputTokens: meta.inputTokens,
        outputTokens: meta.outputTokens,
        modelVersion: meta.modelVersion,
        status: read.ok ? 'ok' : 'unparseable',
        judgement: read.ok ? (read.hypotheses ? { hypotheses: read.hypotheses } : read.ideas ? { ideas: read.ideas } : read.selected ? { selected: read.selected } : read.response !== undefined ? { response: read.response } : (read.composition ?? null)) : null,
        error: read.ok ? null : `${read.error}${meta.truncated ? ' (the answer was cut at the token limit)' : ''}`,
        costUsd: hit ? 0 : costOf(o.price, meta.inputTokens, meta.outputTokens, false),
        latencyMs,
        attempts,
        cached: !!hit
      }
      await writer.pushAndWait(record)
      // A sequence cannot go on from an answer it cannot read; the task gets no set.
      if (!read.ok) return 'done'
      outcomes.push(outcome(step, text, read, meta.outputTokens ?? 0))
    }
    const composed = target === 'tasks' && outcomes[0] ? readCompositionAnswer('single', 'json', outcomes[0].text) : null
    if (target === 'responses') {
      if (outcomes[0]) storeResponse({ project: o.project, runId: o.runId, judge: o.judge, outSet: o.outSet, row, task, response: outcomes[0].text, callIds })
      return 'done'
    }
    if (composed?.ok) storeComposedTask({ project: o.project, runId: o.runId, judge: o.judge, outSet: o.outSet, row, task, composition: composed.composition, callIds })
    else if (target === 'ideas') storeGeneratedIdeas({ project: o.project, runId: o.runId, judge: o.judge, scheme: o.scheme, outSet: o.outSet, settings, row, task, outcomes, callIds, templates: [...templatesUsed], omega })
    else finish(row, task, settings, outcomes, callIds, [...templatesUsed], omega)
    return 'done'
  }

  const finish = (row: GenerationTaskRow, task: GenerationTask, settings: ChainSettings, outcomes: StepOutcome[], callIds: number[], templates: string[], omega: ReturnType<typeof omegaOf>) => {
    const externalId = generatedSetId(task.taskId, o.judge, o.scheme, o.runId)
    if (getItemByExternalId(db, 'hypothesis-set', externalId)) return
    const set = generatedSet(settings, outcomes)
    if (set.hypotheses.length === 0) return
    const payload = {
      set_id: externalId,
      task_id: task.taskId,
      generator: o.judge.model,
      company: o.judge.effectiveCompany,
      scheme: o.scheme,
      hypotheses: set.hypotheses,
      provenance: {
        run_id: o.runId,
        task_item_id: row.id,
        judge: o.judge.name,
        provider: o.judge.provider,
        templates,
        call_ids: callIds,
        candidates: set.candidates,
        generated_tokens: outcomes.reduce((s, x) => s + x.outputTokens, 0),
        ...(set.selection ? { selection: { from_answer: set.selection.fromAnswer, filled: set.selection.filled, unknown: set.selection.unknown, duplicates: set.selection.duplicates, overflow: set.selection.overflow } } : {}),
        ...(omega ? { omega: { hash: omega.hash, lens: omega.lensKey, fourth_role: omega.fourthRole } } : {}),
        ...(settings.tokenBudget !== null ? { token_budget: settings.tokenBudget } : {})
      }
    }
    o.project.write((db) => insertItems(db, [{ kind: 'hypothesis-set', externalId, set: o.outSet, split: 'none', payload }]))
  }

  let next = 0
  const worker = async () => {
    while (!signal.aborted) {
      const row = tasks[next++]
      if (!row) return
      const result = await runTask(row)
      if (result === 'stopped') return
      done++
      if (result === 'failed') failed++
      emit()
    }
  }
  emit()
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, tasks.length)) }, worker))
  } finally {
    writer.flush()
  }
  emit()
  return { outcome: fatal ? 'failed' : o.signal.aborted ? 'cancelled' : 'done', requests, fatal }
}

function outcome(step: StepPlan, text: string, read: { hypotheses: StepOutcome['hypotheses']; ideas: string[] | null; selected: StepOutcome['selected'] }, outputTokens: number): StepOutcome {
  return { index: step.index, kind: step.kind, stage: step.stage, text, hypotheses: read.hypotheses, ideas: read.ideas, selected: read.selected, outputTokens }
}

/** The hypothesis sets a generation run has created, by external id. */
export function generatedSetsOf(db: Project['db'], runId: number): string[] {
  return hypothesisSetsOfRun(db, runId)
}
