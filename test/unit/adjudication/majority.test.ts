import { describe, expect, it } from 'vitest'
import { majorityLabel } from '../../../src/main/adjudication/majority'
import { getInstrument } from '../../../src/shared/instruments'

describe('the exported human majority of a pass read from points', () => {
  it('is read from the mean points, as the report reads it, not a vote of the passes', () => {
    // Two of three graders fail the response (6.5), one passes it (9.5): the mean, 7.5, passes.
    const answers = [6.5, 6.5, 9.5].map((total, i) => ({ id: `a${i}`, judgement: { total }, createdAt: null }))
    const result = majorityLabel(getInstrument('fs-research-grade'), answers, { track: 'research' })
    expect(result.majority).toBe('decided')
    expect(result.values).toEqual({ response: { passed: true } })
    // One answer of three passes it itself.
    expect(result.nAgreeing).toBe(1)
  })
})

describe('a pass read from a mean of tenths', () => {
  it('does not hang on the order the points are added in, nor on their rounding', () => {
    const pass = (totals: number[]) =>
      majorityLabel(getInstrument('fs-research-grade'), totals.map((total, i) => ({ id: `a${i}`, judgement: { total }, createdAt: null })), { track: 'research' }).values?.response?.passed
    // 1.7 + 9.6 + 9.7 is 21 or 20.999… by the order of adding; 6.6, 9.7 and 4.7 average to 7 exactly.
    expect([pass([1.7, 9.6, 9.7]), pass([9.7, 9.6, 1.7]), pass([9.6, 1.7, 9.7]), pass([6.6, 9.7, 4.7])]).toEqual([true, true, true, true])
    expect(pass([6.9, 6.9, 7.1])).toBe(false)
  })
})
