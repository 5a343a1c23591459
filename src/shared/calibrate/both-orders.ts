/**
 * Aggregating a pairwise judge asked in both display orders (canonical sides, after mapping back):
 * - `conservative` (MT-Bench, Zheng et al. 2023 §3): a win counts only when both orders pick the same side,
 *   otherwise the pair is a tie; an agreed win keeps the milder of the two strengths.
 * - `average` (balanced position calibration, Wang et al. 2024): the signed strengths of both orders are averaged
 *   (a_much_better +2, a_better +1, b_better −1, b_much_better −2); the sign gives the side, |mean| ≥ 1.5 "much".
 * Several trials of one order are averaged within the order first.
 */
export const BOTH_ORDER_RULES = ['conservative', 'average'] as const
export type BothOrderRule = (typeof BOTH_ORDER_RULES)[number]

export const PAIR_STRENGTH: Readonly<Record<string, number>> = { a_much_better: 2, a_better: 1, b_better: -1, b_much_better: -2 }

export type OrderedVerdicts = {
  /** Canonical verdicts given with side a shown first (order 0) and with side b shown first (order 1). */
  first: readonly string[]
  second: readonly string[]
}

/** The aggregated canonical verdict, or 'tie'; null when an order has no verdict. */
export function aggregateBothOrders(verdicts: OrderedVerdicts, rule: BothOrderRule): string | 'tie' | null {
  const mean = (list: readonly string[]) => {
    const known = list.map((v) => PAIR_STRENGTH[v]).filter((v): v is number => v !== undefined)
    return known.length ? known.reduce((s, v) => s + v, 0) / known.length : null
  }
  const a = mean(verdicts.first)
  const b = mean(verdicts.second)
  if (a === null || b === null) return null
  if (rule === 'conservative') {
    if (a === 0 || b === 0 || Math.sign(a) !== Math.sign(b)) return 'tie'
    return labelOf(Math.sign(a) * Math.min(Math.abs(a), Math.abs(b)))
  }
  return labelOf((a + b) / 2)
}

function labelOf(strength: number): string | 'tie' {
  if (strength === 0) return 'tie'
  const side = strength > 0 ? 'a' : 'b'
  return Math.abs(strength) >= 1.5 ? `${side}_much_better` : `${side}_better`
}

/** The side a verdict picks ('a', 'b'), or null for a tie or an unknown verdict. */
export function sideOf(verdict: string | null): 'a' | 'b' | null {
  if (verdict === null || verdict === 'tie') return null
  return verdict.startsWith('a_') ? 'a' : verdict.startsWith('b_') ? 'b' : null
}

export type BothOrderChanges = {
  /** Pairs with a verdict in both orders. */
  n_pairs: number
  /** Single-order verdicts whose side differs from the aggregated outcome (a tie counts as a change of side). */
  changed_first_order: number
  changed_second_order: number
  n_ties: number
}

/** How many verdicts a rule changes, counted against each display order's own side. */
export function bothOrderChanges(items: readonly OrderedVerdicts[], rule: BothOrderRule): BothOrderChanges {
  const out: BothOrderChanges = { n_pairs: 0, changed_first_order: 0, changed_second_order: 0, n_ties: 0 }
  const sideOfMean = (list: readonly string[]) => {
    const known = list.map((v) => PAIR_STRENGTH[v]).filter((v): v is number => v !== undefined)
    const m = known.reduce((s, v) => s + v, 0)
    return m > 0 ? 'a' : m < 0 ? 'b' : null
  }
  for (const item of items) {
    const aggregated = aggregateBothOrders(item, rule)
    if (aggregated === null) continue
    out.n_pairs++
    const side = sideOf(aggregated)
    if (side === null) out.n_ties++
    if (sideOfMean(item.first) !== side) out.changed_first_order++
    if (sideOfMean(item.second) !== side) out.changed_second_order++
  }
  return out
}
