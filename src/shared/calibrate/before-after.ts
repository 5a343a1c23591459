import { mcnemarExact, pairedBootstrapDifference, type BootstrapOptions, type Estimate } from '../stats'
import { accuracyDifference } from './accuracy-difference'
import type { CalibrationRow } from './schema'

// The before → after figures of a recalibration row: the decision block and the paired differences it reports.

/** Right/wrong before and after on the same units, with McNemar's test and the paired difference of accuracies. */
export function decisionBlock(
  rows: ReadonlyArray<{ itemId: number; before: boolean; after: boolean }>,
  before: string,
  reasons: Record<string, string>,
  bootstrap: BootstrapOptions,
  noBefore = false,
  unanswered = 0
): NonNullable<CalibrationRow['decision']> {
  const count = (b: boolean, a: boolean) => rows.filter((r) => r.before === b && r.after === a).length
  const onlyBefore = count(true, false)
  const onlyAfter = count(false, true)
  const n = rows.length
  if (n === 0) reasons.decision = unanswered > 0 ? `no labelled eval unit has an answer to compare (${unanswered} unanswered, left out)` : 'no eval unit has a label'
  return {
    n,
    before,
    before_accuracy: n && !noBefore ? rows.filter((r) => r.before).length / n : null,
    after_accuracy: n ? rows.filter((r) => r.after).length / n : null,
    both_correct: count(true, true),
    only_before: onlyBefore,
    only_after: onlyAfter,
    both_wrong: count(false, false),
    mcnemar_p: n && !noBefore ? mcnemarExact(onlyBefore, onlyAfter).value : null,
    // after − before, resampling items (units of one item stay together), so the test has its interval.
    accuracy_difference: n && !noBefore ? differenceOf(accuracyDifference(rows, bootstrap)) : null
  }
}

/** The mean absolute difference over a resample's rows, summed in row order (as a sum over the flattened rows). */
export function madOf<R extends { before: number; after: number }>(which: 'before' | 'after') {
  return (resample: readonly { rows: readonly R[] }[]): Estimate => {
    let n = 0
    let sum = 0
    for (const unit of resample) {
      for (const r of unit.rows) {
        n++
        sum += r[which]
      }
    }
    return n ? { value: sum / n } : { value: null, reason: 'no units' }
  }
}

export function differenceOf(d: ReturnType<typeof pairedBootstrapDifference>): NonNullable<CalibrationRow['scale']>['mad_difference'] {
  return {
    difference: d.point.value,
    method: 'paired cluster bootstrap (percentile)',
    level: d.level,
    ci_low: d.lower,
    ci_high: d.upper,
    resamples: d.resamples,
    undefined_resamples: d.undefinedResamples,
    seed: d.seed
  }
}
