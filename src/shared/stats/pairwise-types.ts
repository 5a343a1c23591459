/** What a judge answered on one pairwise call, mapped back to the canonical order of the pair. */
export type PairwiseVerdict<L extends string> =
  | { kind: 'choice'; choice: L }
  /** The judge declared both equal (where the instrument allows it). */
  | { kind: 'tie' }
  /** Completed, but the answer could not be normalised: counts as incorrect. */
  | { kind: 'unparseable' }
  /** Still failed after its retries: listed, and left out of the judged denominator. */
  | { kind: 'failed' }

/** One judge call on one pair of proposals. */
export type PairwiseCall<L extends string> = {
  /**
   * The pair; calls of the same pair (both display orders, repeated runs) share it and are resampled together. A
   * number is a pair id too (the report's item ids), kept apart from the string of its digits.
   */
  itemId: string | number
  /** The reference answer: the side that is better, in canonical terms (e.g. 'A' | 'B', or 'human' | 'ai'). */
  label: L
  verdict: PairwiseVerdict<L>
  /** The side displayed first on this call, canonical; needed only for position statistics. */
  shownFirst?: L
}

/**
 * Tie verdicts are either kept (in every denominator, as not correct / not picking the first side) or dropped
 * (out of the denominators, reported as a count).
 */
export type TiePolicy = 'kept' | 'dropped'
