import { scaleLinear } from 'd3-scale'
import { el, emptyPlot, escapeXml, GRID, INK, labelWidth, line, MUTED, PALETTE, percent, rect, svgDocument, text, truncate } from './svg'

export interface PositionRow {
  label: string
  /** Share of answered calls that picked the proposal shown first (0.5 without position bias). */
  firstPreference: number | null
  firstLow: number | null
  firstHigh: number | null
  /** Consistency of compared: the same canonical verdict in both orders among the pairs read in both (errors left out). */
  consistency: number | null
  consistencyLow: number | null
  consistencyHigh: number | null
  /** Why the first-position preference has no value. */
  firstReason?: string
  source?: string
  colour?: string
}

/**
 * Position bias per source: first-position preference around the no-bias line at 50%, and the share of pairs whose
 * verdict survives swapping the display order.
 */
export function positionBiasChart(rows: readonly PositionRow[], options: { title: string; width?: number }): string {
  if (rows.length === 0) return emptyPlot(options.title, 'No source recorded which proposal it was shown first.')
  const width = options.width ?? 680
  const left = Math.min(240, labelWidth(rows.map((r) => truncate(r.label))) + 16)
  const gap = 44
  const panel = (width - left - gap - 56) / 2
  const top = 56
  const rowHeight = 28
  const height = top + rows.length * rowHeight + 36
  const first = scaleLinear().domain([0, 1]).range([left, left + panel])
  const consistent = scaleLinear().domain([0, 1]).range([left + panel + gap, left + 2 * panel + gap])
  const bottom = top + rows.length * rowHeight
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]
  body.push(text(left, 42, 'picked the proposal shown first', { fill: MUTED }))
  // The position table's "Consistency of compared", not its "Consistency" (which keeps errors in).
  body.push(text(left + panel + gap, 42, 'consistency of compared (errors left out)', { fill: MUTED }))
  for (const scale of [first, consistent]) {
    for (const t of scale.ticks(4)) {
      body.push(line(scale(t), top - 4, scale(t), bottom, { stroke: GRID }))
      body.push(text(scale(t), bottom + 16, percent(t, 0), { 'text-anchor': 'middle', fill: MUTED, 'font-size': 10, class: 'axis-label' }))
    }
  }
  body.push(line(first(0.5), top - 6, first(0.5), bottom + 2, { stroke: INK, 'stroke-dasharray': '4 3' }))
  rows.forEach((row, i) => {
    const y = top + i * rowHeight + rowHeight / 2
    body.push(text(left - 8, y + 4, truncate(row.label), { 'text-anchor': 'end', class: 'axis-label' }))
    if (row.firstPreference !== null) {
      body.push(el('circle', { cx: first(row.firstPreference), cy: y, r: 5, fill: row.colour ?? PALETTE[3], 'data-value': row.firstPreference, 'data-source': row.source }))
      if (row.firstLow !== null && row.firstHigh !== null) body.push(line(first(row.firstLow), y, first(row.firstHigh), y, { 'stroke-width': 1.5 }))
      body.push(text(first(row.firstPreference), y - 7, percent(row.firstPreference), { 'text-anchor': 'middle', 'font-size': 9 }))
    } else {
      const why = row.firstReason ?? 'no answered call'
      body.push(el('g', {}, [el('title', {}, escapeXml(why)), text(first(0) + 4, y + 4, `no value: ${why.length > 40 ? `${why.slice(0, 39)}…` : why}`, { fill: MUTED, 'font-style': 'italic', 'font-size': 10 })]))
    }
    if (row.consistency !== null) {
      body.push(rect(consistent(0), y - 7, consistent(row.consistency) - consistent(0), 14, { fill: row.colour ?? PALETTE[2], opacity: 0.85, 'data-value': row.consistency, 'data-source': row.source }))
      if (row.consistencyLow !== null && row.consistencyHigh !== null) {
        body.push(line(consistent(row.consistencyLow), y, consistent(row.consistencyHigh), y, { 'stroke-width': 1.5 }))
      }
      body.push(text(consistent(1) + 6, y + 4, percent(row.consistency), { 'font-size': 9 }))
    } else body.push(text(consistent(0) + 4, y + 4, 'not asked in both orders', { fill: MUTED, 'font-style': 'italic', 'font-size': 10 }))
  })
  const description = rows
    .map((r) => `${r.label}: picked first ${percent(r.firstPreference)}, consistency of compared ${percent(r.consistency)}`)
    .join('; ')
  return svgDocument(width, height, options.title, description, body)
}
