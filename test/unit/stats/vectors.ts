import { readFileSync } from 'node:fs'

/**
 * Reference values: a copy of shared/docs/stats-vectors.json kept beside this file, so the statistics are tested on
 * any clone. vectors-copy.test.ts checks the copy against shared/ where that folder sits beside the repository.
 */
export const vectorsUrl = new URL('./stats-vectors.json', import.meta.url)

type Table = number[][]

export type StatsVectors = {
  krippendorff_2011: {
    data_observers_by_units: (number | null)[][]
    expected: { nominal: number; ordinal: number; interval: number; ratio: number }
  }
  sklearn_cohen_kappa: { cases: { y1: string; y2: string; kappa: number; linear?: number; quadratic?: number }[] }
  two_rater_table_abstractors: {
    table: Table
    expected: {
      cohen: number
      cohen_linear: number
      cohen_quadratic: number
      gwet_ac1: number
      gwet_ac2_linear_3dp: number
      gwet_ac2_quadratic_3dp: number
    }
  }
  fleiss_wikipedia: { counts: Table; expected: number }
  brier: { y: number[]; p1: number[]; expected: number; single: { y: number[]; p: number[]; expected: number } }
  log_loss: { y: number[]; p1: number[]; expected: number }
  calibration_curve: {
    uniform2: { y: number[]; p: number[]; prob_true: number[]; prob_pred: number[]; ece_computed: number }
  }
  auroc: { cases: { y: number[]; s: number[]; auc: number }[] }
  wilson_95: { cases: [number, number, number, number][] }
  mcnemar_exact: { cases: [[[number, number], [number, number]], number, number][] }
  bootstrap_percentile_quantile_rule: { replicates: string; 'type7_2.5_97.5': [number, number] }
  kendall_no_ties: { x: number[]; y: number[]; tau: number; p_exact: number }
}

export const vectors = JSON.parse(readFileSync(vectorsUrl, 'utf8')) as StatsVectors

/** Expands the Python list expressions of the sklearn cases, e.g. "[0]*40+[1]*60". */
export function pythonList(expression: string): number[] {
  return expression.split('+').flatMap((term) => {
    const match = /^\s*\[([^\]]*)\]\s*(?:\*\s*(\d+))?\s*$/.exec(term)
    if (!match) throw new Error(`not a list expression: ${term}`)
    const items = (match[1] ?? '').split(',').filter((item) => item.trim() !== '').map(Number)
    const times = Number(match[2] ?? '1')
    return Array.from({ length: times }, () => items).flat()
  })
}

/** Paired labels from a contingency table (rows: first source, columns: second), categories 0..q-1. */
export function pairsFromTable(table: Table): { first: number[]; second: number[] } {
  const first: number[] = []
  const second: number[] = []
  table.forEach((row, i) => row.forEach((count, j) => {
    for (let c = 0; c < count; c++) {
      first.push(i)
      second.push(j)
    }
  }))
  return { first, second }
}

export const TOLERANCE = 1e-6
