import { fmtDifference, fmtDifferenceInterval, fmtInterval, fmtStatistic, intervalTitle, NONE, PERCENT_STATISTICS, statisticLabel } from './format'
import type { ReportPlot } from './plots'
import { colourIn } from './plots/colours'
import { escapeXml as esc } from './plots/svg'
import type { Report, ReportInterval } from './schema'

/** Building blocks of the HTML report's tables: cells, tables, figures, notes. Every text is escaped here. */

export type Name = (id: string) => string

export function table(headings: string[], rows: string[][], numeric: ReadonlySet<number> = new Set()): string {
  const head = headings.map((h, i) => `<th${numeric.has(i) ? ' class="num"' : ''}>${esc(h)}</th>`).join('')
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table></div>`
}

/** Columns from `from` on are numeric. */
export const numericFrom = (headings: readonly string[], from: number) => new Set(headings.map((_, i) => i).filter((i) => i >= from))

export const td = (text: string) => `<td>${esc(text)}</td>`
export const num = (v: number | string) => `<td class="num">${esc(String(v))}</td>`

/**
 * A source's name with its colour swatch: the colour it has in every plot of the report; `note` says what the row
 * counts where a source has several rows.
 */
export function sourceNamer(report: Report): { name: Name; who: (id: string, note?: string) => string } {
  const byId = new Map(report.sources.map((s) => [s.id, s]))
  const name = (id: string) => byId.get(id)?.name ?? id
  const who = (id: string, note?: string) =>
    `<td data-source="${esc(id)}"><span class="swatch" style="background: ${esc(colourIn(report.sources, id, byId.get(id)?.role))}"></span>${esc(name(id))}${note ? ` <span class="muted small">· ${esc(note)}</span>` : ''}</td>`
  return { name, who }
}

/** A statistic cell: the value, its interval underneath, and the reason as a tooltip when it is undefined. */
export function statCell(name: string, value: number | null | undefined, ci: ReportInterval | undefined, reason: string | undefined, below = false): string {
  if (value === null || value === undefined) {
    return `<td class="num undefined" title="${esc(reason ?? 'not computed')}">${NONE}</td>`
  }
  const interval = fmtInterval(ci, PERCENT_STATISTICS.has(name))
  return `<td class="num${below ? ' below' : ''}" data-statistic="${esc(name)}"${interval && ci ? ` title="${esc(intervalTitle(ci))}"` : ''}>${esc(fmtStatistic(name, value))}${interval ? `<span class="ci">${esc(interval)}</span>` : ''}</td>`
}

/** A difference cell (first − second): signed, in percentage points for accuracies, its interval underneath. */
export function differenceCell(value: number | null | undefined, ci: ReportInterval | undefined, percent: boolean, reason: string | undefined): string {
  if (value === null || value === undefined) return `<td class="num undefined" title="${esc(reason ?? 'not computed')}">${NONE}</td>`
  const interval = fmtDifferenceInterval(ci?.ci_low, ci?.ci_high, percent)
  return `<td class="num" data-statistic="difference">${esc(fmtDifference(value, percent))}${interval ? `<span class="ci">${esc(interval)}</span>` : ''}</td>`
}

export function plotFigures(plots: readonly ReportPlot[]): string {
  if (plots.length === 0) return ''
  return `<div class="plots">${plots.map((p) => `<figure id="plot-${esc(p.id)}" data-kind="${esc(p.kind)}">${p.svg}<figcaption>${esc(p.title)}</figcaption></figure>`).join('')}</div>`
}

export function reasonsList(entries: Array<{ who: string; reasons: Record<string, string> }>): string {
  const items = entries.flatMap(({ who, reasons }) => Object.entries(reasons).map(([k, r]) => `<li><strong>${esc(who)}</strong> · ${esc(statisticLabel(k))}: ${esc(r)}</li>`))
  return items.length ? `<details class="reasons"><summary>Undefined statistics and notes (${items.length})</summary><ul>${items.join('')}</ul></details>` : ''
}

/**
 * A collapsible section of the report. Closed unless asked, so the page opens on the summary; the page's script
 * opens a section its contents link points to, and every section before printing.
 */
export function section(id: string, title: string, body: string, note = '', open = false): string {
  return `<details class="section" id="${esc(id)}"${open ? ' open' : ''}><summary><h2>${esc(title)}${note ? ` <span class="muted small">${esc(note)}</span>` : ''}</h2></summary>
${body}
</details>`
}
