import { describe, expect, it } from 'vitest'
import { distinctCount } from '../../../src/shared/report/compare-units'

describe('distinctCount', () => {
  it('counts the distinct ids of two lists, as a set of both would', () => {
    const cases: Array<[number[], number[]]> = [
      [[], []],
      [[1, 2, 2, 3], [3, 4]],
      [[0, 0, 0], [0]],
      // Sparse ids (a set), ids that are not whole numbers from 0 (a set), and dense ones (marked in place).
      [[5_000_000, 7, 5_000_000], [9]],
      [[-1, 2, -1], [2.5, 2]],
      [Array.from({ length: 500 }, (_, i) => (i * 7) % 300), Array.from({ length: 200 }, (_, i) => 250 + i)]
    ]
    for (const [a, b] of cases) expect(distinctCount(a, b), `${a.slice(0, 5)} | ${b.slice(0, 5)}`).toBe(new Set([...a, ...b]).size)
  })
})
