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
