import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf'
import { assertNonNegativeInteger } from './input-checks'
import type { Estimate } from './types'

export type McNemarExact = Estimate & {
  /** min(b, c), the smaller discordant count. */
  statistic: number
  /** b + c. */
  discordant: number
  /** Present when the p-value is fixed by convention rather than computed. */
  note?: string
}

/**
 * Exact (binomial) McNemar test, two-sided: p = min(1, 2·BinomCDF(min(b, c); b + c, ½)); value is the p-value.
 * b and c are the discordant counts, e.g. of [[a, b], [c, d]] = [[both right, only first right], [only second right, both wrong]].
 */
export function mcnemarExact(onlyFirst: number, onlySecond: number): McNemarExact {
  assertNonNegativeInteger(onlyFirst, 'McNemar discordant count b')
  assertNonNegativeInteger(onlySecond, 'McNemar discordant count c')
  const statistic = Math.min(onlyFirst, onlySecond)
  const discordant = onlyFirst + onlySecond
  if (discordant === 0) {
    return { value: 1, statistic, discordant, note: 'no discordant pairs (b + c = 0): p = 1 by definition, the test has no evidence either way' }
  }
  return { value: Math.min(1, 2 * binomialCdf(statistic, discordant, 0.5)), statistic, discordant }
}

/** Exact McNemar test from a 2×2 table [[a, b], [c, d]]. */
export function mcnemarExactFromTable(table: readonly [readonly [number, number], readonly [number, number]]): McNemarExact {
  return mcnemarExact(table[0][1], table[1][0])
}

/**
 * McNemar mid-p (Fagerland, Lydersen & Laake 2013): 2·[P(X ≤ m) − ½·P(X = m)] = 2·F(m) − P(X = m) for
 * X ~ Binomial(b + c, ½) and m = min(b, c), i.e. the exact two-sided p less the probability of the observed count;
 * capped at 1 (it is exactly 1 when b = c). Less conservative than the exact test, with close to nominal size.
 */
export function mcnemarMidP(onlyFirst: number, onlySecond: number): McNemarExact {
  const exact = mcnemarExact(onlyFirst, onlySecond)
  if (exact.discordant === 0) return exact
  const m = exact.statistic
  const n = exact.discordant
  const pmf = binomialCdf(m, n, 0.5) - (m === 0 ? 0 : binomialCdf(m - 1, n, 0.5))
  return { value: Math.min(1, 2 * binomialCdf(m, n, 0.5) - pmf), statistic: m, discordant: n }
}
