import type { ReportComparison, ReportPairwiseRow } from './schema'

// The counts of the field and pairwise tables, in one order and under one heading each, for the text report, the
// HTML report and the screen alike: every status a call can end in has its column, pending included.

export const FIELD_COUNT_COLUMNS = ['In scope', 'Judged', 'n', 'Failed', 'Unparseable', 'Abstained', 'Pending', 'No value'] as const

export function fieldCountsOf(c: ReportComparison): number[] {
  return [c.n_in_scope, c.n_judged, c.n, c.n_failed, c.n_unparseable, c.n_abstained, c.n_pending, c.n_no_value]
}

export const PAIRWISE_COUNT_COLUMNS = ['In scope (calls)', 'Judged (calls)', 'Failed', 'Unparseable', 'Abstained', 'Pending', 'Ties (calls)', 'Correct'] as const

export function pairwiseCountsOf(r: ReportPairwiseRow): number[] {
  return [r.n_in_scope, r.n_judged, r.n_failed, r.n_unparseable, r.n_abstained, r.n_pending, r.n_ties, r.correct]
}
