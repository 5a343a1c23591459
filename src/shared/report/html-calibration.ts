import { calibrationLines, evaluatedOn, fitOfRun, fittedOn, fitTarget } from './calibration-lines'
import { CUT_MARK, NOT_A_SHARE, ESTIMATE_COLUMNS, estimateCutLines, estimateNoteLines, estimateOf } from './estimate-cells'
import { fmtBounds, fmtNumber, NONE } from './format'
import { num, section, table, td, type Name } from './html-parts'
import { escapeXml as esc } from './plots/svg'
import type { Report } from './schema'

type Who = (id: string, note?: string) => string

const cell = (text: string, sub = '') => `<td class="num">${esc(text)}${sub ? `<span class="ci">${esc(sub)}</span>` : ''}</td>`

/** Each stored recalibration against its raw judge on the eval split: before → after, with its paired test. */
export function calibrationSectionHtml(report: Report, name: Name, who: Who): string {
  const rows = report.calibration ?? []
  if (rows.length === 0) return ''
  const body = rows.map((c) => {
    const lines = calibrationLines(c)
    for (const [k, r] of Object.entries(c.reasons)) lines.push(`${k}: ${r}`)
    for (const w of c.warnings) lines.push(`⚠ ${w}`)
    return [
      fitOfRun(c) ? who(c.source, fitOfRun(c)) : who(c.source),
      who(c.raw_source),
      td(`${fitTarget(c)} of ${name(c.criterion)}`),
      td(fittedOn(c)),
      td(evaluatedOn(c)),
      `<td>${lines.map((l) => esc(l)).join('<br>')}</td>`
    ]
  })
  return section(
    'calibration',
    'Recalibrated judges',
    `<p class="muted small">Each fit learned on its fit split only and is evaluated here on its eval split, against the raw judge on the same units. Decisions: exact McNemar test; probabilities and values on the human scale: after − before with a paired cluster-bootstrap interval.</p>
${table(['Fit', 'Raw judge', 'Aimed at', 'Fitted on', 'Evaluated on', 'Before → after'], body)}`
  )
}

/** PPI, PPI++ and Rogan–Gladen beside the human-only and judge-only estimates. */
export function estimatesSectionHtml(report: Report, name: Name, who: Who): string {
  const e = report.estimates
  if (!e || e.rows.length === 0) return ''
  const est = (m: ReturnType<typeof estimateOf>) =>
    !m || m.value === null
      ? `<td class="num undefined" title="${esc(m ? (m.reason ?? '') : NOT_A_SHARE)}">${NONE}</td>`
      : cell(`${fmtNumber(m.value)}${m.cut_to_range ? ` ${CUT_MARK}` : ''}`, fmtBounds(m.ci_low, m.ci_high))
  const rows = e.rows.map((r) => [
    who(r.source),
    td(name(r.criterion)),
    td(r.quantity),
    num(`${r.n_labelled} / ${r.n_unlabelled}${r.n_left_out ? ` (${r.n_left_out} left out: ${r.left_out?.reason ?? ''})` : ''}`),
    ...ESTIMATE_COLUMNS.map(([key]) => est(estimateOf(r, key)))
  ])
  const cuts = [...estimateCutLines(e.rows, name), ...estimateNoteLines(e.rows, name)]
  return section(
    'estimates',
    'Estimates corrected for judge error',
    `<p class="muted small">${esc(`${Math.round(e.level * 100)}% normal intervals. Labelled units have a label from the criterion and the judge; unlabelled ones no person labelled; units people labelled without a criterion value, and labelled units the judge gave no value on, are left out. ${e.method}.`)}</p>
${e.warnings.map((w) => `<p class="small">⚠ ${esc(w)}</p>`).join('\n')}
${table(['Judge', 'Criterion', 'Quantity', 'Labelled / unlabelled', ...ESTIMATE_COLUMNS.map(([, heading]) => heading)], rows, new Set([3, 4, 5, 6, 7, 8]))}
${cuts.map((line) => `<p class="muted small">${esc(line)}</p>`).join('\n')}`
  )
}
