/**
 * Minimal SVG writing for the report's plots: escaped text, attributes in a stable order, fixed fonts and colours,
 * so a plot is the same string wherever it is drawn (HTML report, report screen, exported file).
 */

/** Okabe–Ito colours: distinguishable with every common colour-vision deficiency, and in greyscale print. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#F0E442'] as const
export const INK = '#1d1f21'
export const MUTED = '#6b6f73'
export const GRID = '#e4e2dc'
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

type AttributeValue = string | number | null | undefined

function attributes(attrs: Record<string, AttributeValue>): string {
  return Object.entries(attrs)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(typeof v === 'number' ? round(v) : (v as string))}"`)
    .join('')
}

/** Coordinates to 2 decimals: enough for any screen or print, and stable across platforms. */
export function round(v: number): string {
  return String(Math.round(v * 100) / 100)
}

export function el(name: string, attrs: Record<string, AttributeValue>, children: string | string[] = ''): string {
  const body = Array.isArray(children) ? children.join('') : children
  return body ? `<${name}${attributes(attrs)}>${body}</${name}>` : `<${name}${attributes(attrs)}/>`
}

export function text(x: number, y: number, content: string, attrs: Record<string, AttributeValue> = {}): string {
  return el('text', { x, y, fill: INK, 'font-size': 11, ...attrs }, escapeXml(content))
}

export function line(x1: number, y1: number, x2: number, y2: number, attrs: Record<string, AttributeValue> = {}): string {
  return el('line', { x1, y1, x2, y2, stroke: INK, 'stroke-width': 1, ...attrs })
}

export function rect(x: number, y: number, width: number, height: number, attrs: Record<string, AttributeValue> = {}): string {
  return el('rect', { x, y, width: Math.max(0, width), height: Math.max(0, height), ...attrs })
}

/** A complete standalone SVG document: sized, titled and described for screen readers. */
export function svgDocument(width: number, height: number, title: string, description: string, body: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${round(width)}" height="${round(height)}" viewBox="0 0 ${round(width)} ${round(height)}"` +
    ` role="img" font-family="${escapeXml(FONT)}">` +
    `<title>${escapeXml(title)}</title><desc>${escapeXml(description)}</desc>` +
    rect(0, 0, width, height, { fill: '#ffffff' }) +
    body.join('') +
    `</svg>`
  )
}

/** Approximate width of a label at 11px: keeps long source names from running into the plot. */
export function labelWidth(labels: readonly string[], fontSize = 11): number {
  return Math.max(0, ...labels.map((l) => l.length * fontSize * 0.58))
}

/**
 * A label cut to `max` characters. A source's name ends with what tells it from its neighbours ("· fit 8", "· run 16"),
 * so a name of " · " parts keeps its first and last parts and gives up the middle; other labels lose their end.
 */
export function truncate(label: string, max = 42): string {
  if (label.length <= max) return label
  const parts = label.split(' · ')
  if (parts.length >= 3) {
    const first = parts[0] as string
    const last = parts[parts.length - 1] as string
    const kept = `${first} · … · ${last}`
    if (kept.length <= max) {
      // As many middle parts as fit, from the start, before the ellipsis.
      let head = first
      for (const part of parts.slice(1, -1)) {
        if (`${head} · ${part} · … · ${last}`.length > max) break
        head = `${head} · ${part}`
      }
      return `${head} · … · ${last}`
    }
  }
  return `${label.slice(0, max - 1)}…`
}

export function percent(v: number | null | undefined, digits = 1): string {
  return typeof v === 'number' ? `${(100 * v).toFixed(digits)}%` : 'n/a'
}

/** A message in place of a plot that has nothing to draw. */
export function emptyPlot(title: string, message: string, width = 480): string {
  return svgDocument(width, 60, title, message, [text(12, 34, message, { fill: MUTED, 'font-size': 12 })])
}
