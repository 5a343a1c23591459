import { emptyPlot, GRID, INK, labelWidth, MUTED, rect, round, svgDocument, text, truncate } from './svg'

export interface ConfusionData {
  categories: ReadonlyArray<string | number | boolean>
  /** counts[i][j]: units the criterion put in category i and the source in category j. */
  counts: ReadonlyArray<ReadonlyArray<number>>
  rowTitle: string
  columnTitle: string
}

/** Shade of a cell by its share of its row: white at 0, the source's colour at 1. */
function shade(share: number, colour: string): string {
  const from = [255, 255, 255]
  const to = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16))
  const mix = from.map((f, k) => Math.round(f + (((to[k] as number) - f) * share)))
  return `rgb(${mix.join(',')})`
}

/**
 * Confusion matrix as a heatmap: rows are the criterion's categories, columns the source's; each cell shows its
 * count and is shaded by its share of the row (the recall of that category), so rare categories stay readable.
 */
export function confusionHeatmap(data: ConfusionData, options: { title: string; cell?: number; colour?: string }): string {
  const n = data.categories.length
  const total = data.counts.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0)
  if (n === 0 || total === 0) return emptyPlot(options.title, 'No units rated by both to cross-tabulate.')
  const cell = options.cell ?? Math.max(36, Math.min(64, Math.floor(360 / n)))
  const labels = data.categories.map((c) => truncate(String(c), 24))
  // Column labels wider than a cell are set at an angle.
  const longest = labelWidth(labels, 10)
  const slanted = longest > cell - 4
  const left = labelWidth(labels, 10) + 34
  const top = 56 + (slanted ? longest * 0.6 : 14)
  const caption = `${total} units · shade = share of the row · outlined = agreement`
  const width = Math.max(left + n * cell + 24, labelWidth([options.title], 13) + 24, left + labelWidth([caption], 10) + 12)
  const height = top + n * cell + 40
  const body: string[] = [text(12, 20, options.title, { 'font-size': 13, 'font-weight': 600 })]
  body.push(text(left + (n * cell) / 2, 40, `${data.columnTitle} →`, { 'text-anchor': 'middle', fill: MUTED }))
  body.push(text(14, top + (n * cell) / 2, `${data.rowTitle} ↓`, { fill: MUTED, transform: `rotate(-90 14 ${round(top + (n * cell) / 2)})`, 'text-anchor': 'middle' }))
  labels.forEach((label, j) => {
    const cx = left + j * cell + cell / 2
    body.push(
      slanted
        ? text(cx, top - 8, label, { 'text-anchor': 'start', 'font-size': 10, class: 'axis-label', transform: `rotate(-35 ${round(cx)} ${round(top - 8)})` })
        : text(cx, top - 8, label, { 'text-anchor': 'middle', 'font-size': 10, class: 'axis-label' })
    )
  })
  data.counts.forEach((row, i) => {
    const rowTotal = row.reduce((a, b) => a + b, 0)
    body.push(text(left - 6, top + i * cell + cell / 2 + 4, labels[i] ?? '', { 'text-anchor': 'end', 'font-size': 10, class: 'axis-label' }))
    row.forEach((count, j) => {
      const share = rowTotal === 0 ? 0 : count / rowTotal
      body.push(
        rect(left + j * cell, top + i * cell, cell, cell, {
          fill: shade(share, options.colour ?? '#0072B2'),
          stroke: i === j ? INK : GRID,
          'stroke-width': i === j ? 1.5 : 1,
          'data-count': count
        })
      )
      body.push(text(left + j * cell + cell / 2, top + i * cell + cell / 2 + 4, String(count), { 'text-anchor': 'middle', fill: share > 0.55 ? '#ffffff' : INK }))
    })
  })
  body.push(text(left, top + n * cell + 22, caption, { fill: MUTED, 'font-size': 10 }))
  const description = `Rows ${data.rowTitle}, columns ${data.columnTitle}: ` +
    data.counts.map((row, i) => `${String(data.categories[i])}: ${row.join(', ')}`).join('; ')
  return svgDocument(width, height, options.title, description, body)
}
