import { assertFiniteNumbers } from './input-checks'
import { defined, undefinedBecause, type Estimate } from './types'

/**
 * Sample quantile of Hyndman & Fan type 7 (the default of R and numpy): with sorted x and h = (n − 1)·p,
 * x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]).
 */
export function quantileType7(values: readonly number[], probability: number): Estimate {
  if (!(probability >= 0 && probability <= 1)) throw new RangeError(`quantile probability must lie in [0, 1] (${probability})`)
  assertFiniteNumbers(values, 'quantile')
  if (values.length === 0) return undefinedBecause('no values')
  return defined(sortedQuantileType7([...values].sort((a, b) => a - b), probability))
}

/** Type-7 quantile of values already sorted ascending (non-empty). */
export function sortedQuantileType7(sorted: ArrayLike<number>, probability: number): number {
  const h = (sorted.length - 1) * probability
  const below = Math.floor(h)
  const low = sorted[below] as number
  const high = sorted[Math.min(below + 1, sorted.length - 1)] as number
  return low + (h - below) * (high - low)
}
