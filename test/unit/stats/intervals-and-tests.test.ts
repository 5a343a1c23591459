import { describe, expect, it } from 'vitest'
import { agreementWeights, cohenKappaFromCounts, cohenKappaFromTable, mcnemarExact, mcnemarExactFromTable, normalCriticalValue, quantileType7, wilsonInterval } from '../../../src/shared/stats'
import { TOLERANCE, vectors } from './vectors'

describe('Wilson score interval', () => {
  it('takes z from the normal quantile', () => {
    expect(normalCriticalValue(0.95)).toBeCloseTo(1.959963984540054, 12)
  })

  it.each(vectors.wilson_95.cases)('reproduces R binom.confint for %i of %i', (successes, trials, lower, upper) => {
    const result = wilsonInterval(successes, trials)
    expect(result.value).toBe(successes / trials)
    expect(Math.abs((result.lower ?? NaN) - lower)).toBeLessThan(TOLERANCE)
    expect(Math.abs((result.upper ?? NaN) - upper)).toBeLessThan(TOLERANCE)
    expect(result.level).toBe(0.95)
  })

  it('stays within [0, 1] at the extremes and is undefined without trials', () => {
    // With no successes the lower bound is 0 and the upper bound z²/(n + z²).
    const none = wilsonInterval(0, 10)
    const z2 = 1.959963984540054 ** 2
    expect(none.lower).toBe(0)
    expect(none.upper).toBeCloseTo(z2 / (10 + z2), 12)
    expect(wilsonInterval(10, 10).upper).toBe(1)
    expect(wilsonInterval(0, 0)).toEqual({ value: null, lower: null, upper: null, reason: 'no trials', level: 0.95 })
    expect(() => wilsonInterval(3, 2)).toThrow(/exceed/)
    expect(() => wilsonInterval(1, 2, 1)).toThrow(/level/)
  })
})

describe('exact McNemar test', () => {
  it.each(vectors.mcnemar_exact.cases)('reproduces statsmodels on %j', (table, statistic, pValue) => {
    const result = mcnemarExactFromTable(table)
    expect(result.statistic).toBe(statistic)
    expect(Math.abs((result.value ?? NaN) - pValue)).toBeLessThan(TOLERANCE)
    // The p-values are small; check them relatively too.
    expect((result.value ?? NaN) / pValue).toBeCloseTo(1, 8)
  })

  it('is 2·P(X ≤ min(b, c)) capped at 1 (hand-worked: b = 0, c = 3 → 2/8)', () => {
    expect(mcnemarExact(0, 3).value).toBeCloseTo(0.25, 14)
    expect(mcnemarExact(2, 2).value).toBe(1)
  })

  it('defines p = 1 when there are no discordant pairs, and says so', () => {
    const result = mcnemarExact(0, 0)
    expect(result).toMatchObject({ value: 1, statistic: 0, discordant: 0 })
    expect(result.note).toMatch(/no discordant pairs/)
  })
})

describe('type-7 quantile', () => {
  it('reproduces the percentile rule on replicates 1..100', () => {
    const replicates = Array.from({ length: 100 }, (_, i) => 100 - i)
    const [lower, upper] = vectors.bootstrap_percentile_quantile_rule['type7_2.5_97.5']
    expect(quantileType7(replicates, 0.025).value).toBeCloseTo(lower, 12)
    expect(quantileType7(replicates, 0.975).value).toBeCloseTo(upper, 12)
  })

  it('handles the ends, a single value, and no values', () => {
    expect(quantileType7([3, 1, 2], 0).value).toBe(1)
    expect(quantileType7([3, 1, 2], 1).value).toBe(3)
    expect(quantileType7([3, 1, 2], 0.25).value).toBe(1.5)
    expect(quantileType7([7], 0.9).value).toBe(7)
    expect(quantileType7([], 0.5)).toEqual({ value: null, reason: 'no values' })
    expect(() => quantileType7([1], 1.5)).toThrow(/\[0, 1\]/)
  })
})

describe("Cohen's kappa from a flat table of counts", () => {
  it('gives cohenKappaFromTable bit for bit, weighted or not, and the same reasons where it is undefined', () => {
    let state = 5
    const next = (bound: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return state % bound
    }
    for (let round = 0; round < 600; round++) {
      const q = 1 + next(5)
      const sparse = round % 4 === 0
      const flat = Array.from({ length: q * q }, () => (sparse && next(3) > 0 ? 0 : next(round % 2 ? 9 : 4000)))
      const table = Array.from({ length: q }, (_, r) => flat.slice(r * q, r * q + q))
      for (const weighting of ['identity', 'linear', 'quadratic'] as const) {
        if (q === 1 && weighting !== 'identity') continue
        expect(cohenKappaFromCounts(Float64Array.from(flat), q, agreementWeights(q, weighting))).toEqual(cohenKappaFromTable(table, weighting))
      }
    }
  })
})
