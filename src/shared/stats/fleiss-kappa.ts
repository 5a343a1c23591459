import { indexCategories, positionOf } from './categories'
import { CHANCE_AGREEMENT_TOLERANCE } from './table-margins'
import { defined, undefinedBecause, type Category, type Estimate } from './types'

export type FleissKappa = Estimate & {
  /** Items with at least 2 ratings, which the coefficient is computed on. */
  itemsUsed: number
  /** Items with fewer than 2 ratings: they carry no agreement information and are left out. */
  itemsDropped: number
}

/**
 * Fleiss' kappa from per-item category counts (items × declared categories), allowing a different number of
 * raters per item. For item i with r_i ≥ 2 ratings: P_i = Σ_k n_ik(n_ik − 1) / (r_i(r_i − 1)); observed
 * agreement is the mean P_i; category shares p_k are the mean over items of n_ik / r_i; chance agreement is
 * Σ p_k². With the same number of raters everywhere this is Fleiss (1971); with missing raters it is the
 * generalisation in Gwet's Handbook of Inter-Rater Reliability (irrCAC), restricted to the retained items.
 */
export function fleissKappaFromCounts(counts: readonly (readonly number[])[]): FleissKappa {
  const categoryCount = counts[0]?.length ?? 0
  counts.forEach((row, item) => {
    if (row.length !== categoryCount) throw new RangeError(`Fleiss' kappa: item ${item} has ${row.length} category counts, expected ${categoryCount}`)
    row.forEach((count, k) => {
      if (!(Number.isInteger(count) && count >= 0)) throw new RangeError(`Fleiss' kappa: count [${item}][${k}] must be a non-negative integer (${count})`)
    })
  })
  const retained = counts.filter((row) => row.reduce((sum, count) => sum + count, 0) >= 2)
  const itemsDropped = counts.length - retained.length
  const tally = { itemsUsed: retained.length, itemsDropped }
  if (retained.length === 0) return { ...undefinedBecause('no item has at least 2 ratings'), ...tally }

  let observed = 0
  const shares = new Array<number>(categoryCount).fill(0)
  for (const row of retained) {
    const raters = row.reduce((sum, count) => sum + count, 0)
    observed += row.reduce((sum, count) => sum + count * (count - 1), 0) / (raters * (raters - 1))
    row.forEach((count, k) => {
      shares[k] = (shares[k] ?? 0) + count / raters
    })
  }
  observed /= retained.length
  const expected = shares.reduce((sum, share) => sum + (share / retained.length) ** 2, 0)
  if (1 - expected <= CHANCE_AGREEMENT_TOLERANCE) {
    return { ...undefinedBecause('expected agreement is 1 (every rating is in a single category)'), ...tally }
  }
  return { ...defined((observed - expected) / (1 - expected)), ...tally }
}

/**
 * Fleiss' kappa from raw ratings (items × raters, null where a rater did not rate the item) over declared categories.
 */
export function fleissKappa<C extends Category>(ratings: readonly (readonly (C | null)[])[], categories: readonly C[]): FleissKappa {
  const positions = indexCategories(categories, "Fleiss' kappa")
  const counts = ratings.map((row) => {
    const itemCounts = new Array<number>(categories.length).fill(0)
    for (const label of row) {
      if (label === null) continue
      const k = positionOf(positions, label, "Fleiss' kappa")
      itemCounts[k] = (itemCounts[k] ?? 0) + 1
    }
    return itemCounts
  })
  return fleissKappaFromCounts(counts)
}
