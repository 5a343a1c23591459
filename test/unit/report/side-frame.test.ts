import { describe, expect, it } from 'vitest'
import { sideFrameNote } from '../../../src/shared/report/side-frame'

describe('the side frame of the report', () => {
  it('is stated beside fields whose scale names pair sides, and only there', () => {
    expect(sideFrameNote(['a_much_better', 'a_better', 'b_better', 'b_much_better'])).toContain('canonical A/B')
    expect(sideFrameNote(['a', 'b'])).toContain('canonical A/B')
    expect(sideFrameNote([1, 2, 3, 4, 5])).toBe('')
    expect(sideFrameNote(['none', 'minor', 'major', 'fatal'])).toBe('')
    expect(sideFrameNote(null)).toBe('')
  })
})
