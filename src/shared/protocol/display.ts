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

/** A pair as it enters an annotator's layout: its id and whether canonical A is the human-written side. */
export interface LayoutPair {
  pairId: string
  humanIsA: boolean
}

/**
 * Left/right for one annotator's pairs, balanced: within each stratum (canonical A human or not) every second pair
 * is swapped, so each stratum — and with it the count of swapped pairs and of pairs with the human side on the
 * left — stays within one of half. Pairs are taken in the order given (the order they were assigned), so a pair
 * added later never changes the layout of the earlier ones. The first pair of each two in a stratum leans against
 * the running imbalance of the other stratum; where there is none, a coin from the seed and the viewer decides.
 */
export function balancedSwaps(seed: string | number, viewer: string, pairs: ReadonlyArray<LayoutPair>): Map<string, boolean> {
  const out = new Map<string, boolean>()
  // Per stratum: the swap of its open (first of two) pair, or null when its pairs so far come in complete twos.
  const open: [boolean | null, boolean | null] = [null, null]
  for (const { pairId, humanIsA } of pairs) {
    const s = humanIsA ? 0 : 1
    const mine = open[s]
    if (mine !== null && mine !== undefined) {
      out.set(pairId, !mine)
      open[s] = null
      continue
    }
    const other = open[1 - s]
    const swapped = other !== null && other !== undefined ? !other : seededUnit(seed, `${viewer}:${pairId}`) < 0.5
    out.set(pairId, swapped)
    open[s] = swapped
  }
  return out
}
