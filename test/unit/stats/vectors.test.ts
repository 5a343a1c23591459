import { describe, expect, it } from 'vitest'
import { pairsFromTable, pythonList, vectors } from './vectors'

describe('test helpers', () => {
  it('finds the reference vectors beside the repository', () => {
    expect(vectors.kendall_no_ties.p_exact).toBe(0.7726190476190476)
  })

  it('expands Python list expressions', () => {
    expect(pythonList('[0]*2+[1]*3')).toEqual([0, 0, 1, 1, 1])
    expect(pythonList('[2, 3]*2+[4]')).toEqual([2, 3, 2, 3, 4])
    expect(pythonList('[0]*40+[1]*60')).toHaveLength(100)
    expect(() => pythonList('range(3)')).toThrow()
  })

  it('expands a contingency table into paired labels', () => {
    expect(pairsFromTable([[1, 2], [0, 1]])).toEqual({ first: [0, 0, 0, 1], second: [0, 1, 1, 1] })
  })
})
