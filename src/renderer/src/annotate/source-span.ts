// From what is on screen back to the source text, and from the source to what is on screen. The Markdown renderer
// keeps the parser's offsets on every text run and formula (data-src-start/-end, see shared/markdown.ts); this is
// the only way a selection becomes a quote: the rendered text itself is never searched.

export interface SourceSpan {
  /** View path of the text (`a.markdown`). */
  source: string
  start: number
  end: number
}

const SRC = '[data-src-start]'

function srcRange(el: Element): [number, number] {
  return [Number(el.getAttribute('data-src-start')), Number(el.getAttribute('data-src-end'))]
}

function sourceOf(el: Element): string | null {
  return el.closest('[data-quote-source]')?.getAttribute('data-quote-source') ?? null
}

/**
 * For each character of a rendered run, its index in the run's source. Escapes (`\\_`) and entities (`&amp;`) are
 * longer in the source; characters are matched in order, skipping what rendering dropped.
 */
export function charMap(rendered: string, raw: string): number[] {
  const map: number[] = []
  let j = 0
  for (const ch of rendered) {
    const found = raw.indexOf(ch, j)
    const at = found < 0 ? Math.min(j, raw.length) : found
    // Characters outside the basic plane take two code units in both strings.
    for (let u = 0; u < ch.length; u++) map.push(at + u)
    j = found < 0 ? j : found + ch.length
  }
  return map
}

/** The formula or text run a DOM point lies in, if it lies in one. */
function runAt(node: Node): Element | null {
  const el = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement
  return el?.closest('.md-math') ?? el?.closest(SRC) ?? null
}

/** Every formula and text run of every quotable text on the page, in document order. */
function allRuns(root: ParentNode): Element[] {
  return [...root.querySelectorAll(`[data-quote-source] ${SRC}`)].filter((el) => !el.parentElement?.closest('.md-math'))
}

/**
 * The source offset of one end of a selection: inside a text run, the matching character; inside a formula, the
 * whole formula; between runs (a heading, a margin), the nearest run on the inside of the selection.
 */
function boundary(node: Node, offset: number, edge: 'start' | 'end', text: (source: string) => string | undefined): { source: string; at: number } | null {
  const run = runAt(node)
  if (run && sourceOf(run)) {
    const source = sourceOf(run)!
    const [s, e] = srcRange(run)
    if (run.classList.contains('md-math') || node.nodeType !== Node.TEXT_NODE) return { source, at: edge === 'start' ? s : e }
    const full = text(source)
    if (full === undefined) return null
    const map = charMap((node as Text).data, full.slice(s, e))
    if (edge === 'start') return { source, at: s + (offset < map.length ? map[offset]! : e - s) }
    return { source, at: s + (offset === 0 ? 0 : map[offset - 1]! + 1) }
  }
  const point = document.createRange()
  point.setStart(node, offset)
  const runs = allRuns(document)
  const pick =
    edge === 'start'
      ? runs.find((el) => point.comparePoint(el, 0) >= 0)
      : [...runs].reverse().find((el) => point.comparePoint(el, el.childNodes.length) <= 0)
  if (!pick) return null
  const [s, e] = srcRange(pick)
  return { source: sourceOf(pick)!, at: edge === 'start' ? s : e }
}

export type SelectionResult = { span: SourceSpan } | { problem: string } | null

/**
 * The source span of the page's selection, trimmed of surrounding white space; null where the selection is not in
 * quotable text (the caller may then use the selected words as typed text).
 */
export function selectionSpan(selection: Selection | null, text: (source: string) => string | undefined): SelectionResult {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null
  const range = selection.getRangeAt(0)
  const from = boundary(range.startContainer, range.startOffset, 'start', text)
  const to = boundary(range.endContainer, range.endOffset, 'end', text)
  if (!from || !to) return null
  if (from.source !== to.source) return { problem: 'The selection runs across two texts; select within one.' }
  const full = text(from.source)
  if (full === undefined) return null
  let start = Math.max(0, from.at)
  let end = Math.min(full.length, to.at)
  while (start < end && /\s/.test(full[start]!)) start++
  while (end > start && /\s/.test(full[end - 1]!)) end--
  if (end <= start) return null
  return { span: { source: from.source, start, end } }
}

/** DOM ranges covering a source span, for highlighting: whole formulas, the matching characters of text runs. */
export function rangesFor(root: ParentNode, span: SourceSpan, text: string): Range[] {
  const ranges: Range[] = []
  for (const el of root.querySelectorAll(`[data-quote-source="${CSS.escape(span.source)}"] ${SRC}`)) {
    if (el.parentElement?.closest('.md-math')) continue
    const [s, e] = srcRange(el)
    if (e <= span.start || s >= span.end) continue
    const r = document.createRange()
    const node = el.firstChild
    if (el.classList.contains('md-math') || !node || node.nodeType !== Node.TEXT_NODE) {
      r.selectNodeContents(el)
    } else {
      const map = charMap((node as Text).data, text.slice(s, e))
      const from = map.findIndex((m) => s + m >= span.start)
      let to = map.length
      while (to > 0 && s + map[to - 1]! >= span.end) to--
      if (from < 0 || to <= from) continue
      r.setStart(node, from)
      r.setEnd(node, to)
    }
    ranges.push(r)
  }
  return ranges
}
