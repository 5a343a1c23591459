import normalCdf from '@stdlib/stats-base-dists-normal-cdf'
import { exactKendallPValue, kendallTauB, KENDALL_EXACT_MAX_N, tooFewForCorrelation, type KendallTauB } from '../stats'

/** Up to this many units the pairwise definition in src/shared/stats is used as is. */
export const KENDALL_DIRECT_MAX_N = 2000

/**
 * Kendall's tau-b of two sources on a declared ordinal scale. `kendallTauB` compares every pair of units (n²/2
 * comparisons: minutes at 10⁵ units); on a scale of q categories the same counts come from the q×q table of the
 * two sources: concordant pairs Σ n_ij·n_kl over i<k, j<l; discordant over i<k, j>l; ties from the margins. The
 * p-value is then the same tie-corrected normal approximation (tables of more than q units always have ties).
 * Checked against `kendallTauB` in the tests.
 */
export function kendallTauBOrdinal(first: readonly number[], second: readonly number[], categoryCount: number): KendallTauB {
  if (first.length <= KENDALL_DIRECT_MAX_N) return kendallTauB(first, second)
  const table = Array.from({ length: categoryCount }, () => new Array<number>(categoryCount).fill(0))
  for (let i = 0; i < first.length; i++) {
    const row = table[first[i] as number] as number[]
    row[second[i] as number] = (row[second[i] as number] ?? 0) + 1
  }
  return kendallTauBFromTable(table)
}

export function kendallTauBFromTable(table: readonly (readonly number[])[]): KendallTauB {
  const q = table.length
  const cell = (i: number, j: number) => table[i]?.[j] ?? 0
  let n = 0
  for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) n += cell(i, j)
  let concordant = 0
  let discordant = 0
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const here = cell(i, j)
      if (here === 0) continue
      for (let k = i + 1; k < q; k++) {
        for (let l = 0; l < q; l++) {
          if (l > j) concordant += here * cell(k, l)
          else if (l < j) discordant += here * cell(k, l)
        }
      }
    }
  }
  const counts = { n, concordant, discordant }
  const undefinedTau = (reason: string): KendallTauB => ({ value: null, reason, ...counts, pValue: null, pValueMethod: null })
  if (n < 3) return undefinedTau(tooFewForCorrelation(n))
  const rowSizes = table.map((row) => row.reduce((s, c) => s + c, 0)).filter((t) => t > 0)
  const columnSizes = Array.from({ length: q }, (_, j) => table.reduce((s, row) => s + (row[j] ?? 0), 0)).filter((t) => t > 0)
  const pairs = (n * (n - 1)) / 2
  const tiedPairs = (sizes: number[]) => sizes.reduce((s, t) => s + (t * (t - 1)) / 2, 0)
  const firstTied = tiedPairs(rowSizes)
  const secondTied = tiedPairs(columnSizes)
  if (firstTied === pairs && secondTied === pairs) return undefinedTau('both sources give every item the same score (zero variance)')
  if (firstTied === pairs) return undefinedTau('the first source gives every item the same score (zero variance)')
  if (secondTied === pairs) return undefinedTau('the second source gives every item the same score (zero variance)')
  const tau = Math.max(-1, Math.min(1, (concordant - discordant) / Math.sqrt((pairs - firstTied) * (pairs - secondTied))))
  if (firstTied === 0 && secondTied === 0 && n <= KENDALL_EXACT_MAX_N) {
    return { value: tau, ...counts, pValue: exactKendallPValue(n, Math.min(concordant, discordant)), pValueMethod: 'exact' }
  }
  const sumOver = (sizes: number[], term: (t: number) => number) => sizes.reduce((s, t) => s + term(t), 0)
  const variance =
    (n * (n - 1) * (2 * n + 5) - sumOver(rowSizes, (t) => t * (t - 1) * (2 * t + 5)) - sumOver(columnSizes, (t) => t * (t - 1) * (2 * t + 5))) / 18 +
    (sumOver(rowSizes, (t) => t * (t - 1)) * sumOver(columnSizes, (t) => t * (t - 1))) / (2 * n * (n - 1)) +
    (n > 2 ? (sumOver(rowSizes, (t) => t * (t - 1) * (t - 2)) * sumOver(columnSizes, (t) => t * (t - 1) * (t - 2))) / (9 * n * (n - 1) * (n - 2)) : 0)
  const z = (concordant - discordant) / Math.sqrt(variance)
  return { value: tau, ...counts, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1)), pValueMethod: 'normal-approximation' }
}
