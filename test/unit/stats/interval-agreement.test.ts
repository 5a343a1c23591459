import { describe, expect, it } from 'vitest'
import { meanAbsoluteDifference, pearson } from '../../../src/shared/stats'

describe('mean absolute difference', () => {
  it('averages |x − y| (hand-worked: (1 + 0 + 2) / 3)', () => {
    expect(meanAbsoluteDifference([1, 2, 3], [2, 2, 5]).value).toBe(1)
  })

  it('is undefined without items and rejects non-numbers', () => {
    expect(meanAbsoluteDifference([], [])).toEqual({ value: null, reason: 'no items scored by both sources' })
    expect(() => meanAbsoluteDifference([1, NaN], [1, 2])).toThrow(/finite/)
  })
})

describe('Pearson correlation', () => {
  it('reproduces scipy.stats.pearsonr', () => {
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]).value).toBeCloseTo(0.7745966692414835, 12)
  })

  it('is exactly ±1 on lines', () => {
    expect(pearson([0.1, 0.2, 0.3], [0.3, 0.5, 0.7]).value).toBe(1)
    expect(pearson([1, 2, 3], [3, 2, 1]).value).toBe(-1)
  })

  it('is undefined with zero variance or fewer than two items', () => {
    expect(pearson([1, 2, 3], [4, 4, 4])).toEqual({ value: null, reason: 'the second source gives every item the same score (zero variance)' })
    expect(pearson([2, 2, 2], [4, 4, 4]).reason).toMatch(/both sources/)
    expect(pearson([1], [1]).reason).toMatch(/too few items/)
    // Two points lie on a line: ±1 says nothing, so it is not given.
    expect(pearson([1, 2], [5, 3])).toEqual({ value: null, reason: expect.stringMatching(/needs at least 3 .*±1 by construction/) })
  })
})
