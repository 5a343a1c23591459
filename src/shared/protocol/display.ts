import { seededUnit } from './hash'

// IdeaEval shows a pair in an order fixed by seed and pair id, and maps the verdict back to the canonical order
// before it is compared with the label.

export type Side = 'A' | 'B'

/** The ranker's verdicts, in the side order of the pair as shown. No ties. */
export const PAIR_VERDICTS = ['A_much_better', 'A_better', 'B_better', 'B_much_better'] as const
export type PairVerdict = (typeof PAIR_VERDICTS)[number]

/** IdeaEval's rule: swap A and B when seededUnit(seed, pairId) < 0.5. */
export function shouldSwap(seed: string | number, pairId: string): boolean {
  return seededUnit(seed, pairId) < 0.5
}

/** The pair as shown: A is the canonical b when swapped. */
export function displayPair<T>(a: T, b: T, swapped: boolean): { A: T; B: T } {
  return swapped ? { A: b, B: a } : { A: a, B: b }
}

/** The canonical side of a side named in display order (and, as the swap is its own inverse, back). */
export function canonicalSide(side: Side, swapped: boolean): Side {
  if (!swapped) return side
  return side === 'A' ? 'B' : 'A'
}

const MIRRORED: Record<PairVerdict, PairVerdict> = {
  A_much_better: 'B_much_better',
  A_better: 'B_better',
  B_better: 'A_better',
  B_much_better: 'A_much_better'
}

/** A verdict given on the pair as shown, stated for the canonical order. */
export function canonicalVerdict(verdict: PairVerdict, swapped: boolean): PairVerdict {
  return swapped ? MIRRORED[verdict] : verdict
}

/** Which side the verdict prefers. */
export function preferredSide(verdict: PairVerdict): Side {
  return verdict.startsWith('A') ? 'A' : 'B'
}
