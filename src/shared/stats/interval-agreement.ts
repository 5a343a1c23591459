import { assertFiniteNumbers, assertSameLength } from './input-checks'
import { defined, undefinedBecause, type Estimate } from './types'

/** Mean of |x − y| over paired scores. */
export function meanAbsoluteDifference(first: readonly number[], second: readonly number[]): Estimate {
  assertSameLength(first, second, 'mean absolute difference')
  assertFiniteNumbers(first, 'mean absolute difference')
  assertFiniteNumbers(second, 'mean absolute difference')
  if (first.length === 0) return undefinedBecause('no items scored by both sources')
  const total = first.reduce((sum, x, item) => sum + Math.abs(x - (second[item] as number)), 0)
  return defined(total / first.length)
}

/** Pearson's product-moment correlation; undefined when either source does not vary. */
/** Why a correlation of fewer than three items is not given: two points always lie on a line. */
export function tooFewForCorrelation(n: number): string {
  return `too few items (${n}): a correlation needs at least 3 (on 2, any two points lie on a line and it is ±1 by construction)`
}

export function pearson(first: readonly number[], second: readonly number[]): Estimate {
  assertSameLength(first, second, 'Pearson correlation')
  assertFiniteNumbers(first, 'Pearson correlation')
  assertFiniteNumbers(second, 'Pearson correlation')
  const n = first.length
  if (n < 3) return undefinedBecause(tooFewForCorrelation(n))
  const meanX = first.reduce((sum, x) => sum + x, 0) / n
  const meanY = second.reduce((sum, y) => sum + y, 0) / n
  let sxx = 0
  let syy = 0
  let sxy = 0
  for (let i = 0; i < n; i++) {
    const dx = (first[i] as number) - meanX
    const dy = (second[i] as number) - meanY
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  if (sxx === 0 && syy === 0) return undefinedBecause('both sources give every item the same score (zero variance)')
  if (sxx === 0) return undefinedBecause('the first source gives every item the same score (zero variance)')
  if (syy === 0) return undefinedBecause('the second source gives every item the same score (zero variance)')
  // Clamped because rounding can carry a perfect correlation a hair past ±1.
  return defined(Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))))
}
