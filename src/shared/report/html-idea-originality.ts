import { fmtDifference, fmtDifferenceInterval, fmtNumber, NONE } from './format'
import { num, section, table, td } from './html-parts'
import { escapeXml as esc } from './plots/svg'
import type { Report } from './schema'

/** Chosen beside excluded generated ideas, on originality, per source and scheme. */
export function ideaOriginalityHtml(report: Report, who: (id: string) => string): string {
  const s = report.idea_originality
  if (!s || s.rows.length === 0) return ''
  const rows = s.rows.map((r) => [
    who(r.source),
    td(r.scheme),
    num(r.n_groups),
    num(`${fmtNumber(r.mean_selected)} (${r.n_selected})`),
    num(`${fmtNumber(r.mean_excluded)} (${r.n_excluded})`),
    r.difference === null
      ? `<td class="num undefined" title="${esc(Object.values(r.reasons).join('; '))}">${NONE}</td>`
      : `<td class="num">${esc(fmtDifference(r.difference, false))}${r.ci_low !== null && r.ci_high !== null ? `<span class="ci">${esc(fmtDifferenceInterval(r.ci_low, r.ci_high, false))}</span>` : ''}</td>`
  ])
  return section(
    'idea-originality',
    'Originality of chosen and excluded ideas',
    `<p class="muted small">${s.n_generated} generated ideas. Mean originality of the ideas each generator chose and of those it left out, as the source compares selected and excluded hypotheses; the difference (chosen − excluded) with a cluster-bootstrap interval over keywords.</p>
${table(['Source', 'Scheme', 'Keywords', 'Chosen (n)', 'Excluded (n)', 'Difference'], rows, new Set([2, 3, 4, 5]))}`
  )
}
