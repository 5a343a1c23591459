import { calibrationLines, evaluatedOn, fitName, fittedOn, fitTarget } from './calibration-lines'
import { ESTIMATE_COLUMNS, estimateCell, estimateCutLines, estimateNoteLines, estimateOf } from './estimate-cells'
import { fmtDifference, fmtDifferenceInterval, fmtNumber, fmtPercent, fmtTally, NONE } from './format'
import type { Report } from './schema'
import { grid, heading, type Name } from './text-parts'

/** The plain-text report's sections present only for some projects: fits, estimates, ideas, flaw audits, probes. */
export function extraSections(report: Report, name: Name): string[] {
  return [...calibrationText(report, name), ...estimatesText(report, name), ...originalityText(report, name), ...flawMatchingText(report, name), ...probesText(report, name)]
}

function calibrationText(report: Report, name: Name): string[] {
  const rows = report.calibration ?? []
  if (rows.length === 0) return []
  const out = heading('Recalibrated judges', 'each fit learned on its fit split only, evaluated on its eval split against the raw judge on the same units')
  for (const c of rows) {
    out.push(`${fitName(c, name)} (${c.method}) of ${name(c.raw_source)} · ${fitTarget(c)} of ${name(c.criterion)} · fitted on ${fittedOn(c)} · evaluated on ${evaluatedOn(c)}`)
    if (!c.held_out) out.push(`  not held out: ${c.reasons.held_out ?? 'the split moved items it learned from'}`)
    for (const line of calibrationLines(c)) out.push(`  ${line}`)
    for (const [key, reason] of Object.entries(c.reasons)) if (key !== 'held_out') out.push(`  ${key}: ${reason}`)
    for (const w of c.warnings) out.push(`  warning: ${w}`)
  }
  return out
}

function estimatesText(report: Report, name: Name): string[] {
  const e = report.estimates
  if (!e?.rows.length) return []
  const out = heading('Estimates corrected for judge error', e.method)
  for (const w of e.warnings) out.push(`warning: ${w}`)
  out.push(
    grid(
      ['source', 'criterion', 'quantity', 'labelled n', 'unlabelled N', ...ESTIMATE_COLUMNS.map(([, heading]) => heading)],
      e.rows.map((r) => [name(r.source), name(r.criterion), r.quantity, String(r.n_labelled), String(r.n_unlabelled), ...ESTIMATE_COLUMNS.map(([key]) => estimateCell(estimateOf(r, key)))])
    )
  )
  out.push(...estimateCutLines(e.rows, name), ...estimateNoteLines(e.rows, name))
  return out
}

function originalityText(report: Report, name: Name): string[] {
  const o = report.idea_originality
  if (!o) return []
  const out = heading('Originality of chosen and excluded ideas', `${o.n_generated} generated ideas; difference = chosen − excluded, cluster bootstrap over keywords`)
  out.push(
    grid(
      ['source', 'scheme', 'groups', 'chosen', 'excluded', 'mean chosen', 'mean excluded', 'difference', 'interval'],
      o.rows.map((r) => [name(r.source), r.scheme, String(r.n_groups), String(r.n_selected), String(r.n_excluded), fmtNumber(r.mean_selected), fmtNumber(r.mean_excluded), fmtDifference(r.difference, false), fmtDifferenceInterval(r.ci_low, r.ci_high, false) || NONE])
    )
  )
  return out
}

function flawMatchingText(report: Report, name: Name): string[] {
  const f = report.flaw_matching
  if (!f) return []
  const out = heading('Judges’ flaw audits against the experts’', `${f.match_rule}; ${f.n_reference_items} reference items; by type and severity in --json and --html`)
  out.push(
    grid(
      ['source', 'reference', 'items', 'expert flaws', 'found', 'recall', 'judge flaws', 'matched', 'precision', 'quote overlap', 'unusable'],
      f.rows.map((r) => [name(r.source), r.reference, String(r.n_items), String(r.overall.n_expert), String(r.overall.n_expert_found), fmtPercent(r.overall.recall), String(r.overall.n_judge), String(r.overall.n_judge_matched), fmtPercent(r.overall.precision), fmtNumber(r.quote_overlap), String(r.n_unparseable_flaws)])
    )
  )
  return out
}

function probesText(report: Report, name: Name): string[] {
  const p = report.probes
  if (!p) return []
  const rules = Object.entries(p.rules).map(([kind, rule]) => `${kind}: ${rule}`).join(', ')
  const out = heading('Probes', `${p.n_probes} probes in scope: ${p.n_verified} verified, ${p.n_rejected} rejected, ${p.n_unchecked} unchecked (only verified probes are counted, here and as reference labels in every table; a probe whose answer could not be read is judged and detects nothing, as in every table; one asked but never answered is counted as unanswered, never scored); expected verdicts ${rules || NONE}`)
  const interval = (i: { low: number | null; high: number | null; reason: string | null }) => (i.low === null || i.high === null ? (i.reason ? `${NONE} (${i.reason})` : NONE) : `[${fmtPercent(i.low)}, ${fmtPercent(i.high)}]`)
  // Detection and framing preference are one kind of table: a rate per source with its two intervals.
  const typed = p.detection.some((r) => r.type_matched !== null)
  // With `planted`, the detection table's two columns on whether the judge named the planted flaw and quoted it.
  const rates = <R extends (typeof p.detection)[number] | (typeof p.framing_preference)[number]>(title: string, counted: string, rows: readonly R[], count: (r: R) => number, planted?: (r: R) => string[]) => {
    if (!rows.length) return
    const header = ['source', 'role', 'kind', 'probes', 'families', 'tied', 'unanswered', counted, 'rate', 'Wilson', 'bootstrap (families)', ...(planted ? ['type named', 'change quoted'] : [])]
    out.push(title, grid(header, rows.map((r) => [name(r.source), r.role, r.kind, String(r.n_probes), String(r.n_families), String(r.n_tied), String(r.n_unanswered), fmtTally(count(r)), fmtPercent(r.rate), interval(r.wilson), interval(r.bootstrap), ...(planted ? planted(r) : [])])))
  }
  const planted = (r: (typeof p.detection)[number]) => [r.type_matched === null ? NONE : fmtTally(r.type_matched), r.location_matched === null ? NONE : fmtTally(r.location_matched)]
  rates('Detection', 'detected', p.detection, (r) => r.detected, typed ? planted : undefined)
  rates('Framing preference (the inflated version winning)', 'probe wins', p.framing_preference, (r) => r.probe_wins)
  return out
}
