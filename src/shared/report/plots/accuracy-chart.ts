import { scaleLinear } from 'd3-scale'
import { el, emptyPlot, escapeXml, GRID, INK, labelWidth, line, MUTED, PALETTE, percent, rect, svgDocument, text, truncate } from './svg'

export interface AccuracyBar {
  label: string
  value: number | null
  ciLow: number | null
  ciHigh: number | null
  /** Accuracy of always answering the criterion's most frequent label. */
  majorityBaseline: number | null
  randomBaseline: number | null
  /** Shown beside the value, e.g. "95/152". */
  note?: string
  /** Why there is no value (no judged unit), said where the bar would be. */
  reason?: string
  /** The source's id and its fixed colour (see colours.ts). */
  source?: string
  colour?: string
}

const WARN = '#a4452c'

function valueLabel(bar: AccuracyBar): string {
  if (bar.value === null) return ''
  const below = bar.majorityBaseline !== null && bar.value < bar.majorityBaseline
  return `${percent(bar.value)}${bar.note ? ` (${bar.note})` : ''}${below ? ' < majority' : ''}`
}

/**
 * Accuracy of each source with its interval, the majority-label baseline (solid tick) and the random baseline
 * (dashed tick) on the same row, so a judge below what always-pick-the-majority would score is visible at once.
 */
export function accuracyChart(bars: readonly AccuracyBar[], options: { title: string; intervalLabel?: string; width?: number }): string {
  if (bars.length === 0) return emptyPlot(options.title, 'No accuracy to show: no source was scored against a criterion.')
  const labels = bars.map((bar) => valueLabel(bar))
  const right = Math.max(96, labelWidth(labels) + 16)
  const left = Math.min(260, labelWidth(bars.map((b) => truncate(b.label))) + 16)
  const width = Math.max(options.width ?? 680, left + right + 260)
  const top = 52
  const rowHeight = 30
  const height = top + bars.length * rowHeight + 36
  const x = scaleLinear().domain([0, 1]).range([left, width - right])
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]

  // Legend, laid out left to right by the length of each entry.
  const legendY = 38
  let lx = 12
  const entry = (mark: string, label: string) => {
    body.push(mark, text(lx + 20, legendY, label, { fill: MUTED }))
    lx += 20 + labelWidth([label]) + 18
  }
  entry(rect(lx, legendY - 8, 14, 9, { fill: MUTED, opacity: 0.85 }), 'accuracy (colour: source)')
  entry(line(lx, legendY - 4, lx + 14, legendY - 4, { stroke: INK, 'stroke-width': 1.5 }), options.intervalLabel ?? '95% interval')
  entry(line(lx + 7, legendY - 10, lx + 7, legendY + 2, { stroke: INK, 'stroke-width': 2.5 }), 'majority baseline')
  entry(line(lx + 7, legendY - 10, lx + 7, legendY + 2, { stroke: INK, 'stroke-dasharray': '3 2', 'stroke-width': 1.5 }), 'random baseline')

  const plotBottom = top + bars.length * rowHeight
  for (const tick of x.ticks(5)) {
    body.push(line(x(tick), top - 4, x(tick), plotBottom, { stroke: GRID }))
    body.push(text(x(tick), plotBottom + 16, percent(tick, 0), { 'text-anchor': 'middle', fill: MUTED, class: 'axis-label' }))
  }
  bars.forEach((bar, i) => {
    const y = top + i * rowHeight + rowHeight / 2
    const colour = bar.colour ?? (PALETTE[i % PALETTE.length] as string)
    body.push(text(left - 8, y + 4, truncate(bar.label), { 'text-anchor': 'end', class: 'axis-label' }))
    if (bar.value === null) {
      // The reason in short where the bar would be, whole on hover.
      const why = bar.reason ?? 'no judged unit'
      body.push(el('g', {}, [el('title', {}, escapeXml(why)), text(x(0) + 4, y + 4, `no value: ${why.length > 48 ? `${why.slice(0, 47)}…` : why}`, { fill: MUTED, 'font-style': 'italic' })]))
      return
    }
    body.push(rect(x(0), y - 7, x(bar.value) - x(0), 14, { fill: colour, opacity: 0.85, 'data-value': bar.value, 'data-source': bar.source }))
    if (bar.ciLow !== null && bar.ciHigh !== null) {
      body.push(line(x(bar.ciLow), y, x(bar.ciHigh), y, { 'stroke-width': 1.5 }))
      body.push(line(x(bar.ciLow), y - 4, x(bar.ciLow), y + 4), line(x(bar.ciHigh), y - 4, x(bar.ciHigh), y + 4))
    }
    if (bar.majorityBaseline !== null) body.push(line(x(bar.majorityBaseline), y - 11, x(bar.majorityBaseline), y + 11, { 'stroke-width': 2.5 }))
    if (bar.randomBaseline !== null) body.push(line(x(bar.randomBaseline), y - 11, x(bar.randomBaseline), y + 11, { 'stroke-dasharray': '3 2', 'stroke-width': 1.5 }))
    const below = bar.majorityBaseline !== null && bar.value < bar.majorityBaseline
    body.push(text(width - right + 8, y + 4, valueLabel(bar), { fill: below ? WARN : INK }))
  })
  body.push(line(x(0), top - 4, x(0), plotBottom, { stroke: INK }))
  const description = bars
    .map((b) => `${b.label}: ${percent(b.value)}${b.ciLow !== null ? ` [${percent(b.ciLow)}, ${percent(b.ciHigh)}]` : ''}, majority baseline ${percent(b.majorityBaseline)}`)
    .join('; ')
  return svgDocument(width, height, options.title, description, [el('g', { class: 'accuracy-chart' }, body)])
}
