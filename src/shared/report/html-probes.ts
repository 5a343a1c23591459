import { fmtPercent, fmtTally, NONE } from './format'
import { num, section, table, td } from './html-parts'
import { escapeXml as esc } from './plots/svg'
import type { Report } from './schema'
import { detectionRuleWords, probeCountsWords, probeExpectationWords } from './probe-words'

type Interval = { low: number | null; high: number | null; reason: string | null }

function rateCell(rate: number | null, ci: Interval, reason: string | null = null): string {
  if (rate === null) return `<td class="num undefined" title="${esc(reason ?? ci.reason ?? '')}">${NONE}</td>`
  return `<td class="num">${esc(fmtPercent(rate))}</td>`
}

function intervalCell(ci: Interval): string {
  if (ci.low === null || ci.high === null) return `<td class="num undefined" title="${esc(ci.reason ?? '')}">${NONE}</td>`
  return `<td class="num"${ci.reason ? ` title="${esc(ci.reason)}"` : ''}>[${esc(fmtPercent(ci.low))}, ${esc(fmtPercent(ci.high))}]</td>`
}

/** Detection of planted flaws per source and probe kind, people beside judges, and the framing preference. */
export function probesHtml(report: Report, who: (id: string) => string): string {
  const s = report.probes
  if (!s) return ''
  const name = (id: string) => (id === 'all-annotators' ? '<td>All annotators (pooled)</td>' : who(id))
  const counts = `<p class="muted small">${esc(probeCountsWords(s))}.</p>`
  const kinds = table(
    ['Kind', 'Expected verdict', 'Verified', 'Rejected', 'Unchecked'],
    s.by_kind.map((k) => [td(k.kind), td(probeExpectationWords(s.rules[k.kind])), num(k.verified), num(k.rejected), num(k.unchecked)]),
    new Set([2, 3, 4])
  )
  const typed = s.detection.some((r) => r.type_matched !== null)
  const detection = s.detection.length
    ? `<h3>Detection rate</h3>${table(
        ['Source', 'Role', 'Kind', 'Detected / probes', 'Families', 'Rate', 'Wilson', 'Bootstrap (families)', 'Ties', 'Unanswered', ...(typed ? ['Planted type named', 'Planted change quoted'] : [])],
        s.detection.map((r) => [
          name(r.source),
          td(r.role),
          td(r.kind),
          num(`${fmtTally(r.detected)} / ${r.n_probes}`),
          num(r.n_families),
          rateCell(r.rate, r.wilson),
          intervalCell(r.wilson),
          intervalCell(r.bootstrap),
          num(r.n_tied),
          num(r.n_unanswered),
          ...(typed ? [num(r.type_matched === null ? NONE : fmtTally(r.type_matched)), num(r.location_matched === null ? NONE : fmtTally(r.location_matched))] : [])
        ]),
        new Set([3, 4, 5, 6, 7, 8, 9, 10, 11])
      )}<p class="muted small">${esc(detectionRuleWords(s.detection[0]!.rule))}.</p>`
    : '<p class="muted">No verified probe was answered by any source.</p>'
  const framing = s.framing_preference.length
    ? `<h3>Framing preference</h3><p class="muted small">How often the version with inflated framing wins. Framing alone should decide nothing, so a rate far from 50% means the framing swayed the choice.</p>${table(
        ['Source', 'Role', 'Kind', 'Inflated wins / probes', 'Families', 'Rate', 'Wilson', 'Bootstrap (families)', 'Ties', 'Unanswered'],
        s.framing_preference.map((r) => [
          name(r.source),
          td(r.role),
          td(r.kind),
          num(`${fmtTally(r.probe_wins)} / ${r.n_probes}`),
          num(r.n_families),
          rateCell(r.rate, r.wilson),
          intervalCell(r.wilson),
          intervalCell(r.bootstrap),
          num(r.n_tied),
          num(r.n_unanswered)
        ]),
        new Set([3, 4, 5, 6, 7, 8, 9])
      )}`
    : ''
  return section('probes', 'Probes', `${counts}${kinds}${detection}${framing}`)
}
