import { describe, expect, it } from 'vitest'
import { exactKendallPValue, kendallTauB, spearman, weightedKappa } from '../../../src/shared/stats'
import { pythonList, TOLERANCE, vectors } from './vectors'

// Anxiety ratings of raters 2 and 3 (R irr, used in statsmodels test_inter_rater.py); nobody used 5 on the 1..6 scale.
const anxietyRater2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4]
const anxietyRater3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]

describe('weighted kappa over a declared scale', () => {
  const sklearnCase = vectors.sklearn_cohen_kappa.cases.find((vector) => vector.linear !== undefined)

  it('reproduces scikit-learn linear and quadratic weights', () => {
    if (!sklearnCase?.linear || !sklearnCase.quadratic) throw new Error('vector with weights missing')
    const first = pythonList(sklearnCase.y1)
    const second = pythonList(sklearnCase.y2)
    expect(Math.abs((weightedKappa(first, second, [0, 1, 2], 'linear').value ?? NaN) - sklearnCase.linear)).toBeLessThan(TOLERANCE)
    expect(Math.abs((weightedKappa(first, second, [0, 1, 2], 'quadratic').value ?? NaN) - sklearnCase.quadratic)).toBeLessThan(TOLERANCE)
  })

  it('reproduces R irr when given the scale irr infers (levels seen: 1, 2, 3, 4, 6)', () => {
    expect(weightedKappa(anxietyRater2, anxietyRater3, [1, 2, 3, 4, 6], 'linear').value).toBeCloseTo(0.1459075, 6)
    expect(weightedKappa(anxietyRater2, anxietyRater3, [1, 2, 3, 4, 6], 'quadratic').value).toBeCloseTo(0.2520325, 6)
  })

  it('weights by the full declared scale 1..6, where the unused 5 still separates 4 from 6', () => {
    const scale = [1, 2, 3, 4, 5, 6]
    expect(weightedKappa(anxietyRater2, anxietyRater3, scale, 'linear').value).toBeCloseTo(0.12621359223300954, 10)
    expect(weightedKappa(anxietyRater2, anxietyRater3, scale, 'quadratic').value).toBeCloseTo(0.22979797979797978, 10)
  })

  it('is undefined when both sources use one scale point', () => {
    expect(weightedKappa([3, 3], [3, 3], [0, 1, 2, 3, 4, 5], 'quadratic').value).toBeNull()
  })
})

describe('Spearman correlation', () => {
  it('uses average ranks for ties (scipy.stats.spearmanr)', () => {
    expect(spearman([1, 2, 2, 3, 4, 4, 5, 6], [2, 1, 3, 3, 5, 4, 4, 6]).value).toBeCloseTo(0.8902439024390245, 12)
  })

  it('is ±1 for monotone relations and undefined for constant or tiny inputs', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 40, 80]).value).toBeCloseTo(1, 12)
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1]).value).toBeCloseTo(-1, 12)
    expect(spearman([1, 2, 3], [5, 5, 5]).reason).toMatch(/zero variance/)
    expect(spearman([1], [2]).reason).toMatch(/too few items/)
  })
})

describe("Kendall's tau-b", () => {
  it('reproduces the reference tau and exact p-value without ties', () => {
    const { x, y, tau, p_exact } = vectors.kendall_no_ties
    const result = kendallTauB(x, y)
    expect(Math.abs((result.value ?? NaN) - tau)).toBeLessThan(TOLERANCE)
    expect(Math.abs((result.pValue ?? NaN) - p_exact)).toBeLessThan(TOLERANCE)
    expect(result).toMatchObject({ n: 7, concordant: 9, discordant: 12, pValueMethod: 'exact' })
  })

  it('builds the exact distribution from Mahonian numbers (n = 7: 1947 of 5040 permutations have ≤ 9 inversions)', () => {
    expect(exactKendallPValue(7, 9)).toBeCloseTo((2 * 1947) / 5040, 14)
    expect(exactKendallPValue(4, 0)).toBeCloseTo(2 / 24, 14)
    expect(exactKendallPValue(2, 0)).toBe(1)
    expect(exactKendallPValue(5, 5)).toBe(1)
  })

  it('uses the tie-corrected normal approximation with ties (scipy.stats.kendalltau)', () => {
    const result = kendallTauB([1, 2, 2, 3, 4, 4, 5, 6], [2, 1, 3, 3, 5, 4, 4, 6])
    expect(result.value).toBeCloseTo(0.7692307692307694, 12)
    expect(result.pValue).toBeCloseTo(0.010747577580460075, 12)
    expect(result.pValueMethod).toBe('normal-approximation')
  })

  it('uses the normal approximation above n = 33 (scipy.stats.kendalltau)', () => {
    const permutation = [4, 0, 28, 20, 30, 10, 12, 32, 19, 9, 14, 22, 27, 38, 3, 24, 39, 26, 13, 17, 18, 36, 35, 37, 8, 7, 1, 33, 15, 29, 6, 16, 23, 25, 5, 2, 31, 34, 21, 11]
    const result = kendallTauB(permutation.map((_, i) => i), permutation)
    expect(result.value).toBeCloseTo(0.01794871794871795, 12)
    expect(result.pValue).toBeCloseTo(0.8704282960625428, 10)
    expect(result.pValueMethod).toBe('normal-approximation')
  })

  it('is undefined, with no p-value, for constant sources or fewer than two items', () => {
    expect(kendallTauB([1, 2, 3], [7, 7, 7])).toMatchObject({ value: null, pValue: null, pValueMethod: null, reason: expect.stringMatching(/second source/) })
    expect(kendallTauB([1], [1])).toMatchObject({ value: null, pValue: null })
  })
})
