import type { FlawMatchCell } from './flaw-matching-schema'
import { fmtNumber, fmtPercent, NONE } from './format'
import { num, section, table, td } from './html-parts'
import { escapeXml as esc } from './plots/svg'
import type { Report } from './schema'
import { NO_QUOTE_OVERLAP } from './definitions'

const ci = (c: [number, number] | null) => (c ? `<span class="ci">[${fmtPercent(c[0])}, ${fmtPercent(c[1])}]</span>` : '')

function share(value: number | null, interval: [number, number] | null, k: number, n: number): string {
  return value === null ? `<td class="num undefined" title="nothing in the denominator">${NONE}</td>` : `<td class="num">${esc(fmtPercent(value))} (${k}/${n})${ci(interval)}</td>`
}

function cells(c: FlawMatchCell): string[] {
  return [share(c.recall, c.recall_ci, c.n_expert_found, c.n_expert), share(c.precision, c.precision_ci, c.n_judge_matched, c.n_judge)]
}

/** Each judge's flaw audits against the experts': overall, by type and by severity, with the quote overlap. */
export function flawMatchingHtml(report: Report, who: (id: string) => string): string {
  const s = report.flaw_matching
  if (!s || s.rows.length === 0) return ''
  const rows = s.rows.flatMap((r) =>
    [['all flaws', r.overall] as const, ...r.by_severity.map((c) => [`severity: ${c.key}`, c] as const), ...r.by_type.map((c) => [`type: ${c.key}`, c] as const)].map(([label, c], i) => [
      i === 0 ? who(r.source) : '<td></td>',
      td(label),
      ...cells(c),
      i === 0 ? (r.quote_overlap === null ? `<td class="num undefined" title="${esc(NO_QUOTE_OVERLAP)}">${esc(`${NONE} (${r.n_quote_pairs})`)}</td>` : num(`${fmtNumber(r.quote_overlap)} (${r.n_quote_pairs})`)) : '<td></td>',
      i === 0 ? num(`${r.n_unparseable_flaws}`) : '<td></td>',
      i === 0 ? td(`${r.reference}, ${r.n_items} pairs`) : '<td></td>'
    ])
  )
  return section(
    'flaw-matching',
    'Judges’ flaw audits against the experts’',
    `<p class="muted small">A flaw is a side and a type of a pair (${esc(s.match_rule)}); ${s.n_reference_items} pairs have a reference audit. Recall: of the reference flaws, how many the judge named (by the reference's severity); precision: of the judge's flaws, how many the reference has (by the judge's severity). Wilson intervals. Quote overlap: mean word overlap (Jaccard) of the judge's quote with the experts' on matched flaws. Unparseable: flaws the judge named whose quote was not exact or whose type is unknown.</p>
${table(['Judge', 'Flaws', 'Recall', 'Precision', 'Quote overlap (matched)', 'Unparseable flaws', 'Reference'], rows, new Set([2, 3, 4, 5]))}`
  )
}
