import type { EstimateCut, EstimateRow } from '../calibrate/schema'
import { fmtBounds, fmtNumber, NONE } from './format'

/** The estimates of a row, in the order every table gives them, under one heading each. */
export const ESTIMATE_COLUMNS = [
  ['human_only', 'Human only'],
  ['judge_only', 'Judge only'],
  ['ppi', 'PPI'],
  ['ppi_plus_plus', 'PPI++'],
  ['rogan_gladen', 'Rogan–Gladen']
] as const

export type EstimateKey = (typeof ESTIMATE_COLUMNS)[number][0]

/** Marks an estimate cut to the range of its quantity; the line under the table says what it was before. */
export const CUT_MARK = '‡'

interface Estimate {
  value: number | null
  ci_low: number | null
  ci_high: number | null
  cut_to_range?: EstimateCut | undefined
  reason?: string | undefined
}

/** Why a row has no estimate of a kind: Rogan–Gladen corrects a share, and a mean is none. */
export const NOT_A_SHARE = 'Rogan–Gladen corrects a share (a positive rate) by the judge\'s sensitivity and specificity; this quantity is a mean'

/** One estimate of a row, or undefined (Rogan–Gladen is only for shares). */
export function estimateOf(row: EstimateRow, key: EstimateKey): Estimate | undefined {
  return row[key]
}

/** "0.500 [0.000, 1.000] ‡": an estimate with its interval, marked where it was cut to its range; "—" without one. */
export function estimateCell(m: Estimate | undefined): string {
  if (!m || m.value === null) return NONE
  const bounds = fmtBounds(m.ci_low, m.ci_high)
  return `${fmtNumber(m.value)}${bounds ? ` ${bounds}` : ''}${m.cut_to_range ? ` ${CUT_MARK}` : ''}`
}

/**
 * One line per estimate of the table cut to the range of its quantity, with its figures before the cut:
 * "‡ judge-0 against Human majority, share of matched = true, Human only: cut to [0, 1]; before the cut 0.500
 * [-0.193, 1.193]".
 */
export function estimateCutLines(rows: readonly EstimateRow[], name: (id: string) => string): string[] {
  const out: string[] = []
  for (const row of rows) {
    for (const [key, heading] of ESTIMATE_COLUMNS) {
      const cut = estimateOf(row, key)?.cut_to_range
      if (!cut) continue
      const bounds = fmtBounds(cut.ci_low, cut.ci_high)
      out.push(
        `${CUT_MARK} ${name(row.source)} against ${name(row.criterion)}, ${row.quantity}, ${heading}: cut to [${cut.range[0]}, ${cut.range[1]}], ` +
          `the range of the quantity; before the cut ${fmtNumber(cut.value)}${bounds ? ` ${bounds}` : ''}`
      )
    }
  }
  return out
}

/**
 * The lines under the estimates table, for text, HTML and screen alike: each row's warnings, and why an estimate has
 * no value ("—" in the table), with the row they belong to.
 */
export function estimateNoteLines(rows: readonly EstimateRow[], name: (id: string) => string): string[] {
  const out: string[] = []
  for (const row of rows) {
    const who = `${name(row.source)} against ${name(row.criterion)}, ${row.quantity}`
    for (const w of row.warnings) out.push(`⚠ ${who}: ${w}`)
    for (const [key, heading] of ESTIMATE_COLUMNS) {
      const m = estimateOf(row, key)
      if (m && m.value === null && m.reason) out.push(`${who}, ${heading}: ${NONE} ${m.reason}`)
    }
  }
  return out
}
