import { describe, expect, it } from 'vitest'
import { krippendorffAlpha, type MeasurementLevel } from '../../../src/shared/stats'
import { TOLERANCE, vectors } from './vectors'

const reference = vectors.krippendorff_2011
const levels: MeasurementLevel[] = ['nominal', 'ordinal', 'interval', 'ratio']

describe("Krippendorff's alpha", () => {
  it.each(levels)('reproduces Krippendorff (2011) at the %s level', (level) => {
    const result = krippendorffAlpha(reference.data_observers_by_units, level)
    expect(Math.abs((result.value ?? NaN) - reference.expected[level])).toBeLessThan(TOLERANCE)
    // Unit 12 has a single value and cannot be paired; the other 11 units hold 40 pairable values.
    expect(result).toMatchObject({ level, unitsUsed: 11, unitsDropped: 1, pairableValues: 40 })
  })

  it('orders non-numeric ordinal labels by the declared domain; unused scale points do not change it', () => {
    const labelled = reference.data_observers_by_units.map((row) => row.map((value) => (value === null ? null : `v${value}`)))
    const domain = ['v1', 'v2', 'v3', 'v4', 'v5']
    expect(krippendorffAlpha(labelled, 'ordinal', { domain }).value).toBeCloseTo(reference.expected.ordinal, 12)
    expect(krippendorffAlpha(labelled, 'ordinal', { domain: ['v0', ...domain, 'v6'] }).value).toBeCloseTo(reference.expected.ordinal, 12)
    expect(krippendorffAlpha(labelled, 'nominal').value).toBeCloseTo(reference.expected.nominal, 12)
  })

  it('matches a hand-worked nominal case: 1 − (n − 1)·ΣoΔ / Σn_c·n_kΔ = 1 − 5·2/18', () => {
    const data = [
      ['a', 'a', 'b'],
      ['a', 'b', 'b']
    ]
    expect(krippendorffAlpha(data, 'nominal').value).toBeCloseTo(4 / 9, 12)
  })

  it('gives 0 for a single unit with two different values', () => {
    expect(krippendorffAlpha([[1], [2]], 'interval').value).toBeCloseTo(0, 12)
  })

  it('is undefined without variation or without pairable units', () => {
    expect(krippendorffAlpha([[3, 3], [3, 3]], 'interval')).toMatchObject({
      value: null,
      reason: 'all pairable values are the same: expected disagreement is 0'
    })
    expect(krippendorffAlpha([[1, null], [null, 2]], 'nominal')).toMatchObject({
      value: null,
      reason: 'no unit has values from at least 2 observers',
      unitsDropped: 2
    })
  })

  it('rejects data that do not fit the level', () => {
    expect(() => krippendorffAlpha([['a', 'b'], ['b', 'a']], 'interval')).toThrow(/finite numbers/)
    expect(() => krippendorffAlpha([['a', 'b'], ['b', 'a']], 'ordinal')).toThrow(/declare the ordered domain/)
    expect(() => krippendorffAlpha([[-1, 2], [2, 2]], 'ratio')).toThrow(/negative/)
    expect(() => krippendorffAlpha([[1, 2], [2]], 'nominal')).toThrow(/units/)
  })
})
