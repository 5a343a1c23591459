import { z } from 'zod'
import { parseJsonObject } from '../../shared/parse'
import {
  fillSelection,
  formatHypothesisText,
  formatLabelledBlocks,
  formatNumberedList,
  formatPreviousStages,
  omegaAssignment,
  type OmegaAssignment,
  type SelectionResult
} from '../../shared/protocol'
import { getTemplate, renderPart, type AnswerFormat, type Template, type TemplateSet } from '../../shared/templates'

// The generation schemes of the hypothesis benchmark as a sequence of requests per task, each decided by the answers
// before it: one request (single); five stages, further requests, then a selection (multi-stage chain); five stages
// with a lens at stage 3 and a role directive at stage 4, then a selection (Omega Point). Pure: the runner records
// and sends, this module only says what the next request is and what the answers amount to.

export const SCHEMES = ['single', 'multi-stage', 'omega-point'] as const
export type Scheme = (typeof SCHEMES)[number]

/** Hypotheses the selection keeps (001: "Select the 5 hypotheses"). */
export const SELECTION_SIZE = 5
/** An upper bound on further requests, whatever the token budget says. */
export const MAX_FURTHER_REQUESTS = 20

export const generatedHypothesisSchema = z.looseObject({
  statement: z.string().min(1),
  mechanism: z.string().default(''),
  prediction: z.string().default(''),
  domain_category: z.string().optional()
})
export type GeneratedHypothesis = z.infer<typeof generatedHypothesisSchema>

const hypothesesAnswer = z.looseObject({ hypotheses: z.array(generatedHypothesisSchema).min(1) })
const selectionAnswer = z.looseObject({ selected: z.array(z.string()) })

export interface GenerationTask {
  taskId: string
  background: string
  question: string
  /** Idea generation: the keyword the task is made of (its id too). */
  keyword?: string
}

/** What a generation run produces: hypotheses for rediscovery tasks, ideas for keywords (idea-chain.ts), or tasks from papers (task-composition.ts). */
/** A task's item as generation reads it from the store. */
export interface GenerationTaskRow {
  id: number
  external_id: string
  payload: string
}

export type GenerationTarget = 'hypotheses' | 'ideas' | 'tasks' | 'responses'

export type StepKind = 'single' | 'stage' | 'further' | 'selection'

export interface StepPlan {
  /** Position in the task's sequence, from 0; the call's order index. */
  index: number
  kind: StepKind
  /** 1..5 for stages. */
  stage: number | null
  template: Template
  values: Record<string, string>
  /** How the answer is written: text at stages 1-3, JSON otherwise. */
  format: AnswerFormat
}

export interface StepOutcome {
  index: number
  kind: StepKind
  stage: number | null
  text: string
  hypotheses: GeneratedHypothesis[] | null
  /** The ideas of an idea step's answer. */
  ideas?: string[] | null
  selected: string[] | null
  outputTokens: number
}

export interface ChainSettings {
  scheme: Scheme
  templates: TemplateSet
  /** Generated tokens of the Omega Point run on the same task: the multi-stage chain asks further until it is near. */
  tokenBudget: number | null
  /** Hypotheses (default) or ideas. */
  target?: GenerationTarget
}

export function omegaOf(settings: ChainSettings, task: GenerationTask): OmegaAssignment | null {
  return settings.scheme === 'omega-point' ? omegaAssignment(task.taskId) : null
}

type ChainRead<T> = { ok: true; proposed: T[] | null; selected: string[] | null } | { ok: false; error: string }

/**
 * Reads one step's answer of any chain: a text stage needs words, a selection its "selected" list, any other step what
 * `proposed` finds in the JSON (null: the `missing` error). An answer a later step cannot use ends the sequence.
 */
