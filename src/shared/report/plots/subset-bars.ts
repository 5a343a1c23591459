import { scaleBand, scaleLinear } from 'd3-scale'
import { emptyPlot, GRID, INK, line, MUTED, PALETTE, percent, rect, svgDocument, text, truncate } from './svg'

export interface SubsetBar {
  /** The subset, e.g. "human better". */
  label: string
  /** The series within the subset, e.g. a judge; bars of one series share a colour. */
  series: string
  value: number | null
  ciLow: number | null
  ciHigh: number | null
  /** "correct/judged", written under the bar. */
  note: string
}

/**
 * Accuracy per subset (label, set, probe), grouped by subset with one bar per source: a judge that always picks one
 * side shows as high on one label and low on the other.
 */
export function subsetBars(bars: readonly SubsetBar[], options: { title: string; reference?: number | null; referenceLabel?: string; width?: number }): string {
  if (bars.length === 0) return emptyPlot(options.title, 'No subsets to compare.')
  const groups = [...new Set(bars.map((b) => b.label))]
  const series = [...new Set(bars.map((b) => b.series))]
  const width = options.width ?? Math.max(420, Math.min(900, 120 + groups.length * (series.length * 34 + 24)))
  const left = 48
  const top = 44 + 16 * Math.ceil(series.length / 3)
  const plotHeight = 200
  const height = top + plotHeight + 62
  const x = scaleBand<string>().domain(groups).range([left, width - 16]).paddingInner(0.25).paddingOuter(0.1)
  const inner = scaleBand<string>().domain(series).range([0, x.bandwidth()]).padding(0.08)
  const y = scaleLinear().domain([0, 1]).range([top + plotHeight, top])
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]
  series.forEach((s, k) => {
    const lx = 12 + (k % 3) * 220
    const ly = 40 + 16 * Math.floor(k / 3)
    body.push(rect(lx, ly - 9, 10, 10, { fill: PALETTE[k % PALETTE.length] }), text(lx + 14, ly, truncate(s, 32), { fill: MUTED }))
  })
  for (const t of y.ticks(5)) {
    body.push(line(left, y(t), width - 16, y(t), { stroke: GRID }))
    body.push(text(left - 6, y(t) + 3, percent(t, 0), { 'text-anchor': 'end', fill: MUTED, 'font-size': 10 }))
  }
  if (typeof options.reference === 'number') {
    body.push(line(left, y(options.reference), width - 16, y(options.reference), { 'stroke-dasharray': '4 3', stroke: INK }))
    if (options.referenceLabel) body.push(text(width - 16, top - 8, `- - ${options.referenceLabel}`, { 'text-anchor': 'end', fill: MUTED, 'font-size': 10 }))
  }
  for (const bar of bars) {
    const gx = x(bar.label) ?? left
    const bx = gx + (inner(bar.series) ?? 0)
    const bw = inner.bandwidth()
    const colour = PALETTE[series.indexOf(bar.series) % PALETTE.length] as string
    if (bar.value !== null) {
      body.push(rect(bx, y(bar.value), bw, y(0) - y(bar.value), { fill: colour, opacity: 0.85, 'data-value': bar.value }))
      if (bar.ciLow !== null && bar.ciHigh !== null) {
        const cx = bx + bw / 2
        body.push(line(cx, y(bar.ciLow), cx, y(bar.ciHigh), { 'stroke-width': 1.5 }))
        body.push(line(cx - 3, y(bar.ciLow), cx + 3, y(bar.ciLow)), line(cx - 3, y(bar.ciHigh), cx + 3, y(bar.ciHigh)))
      }
    }
    body.push(text(bx + bw / 2, y(0) + 12, bar.note, { 'text-anchor': 'middle', 'font-size': 8, fill: MUTED }))
  }
  for (const g of groups) body.push(text((x(g) ?? 0) + x.bandwidth() / 2, y(0) + 30, truncate(g, 28), { 'text-anchor': 'middle' }))
  body.push(line(left, y(0), width - 16, y(0), { stroke: INK }))
  const description = bars.map((b) => `${b.label}, ${b.series}: ${percent(b.value)} (${b.note})`).join('; ')
  return svgDocument(width, height, options.title, description, body)
}
