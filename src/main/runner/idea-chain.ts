import { z } from 'zod'
import { fillSelection, type SelectionResult } from '../../shared/protocol'
import type { AnswerFormat } from '../../shared/templates'
import { nextChainStep, readChainAnswer, type ChainKind, type ChainSettings, type GenerationTask, type StepKind, type StepOutcome, type StepPlan } from './chain'

// The idea versions of the three generation schemes (001, "Originality of ideas in the LiveIdeaBench adaptation"):
// two ideas per keyword in one request (idea-generation); or the five stages of the multi-stage chain or of Omega
// Point with the derived idea templates, then the choice of two ideas (idea-selection). Pure, like chain.ts: it
// says what the next request is and what the answers amount to.

/** Ideas the selection keeps (001: "Select the 2 ideas"). */
export const IDEA_SELECTION_SIZE = 2

const ideasAnswer = z.looseObject({ ideas: z.array(z.looseObject({ idea: z.string().trim().min(1) })).min(1) })

export type IdeaRead = { ok: true; ideas: string[] | null; selected: string[] | null } | { ok: false; error: string }

/** Reads one step's answer of an idea sequence; an answer a later step cannot use ends the sequence. */
export function readIdeaStepAnswer(kind: StepKind, format: AnswerFormat, text: string): IdeaRead {
  const read = readChainAnswer(kind, format, text, (json) => ideasAnswer.safeParse(json).data?.ideas.map((x) => x.idea) ?? null, 'the answer has no "ideas" with an "idea" text')
  return read.ok ? { ok: true, ideas: read.proposed, selected: read.selected } : read
}

/** Ideas proposed so far, in the order proposed: stage 4, stage 5, then further requests (or the single request). */
export function ideaCandidatesOf(done: readonly StepOutcome[]): string[] {
  return done.filter((s) => s.kind !== 'selection').flatMap((s) => s.ideas ?? [])
}

/** The idea chain: asked about a keyword, with the derived idea templates. */
export const IDEA_CHAIN: ChainKind = {
  base: (task) => ({ keyword: task.keyword ?? task.taskId }),
  proposed: (step) => step.ideas ?? null,
  single: 'idea-generation',
  further: 'idea-further',
  furtherValue: 'proposed_ideas',
  selection: 'idea-selection',
  stage: (stage, omega) => (omega && stage === 4 ? (omega.fourthRole ? 'idea-omega-stage-4-granted' : 'idea-omega-stage-4') : 'idea-stage'),
  stagesText: (omega) => (omega ? 'idea-omega-stages' : 'idea-chain-stages'),
  stageFormat: (stage) => (stage <= 3 ? 'stage-format-text' : 'idea-stage-format')
}

/** The next request of a keyword's idea sequence, or null when the sequence is complete. */
export function nextIdeaStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  return nextChainStep(IDEA_CHAIN, settings, task, done)
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
