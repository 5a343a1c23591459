import { z } from 'zod'
import { parseJsonObject } from '../../shared/parse'
import { fillSelection, formatLabelledBlocks, formatNumberedList, formatPreviousStages, type SelectionResult } from '../../shared/protocol'
import { getTemplate, renderPart, type AnswerFormat, type TemplateSet } from '../../shared/templates'
import { furtherMovesCloser, MAX_FURTHER_REQUESTS, omegaOf, type ChainSettings, type GenerationTask, type StepKind, type StepOutcome, type StepPlan } from './chain'

// The idea versions of the three generation schemes (001, "Originality of ideas in the LiveIdeaBench adaptation"):
// two ideas per keyword in one request (idea-generation); or the five stages of the multi-stage chain or of Omega
// Point with the derived idea templates, then the choice of two ideas (idea-selection). Pure, like chain.ts: it
// says what the next request is and what the answers amount to.

/** Ideas the selection keeps (001: "Select the 2 ideas"). */
export const IDEA_SELECTION_SIZE = 2

const ideasAnswer = z.looseObject({ ideas: z.array(z.looseObject({ idea: z.string().trim().min(1) })).min(1) })
const selectionAnswer = z.looseObject({ selected: z.array(z.string()) })

export type IdeaRead = { ok: true; ideas: string[] | null; selected: string[] | null } | { ok: false; error: string }

/** Reads one step's answer of an idea sequence; an answer a later step cannot use ends the sequence. */
export function readIdeaStepAnswer(kind: StepKind, format: AnswerFormat, text: string): IdeaRead {
  if (format === 'text') return text.trim() ? { ok: true, ideas: null, selected: null } : { ok: false, error: 'empty answer' }
  const json = parseJsonObject(text, { prefer: 'last' })
  if (!json.ok) return { ok: false, error: json.error }
  if (kind === 'selection') {
    const s = selectionAnswer.safeParse(json.value)
    return s.success ? { ok: true, ideas: null, selected: s.data.selected } : { ok: false, error: 'the answer has no "selected" list' }
  }
  const i = ideasAnswer.safeParse(json.value)
  return i.success ? { ok: true, ideas: i.data.ideas.map((x) => x.idea), selected: null } : { ok: false, error: 'the answer has no "ideas" with an "idea" text' }
}

/** Ideas proposed so far, in the order proposed: stage 4, stage 5, then further requests (or the single request). */
export function ideaCandidatesOf(done: readonly StepOutcome[]): string[] {
  return done.filter((s) => s.kind !== 'selection').flatMap((s) => s.ideas ?? [])
}

function fragment(templates: TemplateSet, id: string, part: string, values: Record<string, string> = {}): string {
  return renderPart(getTemplate(templates, id, 1), part, values)
}

function stageAnswer(s: StepOutcome): string {
  // As for hypotheses, stage 4's answer is carried on as a numbered list of its ideas.
  return s.stage === 4 && s.ideas ? formatNumberedList(s.ideas) : s.text
}

function stageStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[], stage: number): StepPlan {
  const omega = omegaOf(settings, task)
  const lens: Record<string, string> = omega && stage === 3 ? { lens: fragment(settings.templates, 'omega-lenses', omega.lensKey) } : {}
  const templateId = omega && stage === 4 ? (omega.fourthRole ? 'idea-omega-stage-4-granted' : 'idea-omega-stage-4') : 'idea-stage'
  return {
    index: done.length,
    kind: 'stage',
    stage,
    template: getTemplate(settings.templates, templateId, 1),
    values: {
      keyword: task.keyword ?? task.taskId,
      previous_stages: formatPreviousStages(done.map((s) => ({ stage: s.stage ?? 0, answer: stageAnswer(s) }))),
      stage_text: fragment(settings.templates, omega ? 'idea-omega-stages' : 'idea-chain-stages', `stage-${stage}`, lens),
      answer_format: fragment(settings.templates, stage <= 3 ? 'stage-format-text' : 'idea-stage-format', 'text')
    },
    format: stage <= 3 ? 'text' : 'json'
  }
}

/** The next request of a keyword's idea sequence, or null when the sequence is complete. */
export function nextIdeaStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  const keyword = task.keyword ?? task.taskId
  if (settings.scheme === 'single') {
    if (done.length > 0) return null
    return { index: 0, kind: 'single', stage: null, template: getTemplate(settings.templates, 'idea-generation', 1), values: { keyword }, format: 'json' }
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
        template: getTemplate(settings.templates, 'idea-further', 1),
        values: { keyword, proposed_ideas: formatNumberedList(ideaCandidatesOf(done)) },
        format: 'json'
      }
    }
  }
  return {
    index: done.length,
    kind: 'selection',
    stage: null,
    template: getTemplate(settings.templates, 'idea-selection', 1),
    values: { keyword, candidates: formatLabelledBlocks('C', ideaCandidatesOf(done)) },
    format: 'json'
  }
}

export interface GeneratedIdeas {
  /** Every candidate C1..CN in proposal order, with its rank among the selected (1 = best) or null if excluded. */
  candidates: Array<{ id: string; idea: string; rank: number | null }>
  /** How the selection answer became the chosen ideas (chains only). */
  selection: SelectionResult | null
}

/**
 * What a finished sequence gives: the single request's ideas, all chosen; or every candidate of a chain with the two
 * selected (filled in proposal order when the answer names fewer) marked by rank and the others excluded.
 */
export function generatedIdeas(settings: ChainSettings, done: readonly StepOutcome[]): GeneratedIdeas {
  const texts = ideaCandidatesOf(done)
  const ids = texts.map((_, i) => `C${i + 1}`)
  if (settings.scheme === 'single') return { candidates: texts.map((idea, i) => ({ id: ids[i]!, idea, rank: i + 1 })), selection: null }
  const answer = done.find((s) => s.kind === 'selection')?.selected ?? []
  const selection = fillSelection(answer, ids, IDEA_SELECTION_SIZE)
  const rank = new Map(selection.selected.map((id, i) => [id, i + 1]))
  return { candidates: texts.map((idea, i) => ({ id: ids[i]!, idea, rank: rank.get(ids[i]!) ?? null })), selection }
}
