import { confusionMatrix } from './confusion-matrix'
import { countsByItem, multiRaterParts } from './fleiss-kappa'
import { assertCountTable } from './input-checks'
import { CHANCE_AGREEMENT_TOLERANCE, tableMargins } from './table-margins'
import { defined, undefinedBecause, type Category, type Estimate, type Weighting } from './types'
import { agreementWeights } from './weights'

/**
 * Gwet's agreement coefficient for two sources from a square contingency table over the declared categories:
 * AC1 with identity weights, AC2 with linear or quadratic weights (Gwet 2014, as in irrCAC).
 * Chance agreement depends on the number of declared categories q, so the table must include unused ones.
 */
export function gwetFromTable(table: readonly (readonly number[])[], weighting: Weighting = 'identity'): Estimate {
  assertCountTable(table, "Gwet's AC")
  const categoryCount = table.length
  if (categoryCount < 2) return undefinedBecause('fewer than 2 declared categories: chance agreement is undefined')
  const { total, rows, columns } = tableMargins(table)
  if (total === 0) return undefinedBecause('no items rated by both sources')
  const weights = agreementWeights(categoryCount, weighting)
  let observed = 0
  let weightSum = 0
  let spread = 0
  table.forEach((row, i) => {
    row.forEach((cell, j) => {
      const weight = weights[i]?.[j] ?? 0
      observed += (weight * cell) / total
      weightSum += weight
    })
    const share = ((rows[i] ?? 0) + (columns[i] ?? 0)) / (2 * total)
    spread += share * (1 - share)
  })
  const expected = (weightSum * spread) / (categoryCount * (categoryCount - 1))
  if (1 - expected <= CHANCE_AGREEMENT_TOLERANCE) return undefinedBecause('expected agreement is 1')
  return defined((observed - expected) / (1 - expected))
}

/** Gwet's AC1 of two sources over declared nominal categories. */
export function gwetAc1<C extends Category>(first: readonly C[], second: readonly C[], categories: readonly C[]): Estimate {
  return gwetFromTable(confusionMatrix(first, second, categories).counts, 'identity')
}

/** Gwet's AC2 of two sources over a declared ordinal scale (lowest first). */
export function gwetAc2<C extends Category>(
  first: readonly C[],
  second: readonly C[],
  scale: readonly C[],
  weighting: 'linear' | 'quadratic'
): Estimate {
  return gwetFromTable(confusionMatrix(first, second, scale).counts, weighting)
}

export type MultiRaterAc1 = Estimate & { pA: number | null; pE: number | null; itemsUsed: number; itemsDropped: number }

/**
 * Gwet's AC1 for any number of raters with missing ratings (Gwet 2014; irrCAC `gwet.ac1.raw`): p_a and π_k as for
 * Fleiss' kappa, chance agreement p_e = Σ π_k(1 − π_k) / (q − 1) over the q declared categories.
 */
export function gwetAc1FromCounts(counts: readonly (readonly number[])[]): MultiRaterAc1 {
  const parts = multiRaterParts(counts, "Gwet's AC1")
  const tally = { itemsUsed: parts.itemsUsed, itemsDropped: parts.itemsDropped }
  const q = parts.shares.length
  if (q < 2) return { ...undefinedBecause('fewer than 2 declared categories: chance agreement is undefined'), ...tally, pA: parts.pA, pE: null }
  if (parts.pA === null) return { ...undefinedBecause('no item has at least 2 ratings'), ...tally, pA: null, pE: null }
  const expected = parts.shares.reduce((sum, share) => sum + share * (1 - share), 0) / (q - 1)
  if (1 - expected <= CHANCE_AGREEMENT_TOLERANCE) return { ...undefinedBecause('expected agreement is 1'), ...tally, pA: parts.pA, pE: expected }
  return { ...defined((parts.pA - expected) / (1 - expected)), ...tally, pA: parts.pA, pE: expected }
}

/** Gwet's AC1 from raw ratings (items × raters, null where a rater did not rate the item) over declared categories. */
export function gwetAc1Raters<C extends Category>(ratings: readonly (readonly (C | null)[])[], categories: readonly C[]): MultiRaterAc1 {
  return gwetAc1FromCounts(countsByItem(ratings, categories, "Gwet's AC1"))
}
