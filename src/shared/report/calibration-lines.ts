import type { CalibrationRow } from '../calibrate/schema'
import { fmtDifference, fmtDifferenceInterval, fmtNumber, fmtP, fmtPercent, plural } from './format'

/** How every paired difference of a recalibration is computed, said beside it. */
const PAIRED = 'after − before, paired cluster bootstrap'

/** "difference +14.9 pp [6.4, 25.5] pp (after − before, …)", or nothing where the difference was not computed. */
function differenceOf(d: { difference: number | null; ci_low: number | null; ci_high: number | null; level: number } | null, percent: boolean): string {
  if (!d || d.difference === null) return ''
  const interval = fmtDifferenceInterval(d.ci_low, d.ci_high, percent)
  return `; difference ${fmtDifference(d.difference, percent)}${interval ? ` ${interval}` : ''} (${PAIRED}, ${Math.round(100 * d.level)}% interval)`
}

/**
 * A fit as the report names it everywhere: a fitted source's own name ("judge · method · fit N"); a few-shot fit is
 * a run of its own (named as one), so its method and number follow the run's name.
 */
export function fitName(c: Pick<CalibrationRow, 'method' | 'source' | 'label' | 'fit_id'>, name: (id: string) => string): string {
  return c.method === 'few-shot' ? `${name(c.source)} · ${fitOfRun(c)}` : name(c.source)
}

/** What follows a few-shot fit's run name: its method and its number ("" for other fits, whose names hold both). */
export function fitOfRun(c: Pick<CalibrationRow, 'method' | 'label' | 'fit_id'>): string {
  return c.method === 'few-shot' ? `${c.label} · fit ${c.fit_id}` : ''
}

/** What a fit aims at: "same_study = true", "score >= 7", or the field itself for a scale. */
export function fitTarget(c: Pick<CalibrationRow, 'target_field' | 'positive'>): string {
  if (!c.positive) return c.target_field
  return c.positive.startsWith('>=') ? `${c.target_field} ${c.positive}` : `${c.target_field} = ${c.positive}`
}

/** What a fit learned from: its fit split's items, or, for both orders, nothing (a rule that reads no labels). */
export function fittedOn(c: Pick<CalibrationRow, 'method' | 'fit_split' | 'n_fit_items'>): string {
  return c.method === 'both-orders' ? 'nothing: a rule combining the two display orders, which reads no labels' : `${c.fit_split}: ${c.n_fit_items} items`
}

/**
 * Where a recalibration was evaluated: "test: 48 items, 47 units; 1 more unanswered, left out". The units compared are
 * the answered ones; units whose answer failed, is pending or abstained are counted beside them, never inside.
 */
export function evaluatedOn(c: CalibrationRow): string {
  // A fit this report gives no held-out figure for (another split, or no longer held out) is not "0 items" of it.
  if (c.reasons.eval || c.reasons.held_out) return `${c.eval_split}: no figure in this report (${c.reasons.eval ? 'eval' : 'held_out'}, below)`
  const unanswered = c.n_unanswered_eval_units ? `; ${c.n_unanswered_eval_units} more unanswered, left out` : ''
  // Units the field tables count (an unreadable answer there is judged and wrong) but a score-based fit cannot map.
  const unscored = c.n_unscored_eval_units
    ? `; ${c.n_unscored_eval_units} more without a score from the raw judge (${Object.entries(c.unscored_by_status ?? {}).map(([why, n]) => `${n} ${why}`).join(', ')}), left out of before and after (the field tables count an unreadable answer as wrong)`
    : ''
  return `${c.eval_split}: ${c.n_eval_items} items, ${c.n_eval_units} units${unanswered}${unscored}`
}

/**
 * The before → after lines of one recalibration: written once here and shown as they are by the text report, the
 * HTML report, the report screen and `assay calibrate`, so a figure reads the same wherever it appears and each
 * interval stands beside the difference it belongs to (never after a figure it could be taken for the interval of).
 */
export function calibrationLines(c: CalibrationRow): string[] {
  const lines: string[] = []
  const d = c.decision
  if (d) {
    lines.push(
      `accuracy ${fmtPercent(d.before_accuracy)} → ${fmtPercent(d.after_accuracy)} on ${d.n} units (before: ${d.before})${differenceOf(d.accuracy_difference, true)}; ` +
        `right both times ${d.both_correct}, only before ${d.only_before}, only after ${d.only_after}, neither ${d.both_wrong}; exact McNemar p = ${fmtP(d.mcnemar_p)}`
    )
  }
  const p = c.probability
  if (p) {
    lines.push(
      `Brier ${fmtNumber(p.before.brier)} → ${fmtNumber(p.after.brier)} on ${p.n} units (before: ${p.before_mapping})${differenceOf(p.brier_difference, false)}; ` +
        `log loss ${fmtNumber(p.before.log_loss)} → ${fmtNumber(p.after.log_loss)}; ECE ${fmtNumber(p.before.ece)} → ${fmtNumber(p.after.ece)} (${p.ece_bins} bins)`
    )
  }
  const s = c.scale
  if (s) lines.push(`mean absolute difference ${fmtNumber(s.before_mad)} → ${fmtNumber(s.after_mad)} on ${s.n} units${differenceOf(s.mad_difference, false)}`)
  const ch = c.changes
  if (ch) lines.push(`verdicts changed: ${ch.changed_first_order} of the first order, ${ch.changed_second_order} of the second; ${plural(ch.n_ties, 'tie')} of ${plural(ch.n_pairs, 'pair')}`)
  return lines
}
