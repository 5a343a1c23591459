import { describe, expect, it } from 'vitest'
import { intervalAlphaOfSums } from '../../../src/shared/report/compare'
import { krippendorffAlpha } from '../../../src/shared/stats'

// The bootstrap of interval α sums four terms per unit; on the units as given it must be the α the tables report.
function sums(a: readonly number[], b: readonly number[]) {
  let d = 0
  let t = 0
  let q = 0
  a.forEach((x, i) => {
    const y = b[i] as number
    d += (x - y) ** 2
    t += x + y
    q += x * x + y * y
  })
  return intervalAlphaOfSums(d, t, q, 2 * a.length)
}

describe('interval α from sums', () => {
  it('equals Krippendorff’s α at the interval level for two observers with a value on every unit', () => {
    let state = 11
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32)
    for (const n of [2, 3, 7, 40, 250]) {
      const a = Array.from({ length: n }, () => Math.round(random() * 100) / 10)
      const b = a.map((x) => x + Math.round((random() - 0.5) * 40) / 10)
      const reference = krippendorffAlpha([a, b], 'interval')
      expect(reference.value).not.toBeNull()
      expect(sums(a, b).value).toBeCloseTo(reference.value as number, 12)
    }
    // Krippendorff (2011)'s worked interval example restricted to two coders: the same figure both ways.
    const coderA = [1, 2, 3, 3, 2, 1, 4, 1, 2]
    const coderB = [1, 2, 3, 3, 2, 2, 4, 1, 2]
    expect(sums(coderA, coderB).value).toBeCloseTo(krippendorffAlpha([coderA, coderB], 'interval').value as number, 12)
  })

  it('is undefined, with krippendorffAlpha’s reason, where every value is the same or nothing is paired', () => {
    expect(sums([0.4, 0.4], [0.4, 0.4])).toEqual({ value: null, reason: 'all pairable values are the same: expected disagreement is 0' })
    expect(krippendorffAlpha([[0.4, 0.4], [0.4, 0.4]], 'interval').reason).toBe('all pairable values are the same: expected disagreement is 0')
    expect(intervalAlphaOfSums(0, 0, 0, 0)).toEqual({ value: null, reason: 'no unit has values from at least 2 observers' })
  })
})
