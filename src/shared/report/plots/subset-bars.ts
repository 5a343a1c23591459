import { scaleBand, scaleLinear } from 'd3-scale'
import { el, emptyPlot, escapeXml, GRID, INK, labelWidth, line, MUTED, PALETTE, percent, rect, round, svgDocument, text, truncate } from './svg'

export interface SubsetBar {
  /** The subset, e.g. "human better". */
  label: string
  /** The series within the subset, e.g. a judge; bars of one series share a colour. */
  series: string
  value: number | null
  ciLow: number | null
  ciHigh: number | null
  /** "correct/judged", written under the bar where it fits (always in the bar's tooltip). */
  note: string
  /** The series' source id and fixed colour (see colours.ts). */
  source?: string
  colour?: string
}

const LEGEND_COLUMN = 230

/**
 * Accuracy per subset (label, set, probe), grouped by subset with one bar per source: a judge that always picks one
 * side shows as high on one label and low on the other. Subset names wider than their group are set at an angle,
 * and counts too wide for their bar are left to the tooltip, so no two labels overlap.
 */
export function subsetBars(bars: readonly SubsetBar[], options: { title: string; reference?: number | null; referenceLabel?: string; width?: number }): string {
  if (bars.length === 0) return emptyPlot(options.title, 'No subsets to compare.')
  const groups = [...new Set(bars.map((b) => b.label))]
  const series = [...new Set(bars.map((b) => b.series))]
  const colourOf = new Map(series.map((s, k) => [s, bars.find((b) => b.series === s)?.colour ?? (PALETTE[k % PALETTE.length] as string)]))
  const sourceOf = new Map(series.map((s) => [s, bars.find((b) => b.series === s)?.source]))
  const width = options.width ?? Math.max(460, Math.min(1000, 120 + groups.length * (series.length * 30 + 28)))
  const perRow = Math.max(1, Math.floor((width - 24) / LEGEND_COLUMN))
  const top = 44 + 16 * Math.ceil(series.length / perRow)
  const plotHeight = 200
  const groupLabels = groups.map((g) => truncate(g, 28))
  const band = (left: number) => scaleBand<string>().domain(groups).range([left, width - 16]).paddingInner(0.25).paddingOuter(0.1)
  const slanted = labelWidth(groupLabels) > band(48).bandwidth() - 4
  // A slanted label hangs down and to the left of its group: the first one needs room on the left.
  const left = slanted ? Math.max(48, labelWidth([groupLabels[0] as string]) * Math.cos(Math.PI / 5) - band(48).bandwidth() / 2 + 12) : 48
  const x = band(left)
  const inner = scaleBand<string>().domain(series).range([0, x.bandwidth()]).padding(0.08)
  const labelDepth = slanted ? labelWidth(groupLabels) * Math.sin(Math.PI / 5) + 16 : 18
  const bw = inner.bandwidth()
  const notesFit = bars.every((b) => labelWidth([b.note], 8) <= bw + 2)
  const notesDepth = notesFit ? 14 : 0
  const height = top + plotHeight + notesDepth + labelDepth + 20
  const y = scaleLinear().domain([0, 1]).range([top + plotHeight, top])
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]
  series.forEach((s, k) => {
    const lx = 12 + (k % perRow) * LEGEND_COLUMN
    const ly = 40 + 16 * Math.floor(k / perRow)
    body.push(rect(lx, ly - 9, 10, 10, { fill: colourOf.get(s), 'data-source': sourceOf.get(s) }), text(lx + 14, ly, truncate(s, 32), { fill: MUTED }))
  })
  for (const t of y.ticks(5)) {
    body.push(line(left, y(t), width - 16, y(t), { stroke: GRID }))
    body.push(text(left - 6, y(t) + 3, percent(t, 0), { 'text-anchor': 'end', fill: MUTED, 'font-size': 10, class: 'axis-label' }))
  }
  if (typeof options.reference === 'number') {
    body.push(line(left, y(options.reference), width - 16, y(options.reference), { 'stroke-dasharray': '4 3', stroke: INK }))
    if (options.referenceLabel) body.push(text(width - 16, top - 8, `- - ${options.referenceLabel}`, { 'text-anchor': 'end', fill: MUTED, 'font-size': 10 }))
  }
  for (const bar of bars) {
    const gx = x(bar.label) ?? left
    const bx = gx + (inner(bar.series) ?? 0)
    const tip = el('title', {}, escapeXml(`${bar.series}, ${bar.label}: ${percent(bar.value)} (${bar.note})`))
    if (bar.value !== null) {
      body.push(el('rect', { x: bx, y: y(bar.value), width: Math.max(0, bw), height: Math.max(0, y(0) - y(bar.value)), fill: colourOf.get(bar.series), opacity: 0.85, 'data-value': bar.value, 'data-source': bar.source }, tip))
      if (bar.ciLow !== null && bar.ciHigh !== null) {
        const cx = bx + bw / 2
        body.push(line(cx, y(bar.ciLow), cx, y(bar.ciHigh), { 'stroke-width': 1.5 }))
        body.push(line(cx - 3, y(bar.ciLow), cx + 3, y(bar.ciLow)), line(cx - 3, y(bar.ciHigh), cx + 3, y(bar.ciHigh)))
      }
    }
    if (notesFit) body.push(text(bx + bw / 2, y(0) + 11, bar.note, { 'text-anchor': 'middle', 'font-size': 8, fill: MUTED, class: 'axis-label' }))
  }
  const labelY = y(0) + notesDepth + 14
  groups.forEach((g, i) => {
    const cx = (x(g) ?? 0) + x.bandwidth() / 2
    const label = groupLabels[i] as string
    body.push(
      slanted
        ? text(cx, labelY, label, { 'text-anchor': 'end', class: 'axis-label', transform: `rotate(-36 ${round(cx)} ${round(labelY)})` })
        : text(cx, labelY, label, { 'text-anchor': 'middle', class: 'axis-label' })
    )
  })
  body.push(line(left, y(0), width - 16, y(0), { stroke: INK }))
  const description = bars.map((b) => `${b.label}, ${b.series}: ${percent(b.value)} (${b.note})`).join('; ')
  return svgDocument(width, height, options.title, description, body)
}
