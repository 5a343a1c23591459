// The list formats the source's templates show by example. Each function reproduces its example block exactly when
// given the example's own entries, which the template tests check.

/** "[P1] text\n\n[P2] text": labelled blocks separated by a blank line (hypotheses, candidates). */
export function formatLabelledBlocks(prefix: string, texts: readonly string[]): string {
  return texts.map((t, i) => `[${prefix}${i + 1}] ${t}`).join('\n\n')
}

/** "- a\n- b": key points in the match judge and the cue rating. */
export function formatBulletList(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n')
}

/** "1. a\n2. b": hypotheses already proposed; stage 4's answer as passed to stage 5. */
export function formatNumberedList(items: readonly string[]): string {
  return items.map((item, i) => `${i + 1}. ${item}`).join('\n')
}

/** "a; b": key points "separated by semicolons" in the leak audit and the reference comparison. */
export function joinSemicolons(items: readonly string[]): string {
  return items.join('; ')
}

export const PREVIOUS_STAGES_HEADING = 'RESULTS OF YOUR PREVIOUS STAGES'

export interface StageAnswer {
  stage: number
  /** The answer as carried on; stage 4's as a numbered list of hypothesis texts. */
  answer: string
}

/**
 * The value of the stage request's results section: the heading and one "=== STAGE n ===" block per earlier stage,
 * separated by blank lines and followed by one, as in the source's structure; empty at stage 1, which has no
 * earlier answers.
 */
export function formatPreviousStages(stages: readonly StageAnswer[]): string {
  if (stages.length === 0) return ''
  const blocks = stages.map((s) => `=== STAGE ${s.stage} ===\n${s.answer}`)
  return `${PREVIOUS_STAGES_HEADING}\n\n${blocks.join('\n\n')}\n\n`
}