export function readChainAnswer<T>(kind: StepKind, format: AnswerFormat, text: string, proposed: (json: unknown) => T[] | null, missing: string): ChainRead<T> {
  if (format === 'text') return text.trim() ? { ok: true, proposed: null, selected: null } : { ok: false, error: 'empty answer' }
  const json = parseJsonObject(text, { prefer: 'last' })
  if (!json.ok) return { ok: false, error: json.error }
  if (kind === 'selection') {
    const s = selectionAnswer.safeParse(json.value)
    return s.success ? { ok: true, proposed: null, selected: s.data.selected } : { ok: false, error: 'the answer has no "selected" list' }
  }
  const found = proposed(json.value)
  return found ? { ok: true, proposed: found, selected: null } : { ok: false, error: missing }
}

/** Reads one step's answer; an answer a later step cannot use is unparseable and ends the task's sequence. */
export function readStepAnswer(kind: StepKind, format: AnswerFormat, text: string): { ok: true; hypotheses: GeneratedHypothesis[] | null; selected: string[] | null } | { ok: false; error: string } {
  const read = readChainAnswer(kind, format, text, (json) => hypothesesAnswer.safeParse(json).data?.hypotheses ?? null, 'the answer has no "hypotheses" with statements')
  return read.ok ? { ok: true, hypotheses: read.proposed, selected: read.selected } : read
}

/** Hypotheses proposed so far, in the order proposed: stage 4, stage 5, then further requests. */
export function candidatesOf(done: readonly StepOutcome[]): GeneratedHypothesis[] {
  return done.filter((s) => s.kind !== 'selection').flatMap((s) => s.hypotheses ?? [])
}

/** What a chain proposes and the templates it asks with; the order of its requests is the same for every kind. */
export interface ChainKind {
  /** The values every request of the task carries. */
  base(task: GenerationTask): Record<string, string>
  /** The texts of what a step proposed, or null when it proposed nothing. */
  proposed(step: StepOutcome): string[] | null
  single: string
  further: string
  /** The value of a further request that lists what was proposed so far. */
  furtherValue: string
  selection: string
  /** The template of a stage (omega: of the Omega Point scheme, granted: its fourth stage with the role directive). */
  stage(stage: number, omega: OmegaAssignment | null): string
  /** The fragments naming each stage's task, by scheme. */
  stagesText(omega: OmegaAssignment | null): string
  /** The fragment that says how a stage's answer is written. */
  stageFormat(stage: number): string
}

export const HYPOTHESIS_CHAIN: ChainKind = {
  base: (task) => ({ background: task.background, question: task.question }),
  proposed: (step) => step.hypotheses?.map(formatHypothesisText) ?? null,
  single: 'hypothesis-single',
  further: 'hypothesis-further',
  furtherValue: 'proposed_hypotheses',
  selection: 'hypothesis-selection',
  stage: (stage, omega) => (omega && stage === 4 ? (omega.fourthRole ? 'omega-stage-4-granted' : 'omega-stage-4') : 'hypothesis-stage'),
  stagesText: (omega) => (omega ? 'omega-stages' : 'chain-stages'),
  stageFormat: (stage) => (stage <= 3 ? 'stage-format-text' : stage === 4 ? 'stage-format-4' : 'stage-format-5')
}

/** The texts proposed so far, in the order proposed: stage 4, stage 5, then further requests (or the single request). */
function candidateTexts(kind: ChainKind, done: readonly StepOutcome[]): string[] {
  return done.filter((s) => s.kind !== 'selection').flatMap((s) => kind.proposed(s) ?? [])
}

function fragment(settings: ChainSettings, id: string, part: string, values: Record<string, string> = {}): string {
  return renderPart(getTemplate(settings.templates, id, 1), part, values)
}

