import { scaleLinear } from 'd3-scale'
import { el, line, MUTED, GRID, percent, rect, svgDocument, text } from './svg'

export interface GaugeData {
  value: number | null
  ciLow: number | null
  ciHigh: number | null
  majorityBaseline: number | null
  randomBaseline: number | null
  source: string
  colour: string
}

/**
 * A summary card's accuracy at a glance: the bar in the source's colour with its interval, the majority baseline
 * (solid tick) and the random baseline (dashed tick) on one 0–100% track.
 */
export function accuracyGauge(data: GaugeData, options: { title: string; width?: number }): string {
  const width = options.width ?? 240
  const height = 34
  const x = scaleLinear().domain([0, 1]).range([6, width - 6])
  const y = 12
  const body: string[] = [rect(x(0), y - 5, x(1) - x(0), 10, { fill: GRID, rx: 2 })]
  if (data.value !== null) {
    body.push(rect(x(0), y - 5, x(data.value) - x(0), 10, { fill: data.colour, rx: 2, 'data-value': data.value, 'data-source': data.source }))
    if (data.ciLow !== null && data.ciHigh !== null) body.push(line(x(data.ciLow), y, x(data.ciHigh), y, { 'stroke-width': 1.5 }))
  }
  if (data.majorityBaseline !== null) body.push(line(x(data.majorityBaseline), y - 9, x(data.majorityBaseline), y + 9, { 'stroke-width': 2.5 }))
  if (data.randomBaseline !== null) body.push(line(x(data.randomBaseline), y - 9, x(data.randomBaseline), y + 9, { 'stroke-dasharray': '3 2', 'stroke-width': 1.5 }))
  body.push(text(x(0), height - 2, '0%', { fill: MUTED, 'font-size': 9, class: 'axis-label' }))
  body.push(text(x(1), height - 2, '100%', { fill: MUTED, 'font-size': 9, 'text-anchor': 'end', class: 'axis-label' }))
  const description = `accuracy ${percent(data.value)}, majority baseline ${percent(data.majorityBaseline)}, random baseline ${percent(data.randomBaseline)}`
  return svgDocument(width, height, options.title, description, [el('g', { class: 'gauge' }, body)])
}
