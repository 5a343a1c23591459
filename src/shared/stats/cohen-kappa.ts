import normalQuantile from '@stdlib/stats-base-dists-normal-quantile'
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
 * `cohenKappaFromTable` of a q×q table laid out row by row in one array of counts, with the weights given: the same
 * sums in the same order, so the same figure bit for bit, without building the table (a bootstrap evaluates it on
 * every resample).
 */
export function cohenKappaFromCounts(counts: ArrayLike<number>, q: number, weights: readonly (readonly number[])[]): Estimate {
  let total = 0
  for (let i = 0; i < q; i++) {
    let row = 0
    for (let j = 0; j < q; j++) row += counts[i * q + j] as number
    total += row
  }
  if (total === 0) return undefinedBecause('no items rated by both sources')
  let observed = 0
  let expected = 0
  for (let i = 0; i < q; i++) {
    let row = 0
    for (let j = 0; j < q; j++) row += counts[i * q + j] as number
    for (let j = 0; j < q; j++) {
      let column = 0
      for (let k = 0; k < q; k++) column += counts[k * q + j] as number
      const weight = weights[i]?.[j] ?? 0
      observed += (weight * (counts[i * q + j] as number)) / total
      expected += (weight * row * column) / (total * total)
    }
  }
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

export type KappaWithSe = Estimate & {
  /** Asymptotic standard error (Fleiss, Cohen & Everitt 1969), null where kappa is undefined. */
  se: number | null
  lower: number | null
  upper: number | null
  level: number
}

/**
 * Cohen's kappa (weighted or not) with its large-sample standard error and normal interval, as statsmodels
 * `cohens_kappa` computes them (`std_kappa`, `kappa_low`, `kappa_upp`), from Fleiss, Cohen & Everitt (1969):
 * var = [Σ_ij p_ij (w_ij − (w̄_i· + w̄_·j)(1 − κ))² − (κ − p_e(1 − κ))²] / (n (1 − p_e)²), with agreement weights
 * w, w̄_i· = Σ_j p_·j w_ij and w̄_·j = Σ_i p_i· w_ij.
 */
export function cohenKappaWithSe(table: readonly (readonly number[])[], weighting: Weighting = 'identity', level = 0.95): KappaWithSe {
  const kappa = cohenKappaFromTable(table, weighting)
  if (kappa.value === null) return { ...kappa, se: null, lower: null, upper: null, level }
  const { total, rows, columns } = tableMargins(table)
  const weights = agreementWeights(table.length, weighting)
  const pRow = rows.map((r) => r / total)
  const pCol = columns.map((c) => c / total)
  const w = (i: number, j: number) => weights[i]?.[j] ?? 0
  const q = table.length
  let expected = 0
  const rowMean = new Array<number>(q).fill(0)
  const colMean = new Array<number>(q).fill(0)
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      expected += w(i, j) * (pRow[i] as number) * (pCol[j] as number)
      rowMean[i] = (rowMean[i] as number) + (pCol[j] as number) * w(i, j)
      colMean[j] = (colMean[j] as number) + (pRow[i] as number) * w(i, j)
    }
  }
  const k = kappa.value
  let sum = 0
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const p = ((table[i] as readonly number[])[j] as number) / total
      sum += p * (w(i, j) - ((rowMean[i] as number) + (colMean[j] as number)) * (1 - k)) ** 2
    }
  }
  const variance = Math.max(0, (sum - (k - expected * (1 - k)) ** 2) / (total * (1 - expected) ** 2))
  const se = Math.sqrt(variance)
  const z = normalQuantile(1 - (1 - level) / 2, 0, 1)
  return { value: k, se, lower: k - z * se, upper: k + z * se, level }
}
