import { describe, expect, it } from 'vitest'
import { averageRanks } from '../../../src/shared/stats/ranks'

/** The textbook definition: a value's rank is 1 + the values below it + half the other values equal to it. */
function referenceRanks(values: readonly number[]): number[] {
  return values.map((v) => {
    const below = values.filter((w) => w < v).length
    const equal = values.filter((w) => w === v).length
    return below + (equal + 1) / 2
  })
}

describe('averageRanks', () => {
  it('gives tied values the average of the ranks they span', () => {
    expect(averageRanks([3, 1, 4, 1, 5, 9, 2, 6, 5])).toEqual([4, 1.5, 5, 1.5, 6.5, 9, 3, 8, 6.5])
    expect(averageRanks([])).toEqual([])
    expect(averageRanks([0, -0, 2])).toEqual([1.5, 1.5, 3])
  })

  it('matches the definition on many values with few distinct ones, as ordinal answers are', () => {
    let state = 11
    const values = Array.from({ length: 2_000 }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return (state % 7) - 3 + (state % 3) / 2
    })
    expect(averageRanks(values)).toEqual(referenceRanks(values))
  })
})
