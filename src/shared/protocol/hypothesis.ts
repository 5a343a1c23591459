// How hypotheses are shown to judges and forecasters, and how a selection answer becomes the chosen set.

export interface HypothesisFields {
  statement: string
  mechanism: string
  prediction: string
}

/**
 * The text judges and forecasting models see (001, "Generating hypotheses"):
 * "[statement] Mechanism: [mechanism] Prediction: [prediction]". domain_category is not part of it. Fields are used
 * exactly as generated.
 */
export function formatHypothesisText(h: HypothesisFields): string {
  return `${h.statement} Mechanism: ${h.mechanism} Prediction: ${h.prediction}`
}

export interface SelectionResult {
  /** The chosen ids: the answer's valid ids in its order, then fill from the candidates in proposal order. */
  selected: string[]
  /** Ids taken from the answer. */
  fromAnswer: string[]
  /** Ids added by the fill rule. */
  filled: string[]
  /** Ids in the answer that name no candidate. */
  unknown: string[]
  /** Ids the answer repeated (each repetition once). */
  duplicates: string[]
  /** Valid ids beyond the requested size, left out. */
  overflow: string[]
}

/**
 * The selection rule (001, "Choosing five hypotheses from the candidates"): when the answer names fewer than `size`
 * candidates, the list is filled with candidates in the order they were proposed. Unknown and repeated ids are
 * reported, never counted. Ids are compared after trimming white space.
 */
export function fillSelection(answer: readonly string[], candidateIds: readonly string[], size: number): SelectionResult {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`)
  const known = new Set(candidateIds)
  const chosen = new Set<string>()
  const result: SelectionResult = { selected: [], fromAnswer: [], filled: [], unknown: [], duplicates: [], overflow: [] }
  for (const raw of answer) {
    const id = raw.trim()
    if (!known.has(id)) result.unknown.push(raw)
    else if (chosen.has(id)) result.duplicates.push(id)
    else if (chosen.size >= size) result.overflow.push(id)
    else {
      chosen.add(id)
      result.fromAnswer.push(id)
    }
  }
  for (const id of candidateIds) {
    if (chosen.size >= size) break
    if (chosen.has(id)) continue
    chosen.add(id)
    result.filled.push(id)
  }
  result.selected = [...result.fromAnswer, ...result.filled]
  return result
}