function stageStep(kind: ChainKind, settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[], stage: number): StepPlan {
  const omega = omegaOf(settings, task)
  const lens: Record<string, string> = omega && stage === 3 ? { lens: fragment(settings, 'omega-lenses', omega.lensKey) } : {}
  // Stage 4's answer is carried on as a numbered list of what it proposed (001, multi-stage chain).
  const answer = (s: StepOutcome): string => {
    const proposed = s.stage === 4 ? kind.proposed(s) : null
    return proposed ? formatNumberedList(proposed) : s.text
  }
  return {
    index: done.length,
    kind: 'stage',
    stage,
    template: getTemplate(settings.templates, kind.stage(stage, omega), 1),
    values: {
      ...kind.base(task),
      previous_stages: formatPreviousStages(done.map((s) => ({ stage: s.stage ?? 0, answer: answer(s) }))),
      stage_text: fragment(settings, kind.stagesText(omega), `stage-${stage}`, lens),
      answer_format: fragment(settings, kind.stageFormat(stage), 'text')
    },
    format: stage <= 3 ? 'text' : 'json'
  }
}

/** Whether one more further request brings the generated tokens closer to the budget (the source's stopping rule). */
export function furtherMovesCloser(budget: number, spent: number, lastRequestTokens: number): boolean {
  return Math.abs(budget - (spent + lastRequestTokens)) < Math.abs(budget - spent)
}

/** The next request of a task's sequence in a chain of `kind`, or null when the sequence is complete. */
export function nextChainStep(kind: ChainKind, settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  const base = kind.base(task)
  if (settings.scheme === 'single') {
    if (done.length > 0) return null
    return { index: 0, kind: 'single', stage: null, template: getTemplate(settings.templates, kind.single, 1), values: base, format: 'json' }
  }
  if (done.some((s) => s.kind === 'selection')) return null
  const stages = done.filter((s) => s.kind === 'stage').length
  if (stages < 5) return stageStep(kind, settings, task, done, stages + 1)
  const further = done.filter((s) => s.kind === 'further')
  if (settings.scheme === 'multi-stage' && settings.tokenBudget !== null && further.length < MAX_FURTHER_REQUESTS) {
    const spent = done.reduce((sum, s) => sum + s.outputTokens, 0)
    const last = (further.at(-1) ?? done.find((s) => s.stage === 4))?.outputTokens ?? 0
    if (last > 0 && furtherMovesCloser(settings.tokenBudget, spent, last)) {
      return {
        index: done.length,
        kind: 'further',
        stage: null,
        template: getTemplate(settings.templates, kind.further, 1),
        values: { ...base, [kind.furtherValue]: formatNumberedList(candidateTexts(kind, done)) },
        format: 'json'
      }
    }
  }
  return {
    index: done.length,
    kind: 'selection',
    stage: null,
    template: getTemplate(settings.templates, kind.selection, 1),
    values: { ...base, candidates: formatLabelledBlocks('C', candidateTexts(kind, done)) },
    format: 'json'
  }
}

/** The next request of a task's hypothesis sequence, or null when the sequence is complete. */
export function nextStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  return nextChainStep(HYPOTHESIS_CHAIN, settings, task, done)
}

export interface GeneratedSet {
  /** The hypotheses of the set, with candidate ids C1..CN as proposed. */
  hypotheses: Array<GeneratedHypothesis & { id: string }>
  /** How the selection answer became the set (chains only). */
  selection: SelectionResult | null
  candidates: number
}

/** The set a finished sequence gives: all hypotheses of the single request, or the five selected (filled in proposal order). */
export function generatedSet(settings: ChainSettings, done: readonly StepOutcome[]): GeneratedSet {
  const candidates = candidatesOf(done).map((h, i) => ({ ...h, id: `C${i + 1}` }))
  if (settings.scheme === 'single') return { hypotheses: candidates, selection: null, candidates: candidates.length }
  const answer = done.find((s) => s.kind === 'selection')?.selected ?? []
  const selection = fillSelection(answer, candidates.map((c) => c.id), SELECTION_SIZE)
  const byId = new Map(candidates.map((c) => [c.id, c]))
  return { hypotheses: selection.selected.map((id) => byId.get(id)!), selection, candidates: candidates.length }
}
