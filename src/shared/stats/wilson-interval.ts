import normalQuantile from '@stdlib/stats-base-dists-normal-quantile'
import { assertLevel, assertNonNegativeInteger } from './input-checks'
import { undefinedBecause, type IntervalEstimate } from './types'

/** Two-sided critical value of the standard normal for a confidence level (1.959963984540054 at 0.95). */
export function normalCriticalValue(level: number): number {
  assertLevel(level)
  return normalQuantile(1 - (1 - level) / 2, 0, 1)
}

/** Proportion successes / trials with its Wilson score interval (Wilson 1927). */
export function wilsonInterval(successes: number, trials: number, level = 0.95): IntervalEstimate {
  assertNonNegativeInteger(successes, 'successes')
  assertNonNegativeInteger(trials, 'trials')
  if (successes > trials) throw new RangeError(`successes (${successes}) exceed trials (${trials})`)
  const z = normalCriticalValue(level)
  if (trials === 0) return { ...undefinedBecause('no trials'), lower: null, upper: null, level }
  const share = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const centre = (share + z2 / (2 * trials)) / denominator
  const halfWidth = (z / denominator) * Math.sqrt((share * (1 - share)) / trials + z2 / (4 * trials * trials))
  // At 0 and n successes a bound is exactly 0 or 1; computing it leaves rounding residue of order 1e-17.
  return {
    value: share,
    lower: successes === 0 ? 0 : Math.max(0, centre - halfWidth),
    upper: successes === trials ? 1 : Math.min(1, centre + halfWidth),
    level
  }
}

/**
 * Wilson score interval for a share observed over `units` independent units (for example items, when each item's
 * share averages both display orders): the same formula with the share in place of successes / trials.
 */
export function wilsonIntervalOfShare(share: number, units: number, level = 0.95): IntervalEstimate {
  assertNonNegativeInteger(units, 'units')
  if (!(share >= 0 && share <= 1)) throw new RangeError(`share (${share}) must lie in [0, 1]`)
  const z = normalCriticalValue(level)
  if (units === 0) return { ...undefinedBecause('no units'), lower: null, upper: null, level }
  const z2 = z * z
  const denominator = 1 + z2 / units
  const centre = (share + z2 / (2 * units)) / denominator
  const halfWidth = (z / denominator) * Math.sqrt((share * (1 - share)) / units + z2 / (4 * units * units))
  return { value: share, lower: share === 0 ? 0 : Math.max(0, centre - halfWidth), upper: share === 1 ? 1 : Math.min(1, centre + halfWidth), level }
}
