import { describe, expect, it } from 'vitest'
import { kendallTauB, seededRandom } from '../../../src/shared/stats'
import { KENDALL_DIRECT_MAX_N, kendallTauBFromTable, kendallTauBOrdinal } from '../../../src/shared/report/kendall-table'

function randomOrdinal(n: number, q: number, seed: number): { x: number[]; y: number[] } {
  const random = seededRandom(seed)
  const x: number[] = []
  const y: number[] = []
  for (let i = 0; i < n; i++) {
    const a = random.integerBelow(q)
    // Correlated: y is x moved by at most one step, half the time.
    const b = random.integerBelow(2) === 0 ? a : Math.min(q - 1, Math.max(0, a + random.integerBelow(3) - 1))
    x.push(a)
    y.push(b)
  }
  return { x, y }
}

function table(x: number[], y: number[], q: number): number[][] {
  const t = Array.from({ length: q }, () => new Array<number>(q).fill(0))
  x.forEach((a, i) => (t[a]![y[i]!]! += 1))
  return t
}

describe('Kendall tau-b from the contingency table of an ordinal scale', () => {
  it('equals the pairwise definition, counts and p-value included', () => {
    for (const [n, q, seed] of [[60, 4, 1], [500, 6, 2], [900, 11, 3], [40, 2, 4]] as const) {
      const { x, y } = randomOrdinal(n, q, seed)
      const direct = kendallTauB(x, y)
      const fromTable = kendallTauBFromTable(table(x, y, q))
      expect(fromTable.concordant).toBe(direct.concordant)
      expect(fromTable.discordant).toBe(direct.discordant)
      expect(fromTable.value).toBeCloseTo(direct.value as number, 13)
      expect(fromTable.pValue).toBeCloseTo(direct.pValue as number, 13)
      expect(fromTable.pValueMethod).toBe(direct.pValueMethod)
    }
  })

  it('is undefined, with the same reasons, where the pairwise definition is', () => {
    expect(kendallTauBFromTable([[3, 0], [0, 0]])).toMatchObject({ value: null, reason: 'both sources give every item the same score (zero variance)' })
    expect(kendallTauBFromTable([[2, 1], [0, 0]])).toMatchObject({ value: null, reason: 'the first source gives every item the same score (zero variance)' })
    expect(kendallTauBFromTable([[2, 0], [1, 0]])).toMatchObject({ value: null, reason: 'the second source gives every item the same score (zero variance)' })
    expect(kendallTauBFromTable([[1, 0], [0, 0]])).toMatchObject({ value: null, pValue: null })
  })

  it('uses the pairwise definition up to its size limit and the table beyond', () => {
    const small = randomOrdinal(KENDALL_DIRECT_MAX_N, 5, 9)
    expect(kendallTauBOrdinal(small.x, small.y, 5)).toEqual(kendallTauB(small.x, small.y))
    const large = randomOrdinal(KENDALL_DIRECT_MAX_N + 1, 5, 10)
    const viaTable = kendallTauBOrdinal(large.x, large.y, 5)
    const direct = kendallTauB(large.x, large.y)
    expect(viaTable.value).toBeCloseTo(direct.value as number, 13)
    expect(viaTable.pValue).toBeCloseTo(direct.pValue as number, 13)
  })
})
