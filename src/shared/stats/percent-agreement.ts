import { assertCountTable, assertSameLength } from './input-checks'
import { defined, undefinedBecause, type Category, type Estimate } from './types'

/** Share of items on which two sources give the same label. */
export function percentAgreement<C extends Category>(first: readonly C[], second: readonly C[]): Estimate {
  assertSameLength(first, second, 'percent agreement')
  if (first.length === 0) return undefinedBecause('no items rated by both sources')
  const same = first.reduce((count, label, item) => count + (label === second[item] ? 1 : 0), 0)
  return defined(same / first.length)
}

/** Accuracy of predictions against reference labels: percent agreement where one source is the truth. */
export function accuracy<C extends Category>(reference: readonly C[], predicted: readonly C[]): Estimate {
  return percentAgreement(reference, predicted)
}

/** Percent agreement from a square contingency table: the diagonal over the total. */
export function percentAgreementFromTable(table: readonly (readonly number[])[]): Estimate {
  assertCountTable(table, 'percent agreement')
  let total = 0
  let diagonal = 0
  table.forEach((row, i) => row.forEach((cell, j) => {
    total += cell
    if (i === j) diagonal += cell
  }))
  if (total === 0) return undefinedBecause('no items rated by both sources')
  return defined(diagonal / total)
}
