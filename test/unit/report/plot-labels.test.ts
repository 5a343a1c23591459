import { describe, expect, it } from 'vitest'
import { truncate } from '../../../src/shared/report/plots/svg'

// Plot labels are cut to a width; two fits of one run differed only in what the cut took away.
describe('a plot label cut to its width', () => {
  it('keeps the first and last parts of a source name, so fits of one judge stay apart', () => {
    const five = truncate('gpt-4o · run 16 · threshold ≥ 0.92 (balanced accuracy) · fit 5')
    const eight = truncate('gpt-4o · run 16 · threshold ≥ 0.92 (balanced accuracy) · fit 8')
    expect(five.length).toBeLessThanOrEqual(42)
    expect(five).toMatch(/^gpt-4o · run 16 · … · fit 5$/)
    expect(eight).toMatch(/ · fit 8$/)
    expect(five).not.toBe(eight)
  })

  it('leaves a short label alone and cuts one of no parts at its end', () => {
    expect(truncate('gpt-4o · run 16')).toBe('gpt-4o · run 16')
    expect(truncate('a'.repeat(50), 10)).toBe(`${'a'.repeat(9)}…`)
  })
})
