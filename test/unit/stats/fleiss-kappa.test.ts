import { describe, expect, it } from 'vitest'
import { fleissKappa, fleissKappaFromCounts, scottPiOfPositions } from '../../../src/shared/stats'
import { TOLERANCE, vectors } from './vectors'

// Fleiss (1971) psychiatric diagnoses: 30 patients × 6 raters, categories 1..5 (statsmodels test_inter_rater.py).
const diagnoses = [
  [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
  [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
  [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
  [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
  [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
  [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5]
]

describe("Fleiss' kappa", () => {
  it('reproduces the Wikipedia example (statsmodels)', () => {
    const result = fleissKappaFromCounts(vectors.fleiss_wikipedia.counts)
    expect(Math.abs((result.value ?? NaN) - vectors.fleiss_wikipedia.expected)).toBeLessThan(TOLERANCE)
    expect(result).toMatchObject({ itemsUsed: 10, itemsDropped: 0 })
  })

  it('reproduces Fleiss (1971) from raw ratings: 0.4302445 (R irr kappam.fleiss)', () => {
    expect(Math.abs((fleissKappa(diagnoses, [1, 2, 3, 4, 5]).value ?? NaN) - 0.4302445)).toBeLessThan(1e-7)
  })

  it('handles missing raters as irrCAC does (hand-worked)', () => {
    // Observed agreement over items with ≥ 2 ratings: P = 1, 0, 1 → 2/3. Category shares over every rated item
    // (the single-rated one too): (1 + 0.5 + 0 + 1)/4 and (0 + 0.5 + 1 + 0)/4 → expected 0.625² + 0.375² = 17/32;
    // kappa = (2/3 − 17/32) / (15/32) = 13/45.
    const ratings = [
      ['x', 'x', null],
      ['x', 'y', null],
      ['y', 'y', 'y'],
      ['x', null, null],
      [null, null, null]
    ]
    expect(fleissKappa(ratings, ['x', 'y'])).toMatchObject({ value: expect.closeTo(13 / 45, 12), itemsUsed: 3, itemsDropped: 2 })
    expect(fleissKappaFromCounts([[2, 0], [1, 1], [0, 3], [1, 0]])).toMatchObject({ value: expect.closeTo(13 / 45, 12), itemsDropped: 1 })
  })

  it('is undefined when every rating is in one category, or no item has two ratings', () => {
    expect(fleissKappa([['x', 'x'], ['x', 'x', 'x']], ['x', 'y'])).toMatchObject({
      value: null,
      reason: 'expected agreement is 1 (every rating is in a single category)',
      itemsUsed: 2,
      itemsDropped: 0
    })
    expect(fleissKappa([['x', null], [null, 'y']], ['x', 'y'])).toMatchObject({
      value: null,
      reason: 'no item has at least 2 ratings',
      itemsUsed: 0,
      itemsDropped: 2
    })
  })

  it('rejects ragged count tables, fractional counts and undeclared labels', () => {
    expect(() => fleissKappaFromCounts([[1, 1], [2]])).toThrow(/category counts/)
    expect(() => fleissKappaFromCounts([[1.5, 1]])).toThrow(/integer/)
    expect(() => fleissKappa([['x', 'z']], ['x', 'y'])).toThrow(/declared/)
  })
})

describe("Scott's pi of two raters by category position", () => {
  it('gives fleissKappa over the two ratings of each unit, figure for figure', () => {
    let state = 9
    const next = (bound: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return state % bound
    }
    for (let round = 0; round < 500; round++) {
      const q = 1 + next(5)
      const units = next(round % 5 === 0 ? 3 : 300)
      const first = Array.from({ length: units }, () => next(q))
      const second = first.map((v) => (next(3) === 0 ? next(q) : v))
      const scale = Array.from({ length: q }, (_, k) => k)
      expect(scottPiOfPositions(first, second, q)).toEqual(fleissKappa(first.map((v, i) => [v, second[i] as number]), scale))
    }
    expect(() => scottPiOfPositions([0, 3], [1, 1], 3)).toThrow(/outside/)
  })
})
