import { describe, expect, it } from 'vitest'
import { majorityLabelBaseline, majorityOfCounts, spearman, spearmanOfPositions } from '../../../src/shared/stats'
import { seededRandom } from '../../../src/shared/stats'

// The forms the audit's tables use when they have counted the categories already: each must give the very value
// of the form that reads the units (the goldens hold full precision), so they are compared with toBe.

/** Category positions 0..q−1 of n units, with counts per position (heavy ties, as ratings have). */
function positions(n: number, q: number, seed: number): { values: number[]; counts: number[] } {
  const random = seededRandom(seed)
  // Skewed towards the low end: the smaller of two draws.
  const values = Array.from({ length: n }, () => Math.min(random.integerBelow(q), random.integerBelow(q)))
  const counts = new Array<number>(q).fill(0)
  for (const v of values) counts[v] = (counts[v] as number) + 1
  return { values, counts }
}

describe('Spearman from category counts', () => {
  it('equals spearman bit for bit on tied ordinal data of several sizes and scales', () => {
    for (const [n, q, seed] of [[20, 3, 1], [500, 5, 2], [20_000, 5, 3], [1_001, 7, 4]] as const) {
      const first = positions(n, q, seed)
      const second = positions(n, q, seed + 100)
      const counted = spearmanOfPositions(first.values, second.values, first.counts, second.counts)
      expect(counted.value).not.toBeNull()
      expect(counted.value).toBe(spearman(first.values, second.values).value)
    }
  })

  it('reproduces the scipy.stats.spearmanr case with ties', () => {
    // The positions of [1, 2, 2, 3, 4, 4, 5, 6] and [2, 1, 3, 3, 5, 4, 4, 6] on the scale 1..6.
    const a = [0, 1, 1, 2, 3, 3, 4, 5]
    const b = [1, 0, 2, 2, 4, 3, 3, 5]
    const count = (xs: number[]) => [0, 1, 2, 3, 4, 5].map((k) => xs.filter((x) => x === k).length)
    expect(spearmanOfPositions(a, b, count(a), count(b)).value).toBeCloseTo(0.8902439024390245, 12)
  })

  it('gives the undefined reasons of spearman (no variance) and refuses counts that do not add up', () => {
    expect(spearmanOfPositions([1, 1, 1], [0, 1, 2], [0, 3, 0], [1, 1, 1])).toEqual(spearman([1, 1, 1], [0, 1, 2]))
    expect(() => spearmanOfPositions([0, 1], [0, 1], [1, 2], [1, 1])).toThrow(/add to 3, not 2/)
  })
})

describe('majority baseline from counts', () => {
  it('equals majorityLabelBaseline over the labels counted, ties and order of majority included', () => {
    const labels = ['2', '0', '2', '1', '0', '2', '0']
    expect(majorityOfCounts({ 2: 3, 0: 3, 1: 1 })).toEqual(majorityLabelBaseline(labels))
    expect(majorityOfCounts({ human: 57, ai: 18 })).toMatchObject({ value: 0.76, majority: ['human'], total: 75 })
  })

  it('is undefined with nothing counted', () => {
    expect(majorityOfCounts({})).toEqual(majorityLabelBaseline([]))
    expect(majorityOfCounts({}).value).toBeNull()
  })
})
