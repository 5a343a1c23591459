import { indexCategories, positionOf } from './categories'
import { CHANCE_AGREEMENT_TOLERANCE } from './table-margins'
import { defined, undefinedBecause, type Category, type Estimate } from './types'

export type FleissKappa = Estimate & {
  /** Items with at least 2 ratings: the observed agreement p_a averages over these. */
  itemsUsed: number
  /** Items with fewer than 2 ratings: no agreement information (their shares still count in π_k when rated once). */
  itemsDropped: number
  /** Observed and chance agreement (null when undefined). */
  pA: number | null
  pE: number | null
}

/**
 * The parts every multi-rater chance-corrected coefficient shares (Gwet 2014, as irrCAC computes them): p_a, the
 * mean over items with r_i ≥ 2 ratings of Σ_k n_ik(n_ik − 1) / (r_i(r_i − 1)); and the category shares π_k, the
 * mean over all rated items (r_i ≥ 1) of n_ik / r_i.
 */
export function multiRaterParts(counts: readonly (readonly number[])[], what: string): { pA: number | null; shares: number[]; itemsUsed: number; itemsDropped: number; itemsRated: number } {
  const categoryCount = counts[0]?.length ?? 0
  counts.forEach((row, item) => {
    if (row.length !== categoryCount) throw new RangeError(`${what}: item ${item} has ${row.length} category counts, expected ${categoryCount}`)
    row.forEach((count, k) => {
      if (!(Number.isInteger(count) && count >= 0)) throw new RangeError(`${what}: count [${item}][${k}] must be a non-negative integer (${count})`)
    })
  })
  let observed = 0
  let itemsUsed = 0
  let itemsRated = 0
  const shares = new Array<number>(categoryCount).fill(0)
  for (const row of counts) {
    const raters = row.reduce((sum, count) => sum + count, 0)
    if (raters === 0) continue
    itemsRated++
    row.forEach((count, k) => {
      shares[k] = (shares[k] ?? 0) + count / raters
    })
    if (raters < 2) continue
    itemsUsed++
    observed += row.reduce((sum, count) => sum + count * (count - 1), 0) / (raters * (raters - 1))
  }
  return {
    pA: itemsUsed === 0 ? null : observed / itemsUsed,
    shares: shares.map((share) => (itemsRated === 0 ? 0 : share / itemsRated)),
    itemsUsed,
    itemsDropped: counts.length - itemsUsed,
    itemsRated
  }
}

/**
 * Fleiss' kappa from per-item category counts (items × declared categories), allowing a different number of
 * raters per item: (p_a − p_e) / (1 − p_e) with p_e = Σ π_k² and p_a, π_k as in `multiRaterParts`. With the same
 * number of raters everywhere this is Fleiss (1971); with missing raters it is Gwet's generalisation as in irrCAC
 * (`fleiss.kappa.raw`), where the shares average over every rated item. For two raters it is Scott's pi.
 */
export function fleissKappaFromCounts(counts: readonly (readonly number[])[]): FleissKappa {
  return fleissKappaFromParts(multiRaterParts(counts, "Fleiss' kappa"))
}

/**
 * Scott's pi of two raters who both rated every unit, given as category positions 0..q−1: `fleissKappa` of the
 * rows [first[i], second[i]] over those positions, figure for figure, without a row of counts per unit. With two
 * ratings per unit, each unit adds 1 to its share and to the observed agreement when both agree, and ½ to each
 * rater's category otherwise: sums of halves, exact in any order.
 */
export function scottPiOfPositions(first: readonly number[], second: readonly number[], categoryCount: number): FleissKappa {
  if (first.length !== second.length) throw new RangeError("Scott's pi: both raters must rate the same units")
  const halves = new Array<number>(categoryCount).fill(0)
  let agreed = 0
  for (let i = 0; i < first.length; i++) {
    const a = first[i] as number
    const b = second[i] as number
    if (!(Number.isInteger(a) && a >= 0 && a < categoryCount && Number.isInteger(b) && b >= 0 && b < categoryCount)) {
      throw new RangeError(`Scott's pi: unit ${i} has a category position outside 0..${categoryCount - 1}`)
    }
    halves[a] = (halves[a] as number) + 1
    halves[b] = (halves[b] as number) + 1
    if (a === b) agreed++
  }
  const units = first.length
  return fleissKappaFromParts({
    pA: units === 0 ? null : agreed / units,
    shares: halves.map((h) => (units === 0 ? 0 : h / 2 / units)),
    itemsUsed: units,
    itemsDropped: 0,
    itemsRated: units
  })
}

function fleissKappaFromParts(parts: ReturnType<typeof multiRaterParts>): FleissKappa {
  const tally = { itemsUsed: parts.itemsUsed, itemsDropped: parts.itemsDropped }
  if (parts.pA === null) return { ...undefinedBecause('no item has at least 2 ratings'), ...tally, pA: null, pE: null }
  const expected = parts.shares.reduce((sum, share) => sum + share * share, 0)
  if (1 - expected <= CHANCE_AGREEMENT_TOLERANCE) {
    return { ...undefinedBecause('expected agreement is 1 (every rating is in a single category)'), ...tally, pA: parts.pA, pE: expected }
  }
  return { ...defined((parts.pA - expected) / (1 - expected)), ...tally, pA: parts.pA, pE: expected }
}

/** Rater × item ratings (null where missing) as items × categories counts over declared categories. */
export function countsByItem<C extends Category>(ratings: readonly (readonly (C | null)[])[], categories: readonly C[], what: string): number[][] {
  const positions = indexCategories(categories, what)
  return ratings.map((row) => {
    const itemCounts = new Array<number>(categories.length).fill(0)
    for (const label of row) {
      if (label === null) continue
      const k = positionOf(positions, label, what)
      itemCounts[k] = (itemCounts[k] ?? 0) + 1
    }
    return itemCounts
  })
}

/**
 * Fleiss' kappa from raw ratings (items × raters, null where a rater did not rate the item) over declared categories.
 */
export function fleissKappa<C extends Category>(ratings: readonly (readonly (C | null)[])[], categories: readonly C[]): FleissKappa {
  return fleissKappaFromCounts(countsByItem(ratings, categories, "Fleiss' kappa"))
}
