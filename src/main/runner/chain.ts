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
export type GenerationTarget = 'hypotheses' | 'ideas' | 'tasks'

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

/** Reads one step's answer; an answer a later step cannot use is unparseable and ends the task's sequence. */
export function readStepAnswer(kind: StepKind, format: AnswerFormat, text: string): { ok: true; hypotheses: GeneratedHypothesis[] | null; selected: string[] | null } | { ok: false; error: string } {
  if (format === 'text') return text.trim() ? { ok: true, hypotheses: null, selected: null } : { ok: false, error: 'empty answer' }
  const json = parseJsonObject(text, { prefer: 'last' })
  if (!json.ok) return { ok: false, error: json.error }
  if (kind === 'selection') {
    const s = selectionAnswer.safeParse(json.value)
    return s.success ? { ok: true, hypotheses: null, selected: s.data.selected } : { ok: false, error: 'the answer has no "selected" list' }
  }
  const h = hypothesesAnswer.safeParse(json.value)
  return h.success ? { ok: true, hypotheses: h.data.hypotheses, selected: null } : { ok: false, error: 'the answer has no "hypotheses" with statements' }
}

/** Hypotheses proposed so far, in the order proposed: stage 4, stage 5, then further requests. */
export function candidatesOf(done: readonly StepOutcome[]): GeneratedHypothesis[] {
  return done.filter((s) => s.kind !== 'selection').flatMap((s) => s.hypotheses ?? [])
}

function stageAnswer(s: StepOutcome): string {
  // Stage 4's answer is carried on as a numbered list of hypothesis texts (001, multi-stage chain).
  return s.stage === 4 && s.hypotheses ? formatNumberedList(s.hypotheses.map(formatHypothesisText)) : s.text
}

function fragment(settings: ChainSettings, id: string, part: string, values: Record<string, string> = {}): string {
  return renderPart(getTemplate(settings.templates, id, 1), part, values)
}

function stageStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[], stage: number): StepPlan {
  const omega = omegaOf(settings, task)
  const stagesId = omega ? 'omega-stages' : 'chain-stages'
  const lens: Record<string, string> = omega && stage === 3 ? { lens: fragment(settings, 'omega-lenses', omega.lensKey) } : {}
  const format: AnswerFormat = stage <= 3 ? 'text' : 'json'
  const formatId = stage <= 3 ? 'stage-format-text' : stage === 4 ? 'stage-format-4' : 'stage-format-5'
  const templateId = omega && stage === 4 ? (omega.fourthRole ? 'omega-stage-4-granted' : 'omega-stage-4') : 'hypothesis-stage'
  return {
    index: done.length,
    kind: 'stage',
    stage,
    template: getTemplate(settings.templates, templateId, 1),
    values: {
      background: task.background,
      question: task.question,
      previous_stages: formatPreviousStages(done.map((s) => ({ stage: s.stage ?? 0, answer: stageAnswer(s) }))),
      stage_text: fragment(settings, stagesId, `stage-${stage}`, lens),
      answer_format: fragment(settings, formatId, 'text')
    },
    format
  }
}

/** Whether one more further request brings the generated tokens closer to the budget (the source's stopping rule). */
export function furtherMovesCloser(budget: number, spent: number, lastRequestTokens: number): boolean {
  return Math.abs(budget - (spent + lastRequestTokens)) < Math.abs(budget - spent)
}

/** The next request of a task's sequence, or null when the sequence is complete. */
export function nextStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  const base = { background: task.background, question: task.question }
  if (settings.scheme === 'single') {
    if (done.length > 0) return null
    return { index: 0, kind: 'single', stage: null, template: getTemplate(settings.templates, 'hypothesis-single', 1), values: base, format: 'json' }
  }
  if (done.some((s) => s.kind === 'selection')) return null
  const stages = done.filter((s) => s.kind === 'stage').length
  if (stages < 5) return stageStep(settings, task, done, stages + 1)
  const further = done.filter((s) => s.kind === 'further')
  if (settings.scheme === 'multi-stage' && settings.tokenBudget !== null && further.length < MAX_FURTHER_REQUESTS) {
    const spent = done.reduce((sum, s) => sum + s.outputTokens, 0)
    const last = (further.at(-1) ?? done.find((s) => s.stage === 4))?.outputTokens ?? 0
    if (last > 0 && furtherMovesCloser(settings.tokenBudget, spent, last)) {
      return {
        index: done.length,
        kind: 'further',
        stage: null,
        template: getTemplate(settings.templates, 'hypothesis-further', 1),
        values: { ...base, proposed_hypotheses: formatNumberedList(candidatesOf(done).map(formatHypothesisText)) },
        format: 'json'
      }
    }
  }
  return {
    index: done.length,
    kind: 'selection',
    stage: null,
    template: getTemplate(settings.templates, 'hypothesis-selection', 1),
    values: { ...base, candidates: formatLabelledBlocks('C', candidatesOf(done).map(formatHypothesisText)) },
    format: 'json'
  }
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
