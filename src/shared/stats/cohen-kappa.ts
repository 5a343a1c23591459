import { observedCategories } from './categories'
import { confusionMatrix } from './confusion-matrix'
import { assertCountTable } from './input-checks'
import { CHANCE_AGREEMENT_TOLERANCE, tableMargins } from './table-margins'
import { defined, undefinedBecause, type Category, type Estimate, type Weighting } from './types'
import { agreementWeights } from './weights'

/**
 * Cohen's kappa from a square contingency table of two sources (rows: first source, columns: second).
 * With linear or quadratic weighting, the table's rows and columns are the ordered categories of the declared scale.
 */
export function cohenKappaFromTable(table: readonly (readonly number[])[], weighting: Weighting = 'identity'): Estimate {
  assertCountTable(table, "Cohen's kappa")
  const { total, rows, columns } = tableMargins(table)
  if (total === 0) return undefinedBecause('no items rated by both sources')
  const weights = agreementWeights(table.length, weighting)
  let observed = 0
  let expected = 0
  table.forEach((row, i) => {
    row.forEach((cell, j) => {
      const weight = weights[i]?.[j] ?? 0
      observed += (weight * cell) / total
      expected += (weight * (rows[i] ?? 0) * (columns[j] ?? 0)) / (total * total)
    })
  })
  if (1 - expected <= CHANCE_AGREEMENT_TOLERANCE) {
    return undefinedBecause('expected agreement is 1 (a single category in both sources)')
  }
  return defined((observed - expected) / (1 - expected))
}

/**
 * Cohen's (unweighted) kappa from paired labels. Categories may be declared; otherwise the labels seen are used,
 * which is harmless here because unused categories do not change unweighted kappa.
 */
export function cohenKappa<C extends Category>(first: readonly C[], second: readonly C[], categories?: readonly C[]): Estimate {
  const declared = categories ?? observedCategories(first, second)
  return cohenKappaFromTable(confusionMatrix(first, second, declared).counts, 'identity')
}
