import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf'
import { assertLevel, assertNonNegativeInteger } from './input-checks'
import { undefinedBecause, type IntervalEstimate } from './types'

/**
 * Clopper–Pearson ("exact") interval of a binomial proportion: [Beta⁻¹(α/2; k, n−k+1), Beta⁻¹(1−α/2; k+1, n−k)],
 * 0 at k = 0 and 1 at k = n (statsmodels `proportion_confint(method="beta")`). The beta quantiles are found as the
 * p where the binomial tail reaches α/2, by bisection on the binomial CDF (the same regularised incomplete beta).
 */
export function clopperPearsonInterval(successes: number, trials: number, level = 0.95): IntervalEstimate {
  assertNonNegativeInteger(successes, 'successes')
  assertNonNegativeInteger(trials, 'trials')
  assertLevel(level)
  if (successes > trials) throw new RangeError(`successes (${successes}) exceed trials (${trials})`)
  if (trials === 0) return { ...undefinedBecause('no trials'), lower: null, upper: null, level }
  const tail = (1 - level) / 2
  // P(X ≥ k; p) = 1 − F(k − 1; p) rises with p: the lower end is where it reaches α/2.
  const lower = successes === 0 ? 0 : solve((p) => 1 - binomialCdf(successes - 1, trials, p) - tail)
  // P(X ≤ k; p) = F(k; p) falls with p: the upper end is where it falls to α/2.
  const upper = successes === trials ? 1 : solve((p) => tail - binomialCdf(successes, trials, p))
  return { value: successes / trials, lower, upper, level }
}

/** The root in (0, 1) of an increasing function, to double precision. */
function solve(f: (p: number) => number): number {
  let lo = 0
  let hi = 1
  for (let i = 0; i < 200 && hi - lo > 1e-16; i++) {
    const mid = (lo + hi) / 2
    if (f(mid) < 0) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}
