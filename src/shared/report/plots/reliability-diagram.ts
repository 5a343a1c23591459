import { scaleLinear } from 'd3-scale'
import { max } from 'd3-array'
import { el, emptyPlot, GRID, INK, labelWidth, line, MUTED, PALETTE, percent, rect, svgDocument, text } from './svg'

export interface ReliabilityBinData {
  lower: number
  upper: number
  count: number
  meanPredicted: number
  observedFrequency: number
}

/**
 * Reliability diagram: observed frequency against mean predicted probability per bin, with the diagonal of perfect
 * calibration, and the number of forecasts in each bin drawn and written underneath (a bin of 3 says little).
 */
export function reliabilityDiagram(bins: readonly ReliabilityBinData[], options: { title: string; ece?: number | null; size?: number; source?: string; colour?: string }): string {
  if (bins.length === 0) return emptyPlot(options.title, 'No forecasts with an outcome to calibrate.')
  const size = options.size ?? 260
  const left = 56
  const top = 36
  const histogram = 64
  // Wide enough for its title: a plot saved on its own keeps the title it was drawn with.
  const width = Math.max(left + size + 30, labelWidth([options.title], 13) + 24)
  const height = top + size + 36 + histogram + 28
  const x = scaleLinear().domain([0, 1]).range([left, left + size])
  const y = scaleLinear().domain([0, 1]).range([top + size, top])
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]
  for (const t of x.ticks(5)) {
    body.push(line(x(t), top, x(t), top + size, { stroke: GRID }), line(left, y(t), left + size, y(t), { stroke: GRID }))
    body.push(text(x(t), top + size + 14, t.toFixed(1), { 'text-anchor': 'middle', fill: MUTED, 'font-size': 10, class: 'axis-label' }))
    body.push(text(left - 6, y(t) + 3, t.toFixed(1), { 'text-anchor': 'end', fill: MUTED, 'font-size': 10, class: 'axis-label' }))
  }
  body.push(line(x(0), y(0), x(1), y(1), { stroke: MUTED, 'stroke-dasharray': '4 3' }))
  body.push(rect(left, top, size, size, { fill: 'none', stroke: INK }))
  body.push(text(left + size / 2, top + size + 30, 'mean predicted probability', { 'text-anchor': 'middle', fill: MUTED }))
  body.push(text(14, top + size / 2, 'observed frequency', { 'text-anchor': 'middle', fill: MUTED, transform: `rotate(-90 14 ${top + size / 2})` }))
  const points = bins.map((b) => `${x(b.meanPredicted).toFixed(2)},${y(b.observedFrequency).toFixed(2)}`).join(' ')
  const colour = options.colour ?? PALETTE[0]
  body.push(el('polyline', { points, fill: 'none', stroke: colour, 'stroke-width': 1.5, 'data-source': options.source }))
  const largest = max(bins, (b) => b.count) ?? 1
  for (const b of bins) {
    body.push(el('circle', { cx: x(b.meanPredicted), cy: y(b.observedFrequency), r: 3 + 4 * Math.sqrt(b.count / largest), fill: colour, 'data-count': b.count, 'data-source': options.source }))
  }
  // Counts per bin, on the same probability axis.
  const base = top + size + 36 + histogram
  const h = scaleLinear().domain([0, largest]).range([0, histogram - 14])
  for (const b of bins) {
    const barHeight = h(b.count)
    body.push(rect(x(b.lower) + 1, base - barHeight, x(b.upper) - x(b.lower) - 2, barHeight, { fill: colour, opacity: 0.45, 'data-count': b.count, 'data-source': options.source }))
    body.push(text((x(b.lower) + x(b.upper)) / 2, base - barHeight - 3, String(b.count), { 'text-anchor': 'middle', 'font-size': 9 }))
  }
  body.push(line(left, base, left + size, base, { stroke: INK }))
  body.push(text(left, base + 16, `forecasts per bin${typeof options.ece === 'number' ? ` · ECE ${options.ece.toFixed(3)}` : ''}`, { fill: MUTED, 'font-size': 10 }))
  const description = bins
    .map((b) => `bin ${b.lower.toFixed(1)}–${b.upper.toFixed(1)}: ${b.count} forecasts, predicted ${percent(b.meanPredicted)}, observed ${percent(b.observedFrequency)}`)
    .join('; ')
  return svgDocument(width, height, options.title, description, body)
}
