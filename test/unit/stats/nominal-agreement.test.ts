import { describe, expect, it } from 'vitest'
import {
  accuracy,
  cohenKappa,
  cohenKappaFromTable,
  confusionMatrix,
  gwetAc1,
  gwetAc2,
  gwetFromTable,
  percentAgreement,
  percentAgreementFromTable
} from '../../../src/shared/stats'
import { pairsFromTable, pythonList, TOLERANCE, vectors } from './vectors'

const abstractors = vectors.two_rater_table_abstractors

describe('percent agreement and accuracy', () => {
  it('is the share of items with the same label', () => {
    expect(percentAgreement(['a', 'b', 'a'], ['a', 'a', 'a']).value).toBeCloseTo(2 / 3, 12)
    expect(accuracy([true, false, true, true], [true, true, true, false]).value).toBe(0.5)
    expect(percentAgreementFromTable(abstractors.table).value).toBeCloseTo(89 / 100, 12)
  })

  it('is undefined without items and rejects unpaired inputs', () => {
    expect(percentAgreement([], [])).toEqual({ value: null, reason: 'no items rated by both sources' })
    expect(percentAgreementFromTable([[0, 0], [0, 0]]).value).toBeNull()
    expect(() => percentAgreement(['a'], ['a', 'b'])).toThrow(/same items/)
  })
})

describe("Cohen's kappa", () => {
  it.each(vectors.sklearn_cohen_kappa.cases)('reproduces scikit-learn on $y1 vs $y2', (vector) => {
    expect(cohenKappa(pythonList(vector.y1), pythonList(vector.y2)).value).toBeCloseTo(vector.kappa, 6)
  })

  it('reproduces irrCAC on the abstractors table', () => {
    expect(Math.abs((cohenKappaFromTable(abstractors.table).value ?? NaN) - abstractors.expected.cohen)).toBeLessThan(TOLERANCE)
    expect(Math.abs((cohenKappaFromTable(abstractors.table, 'linear').value ?? NaN) - abstractors.expected.cohen_linear)).toBeLessThan(TOLERANCE)
    expect(Math.abs((cohenKappaFromTable(abstractors.table, 'quadratic').value ?? NaN) - abstractors.expected.cohen_quadratic)).toBeLessThan(TOLERANCE)
  })

  it('agrees between labels and table', () => {
    const { first, second } = pairsFromTable(abstractors.table)
    expect(cohenKappa(first, second, [0, 1, 2]).value).toBeCloseTo(abstractors.expected.cohen, 12)
  })

  it('matches a hand-worked 2×2 table: po = 0.7, pe = 0.5 → 0.4', () => {
    expect(cohenKappaFromTable([[20, 5], [10, 15]]).value).toBeCloseTo(0.4, 12)
  })

  it('is undefined, not 1, when both sources use a single category', () => {
    expect(cohenKappa(['yes', 'yes', 'yes'], ['yes', 'yes', 'yes'], ['yes', 'no'])).toEqual({
      value: null,
      reason: 'expected agreement is 1 (a single category in both sources)'
    })
    expect(cohenKappaFromTable([[0, 0], [0, 0]])).toEqual({ value: null, reason: 'no items rated by both sources' })
  })

  it('rejects malformed tables and undeclared labels', () => {
    expect(() => cohenKappaFromTable([[1, 2], [3]])).toThrow(/square/)
    expect(() => cohenKappaFromTable([[1, -2], [3, 4]])).toThrow(/non-negative/)
    expect(() => cohenKappa(['a', 'c'], ['a', 'a'], ['a', 'b'])).toThrow(/not one of the declared categories/)
  })
})

describe("Gwet's AC1 and AC2", () => {
  it('reproduces irrCAC on the abstractors table', () => {
    expect(Math.abs((gwetFromTable(abstractors.table).value ?? NaN) - abstractors.expected.gwet_ac1)).toBeLessThan(TOLERANCE)
    // The reference gives AC2 to three decimals only.
    expect(Math.abs((gwetFromTable(abstractors.table, 'linear').value ?? NaN) - abstractors.expected.gwet_ac2_linear_3dp)).toBeLessThan(5e-4)
    expect(Math.abs((gwetFromTable(abstractors.table, 'quadratic').value ?? NaN) - abstractors.expected.gwet_ac2_quadratic_3dp)).toBeLessThan(5e-4)
  })

  it('agrees between labels and table', () => {
    const { first, second } = pairsFromTable(abstractors.table)
    expect(gwetAc1(first, second, [0, 1, 2]).value).toBeCloseTo(abstractors.expected.gwet_ac1, 12)
    expect(gwetAc2(first, second, [0, 1, 2], 'linear').value).toBeCloseTo(gwetFromTable(abstractors.table, 'linear').value ?? NaN, 12)
  })

  it('depends on the declared categories (hand-worked)', () => {
    // pa = 0.7; category shares 0.55 and 0.45; pe = Σπ(1−π)/(q−1).
    expect(gwetFromTable([[20, 5], [10, 15]]).value).toBeCloseTo((0.7 - 0.495) / (1 - 0.495), 12)
    const withUnusedCategory = [[20, 5, 0], [10, 15, 0], [0, 0, 0]]
    expect(gwetFromTable(withUnusedCategory).value).toBeCloseTo((0.7 - 0.2475) / (1 - 0.2475), 12)
  })

  it('stays defined where kappa is not: unanimous use of one of two categories gives 1', () => {
    expect(gwetAc1(['yes', 'yes'], ['yes', 'yes'], ['yes', 'no']).value).toBe(1)
  })

  it('is undefined with fewer than two categories or no items', () => {
    expect(gwetAc1(['yes'], ['yes'], ['yes'])).toEqual({ value: null, reason: 'fewer than 2 declared categories: chance agreement is undefined' })
    expect(gwetFromTable([[0, 0], [0, 0]]).value).toBeNull()
  })
})

describe('confusion matrix', () => {
  it('keeps declared categories that nobody used', () => {
    const matrix = confusionMatrix(['low', 'high', 'low'], ['low', 'low', 'low'], ['low', 'mid', 'high'])
    expect(matrix).toEqual({
      categories: ['low', 'mid', 'high'],
      counts: [
        [2, 0, 0],
        [0, 0, 0],
        [1, 0, 0]
      ],
      total: 3
    })
  })

  it('rejects labels outside the declared list and duplicate categories', () => {
    expect(() => confusionMatrix(['x'], ['low'], ['low', 'high'])).toThrow(/declared/)
    expect(() => confusionMatrix([], [], ['low', 'low'])).toThrow(/declared twice/)
  })
})
