import type { CalibrationRow } from '../calibrate/schema'
import type { ReportInterval, ReportJudgeVsJudge } from './schema'

/**
 * A recalibrated judge set beside its raw judge in judge against judge compares the units its recalibration section
 * compares before and after. Where the four counts agree (the same units, read alike), the row cites that section's
 * interval of the difference, turned to the row's order (first − second), so one difference has one interval.
 */
export function citeFitDifferences(rows: readonly ReportJudgeVsJudge[], fits: readonly CalibrationRow[] | undefined): ReportJudgeVsJudge[] {
  if (!fits?.length) return [...rows]
  return rows.map((row) => {
    if (row.statistic !== 'accuracy') return row
    for (const fit of fits) {
      const cited = citedInterval(row, fit)
      if (cited) return { ...row, ci: { ...row.ci, difference: cited } }
    }
    return row
  })
}

function citedInterval(row: ReportJudgeVsJudge, fit: CalibrationRow): ReportInterval | null {
  const d = fit.decision
  const diff = d?.accuracy_difference
  if (!d || !diff || fit.target_field !== row.field || fit.criterion !== row.criterion) return null
  const rawFirst = row.first === fit.raw_source && row.second === fit.source
  if (!rawFirst && !(row.first === fit.source && row.second === fit.raw_source)) return null
  const [onlyFirst, onlySecond] = rawFirst ? [d.only_before, d.only_after] : [d.only_after, d.only_before]
  if (row.n !== d.n || row.both_correct !== d.both_correct || row.only_first !== onlyFirst || row.only_second !== onlySecond || row.both_wrong !== d.both_wrong) return null
  // The section gives after − before; with the raw judge first the row reads before − after.
  const turned = (v: number | null) => (v === null ? null : -v)
  const [low, high] = rawFirst ? [turned(diff.ci_high), turned(diff.ci_low)] : [diff.ci_low, diff.ci_high]
  return {
    method: diff.method,
    level: diff.level,
    ci_low: low,
    ci_high: high,
    resamples: diff.resamples,
    undefined_resamples: diff.undefined_resamples,
    seed: diff.seed
  }
}
