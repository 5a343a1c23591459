import normalCdf from '@stdlib/stats-base-dists-normal-cdf'
import { assertFiniteNumbers, assertSameLength } from './input-checks'
import { pearson, tooFewForCorrelation } from './interval-agreement'
import { averageRanks, tieGroupSizes } from './ranks'
import { defined, undefinedBecause, type Estimate } from './types'

/** Spearman's rho: Pearson's correlation of average ranks (ties share the mean of their ranks). */
export function spearman(first: readonly number[], second: readonly number[]): Estimate {
  assertSameLength(first, second, 'Spearman correlation')
  assertFiniteNumbers(first, 'Spearman correlation')
  assertFiniteNumbers(second, 'Spearman correlation')
  return pearson(averageRanks(first), averageRanks(second))
}

/**
 * spearman of two raters' category positions (0..q−1 on one ordered scale), given each rater's count per category:
 * the tied ranks follow from the counts, so nothing is sorted. The same ranks, hence the same value, as spearman.
 */
export function spearmanOfPositions(first: readonly number[], second: readonly number[], firstCounts: readonly number[], secondCounts: readonly number[]): Estimate {
  assertSameLength(first, second, 'Spearman correlation')
  const ranksOf = (positions: readonly number[], counts: readonly number[]): number[] => {
    const rank = new Float64Array(counts.length)
    let start = 0
    counts.forEach((count, k) => {
      // averageRanks' rank of a tied run spanning sorted places start..end (0-based).
      rank[k] = (start + (start + count - 1)) / 2 + 1
      start += count
    })
    if (start !== positions.length) throw new RangeError(`Spearman correlation: the counts add to ${start}, not ${positions.length}`)
    return positions.map((p) => rank[p] as number)
  }
  return pearson(ranksOf(first, firstCounts), ranksOf(second, secondCounts))
}

export type KendallPValueMethod = 'exact' | 'normal-approximation'

export type KendallTauB = Estimate & {
  n: number
  concordant: number
  discordant: number
  /** Two-sided p-value for the null of independence; null exactly when tau is undefined. */
  pValue: number | null
  pValueMethod: KendallPValueMethod | null
}

/** Largest n without ties for which the p-value is taken from the exact permutation distribution (as scipy does). */
export const KENDALL_EXACT_MAX_N = 33

/**
 * Kendall's tau-b with a two-sided p-value: exact (permutation distribution of the number of discordant pairs)
 * for n ≤ 33 without ties, otherwise the normal approximation of the concordant-minus-discordant count with the
 * tie-corrected variance (Kendall 1970; as scipy.stats.kendalltau).
 */
export function kendallTauB(first: readonly number[], second: readonly number[]): KendallTauB {
  assertSameLength(first, second, 'Kendall tau-b')
  assertFiniteNumbers(first, 'Kendall tau-b')
  assertFiniteNumbers(second, 'Kendall tau-b')
  const n = first.length
  let concordant = 0
  let discordant = 0
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const sign = Math.sign((first[i] as number) - (first[j] as number)) * Math.sign((second[i] as number) - (second[j] as number))
      if (sign > 0) concordant++
      else if (sign < 0) discordant++
    }
  }
  const counts = { n, concordant, discordant }
  const undefinedTau = (reason: string): KendallTauB => ({ ...undefinedBecause(reason), ...counts, pValue: null, pValueMethod: null })
  if (n < 3) return undefinedTau(tooFewForCorrelation(n))

  const pairs = (n * (n - 1)) / 2
  const firstTies = tieGroupSizes(first)
  const secondTies = tieGroupSizes(second)
  const tiedPairs = (sizes: number[]): number => sizes.reduce((sum, t) => sum + (t * (t - 1)) / 2, 0)
  const firstTiedPairs = tiedPairs(firstTies)
  const secondTiedPairs = tiedPairs(secondTies)
  if (firstTiedPairs === pairs && secondTiedPairs === pairs) return undefinedTau('both sources give every item the same score (zero variance)')
  if (firstTiedPairs === pairs) return undefinedTau('the first source gives every item the same score (zero variance)')
  if (secondTiedPairs === pairs) return undefinedTau('the second source gives every item the same score (zero variance)')

  const tau = (concordant - discordant) / Math.sqrt((pairs - firstTiedPairs) * (pairs - secondTiedPairs))
  const clamped = Math.max(-1, Math.min(1, tau))
  if (firstTiedPairs === 0 && secondTiedPairs === 0 && n <= KENDALL_EXACT_MAX_N) {
    return { ...defined(clamped), ...counts, pValue: exactKendallPValue(n, Math.min(concordant, discordant)), pValueMethod: 'exact' }
  }
  const sumOver = (sizes: number[], term: (t: number) => number): number => sizes.reduce((sum, t) => sum + term(t), 0)
  const variance =
    (n * (n - 1) * (2 * n + 5) -
      sumOver(firstTies, (t) => t * (t - 1) * (2 * t + 5)) -
      sumOver(secondTies, (t) => t * (t - 1) * (2 * t + 5))) / 18 +
    (sumOver(firstTies, (t) => t * (t - 1)) * sumOver(secondTies, (t) => t * (t - 1))) / (2 * n * (n - 1)) +
    (n > 2
      ? (sumOver(firstTies, (t) => t * (t - 1) * (t - 2)) * sumOver(secondTies, (t) => t * (t - 1) * (t - 2))) / (9 * n * (n - 1) * (n - 2))
      : 0)
  const z = (concordant - discordant) / Math.sqrt(variance)
  const pValue = Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1))
  return { ...defined(clamped), ...counts, pValue, pValueMethod: 'normal-approximation' }
}

/**
 * Two-sided exact p-value: 2·P(D ≤ d) under a uniformly random permutation of n distinct values, where D counts
 * inversions (Mahonian distribution) and d = min(concordant, discordant). Built as probabilities, one element
 * at a time: P_m(k) = (1/m) Σ_{j<m} P_{m−1}(k − j), so nothing overflows.
 */
export function exactKendallPValue(n: number, smallerCount: number): number {
  let distribution = [1]
  for (let m = 2; m <= n; m++) {
    const maxInversions = (m * (m - 1)) / 2
    const next = new Array<number>(maxInversions + 1).fill(0)
    let window = 0
    for (let k = 0; k <= maxInversions; k++) {
      window += distribution[k] ?? 0
      if (k - m >= 0) window -= distribution[k - m] ?? 0
      next[k] = window / m
    }
    distribution = next
  }
  let lowerTail = 0
  for (let k = 0; k <= smallerCount; k++) lowerTail += distribution[k] ?? 0
  return Math.min(1, 2 * lowerTail)
}
