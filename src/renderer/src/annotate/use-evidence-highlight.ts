import { useLayoutEffect, useRef, type RefObject } from 'react'
import type { Widget } from '../../../shared/instruments/types'
import { getAt, parentPath } from './paths'
import { quoteSources } from './quotes'
import { rangesFor, type SourceSpan } from './source-span'
import { spanPathOf } from './use-quote-actions'
import { eachWidget } from './validate'

// Quotes already in the answer are highlighted where they sit in the text (CSS custom highlights, so the rendered
// Markdown and maths stay untouched); the quotes of the entry under the cursor stand out, and moving to an entry
// scrolls its evidence into view.

const ALL = 'assay-evidence'
const CURRENT = 'assay-evidence-current'

interface Placed {
  span: SourceSpan
  /** The entry (or field) the quote belongs to: the cursor inside it makes it current. */
  group: string
}

function isSpan(v: unknown): v is { start: number; end: number } {
  return v !== null && typeof v === 'object' && typeof (v as { start?: unknown }).start === 'number' && typeof (v as { end?: unknown }).end === 'number'
}

/** Where every quote of the answer sits: its stored offsets where they still hold, else its first exact occurrence. */
export function placeQuotes(widgets: ReadonlyArray<Widget>, view: Record<string, unknown>, data: unknown): Placed[] {
  const out: Placed[] = []
  eachWidget(widgets, data, (w, path, entry) => {
    if (w.kind !== 'quote') return
    const value = getAt(data, path)
    const quotes = (Array.isArray(value) ? value : [value]).filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    const sources = quoteSources(w, view, entry)
    const spanPath = spanPathOf(path, w)
    const at = spanPath ? getAt(data, spanPath) : undefined
    const group = parentPath(path) || path
    for (const quote of quotes) {
      const exact = isSpan(at) ? sources.find((s) => s.text.slice(at.start, at.end) === quote) : undefined
      if (exact && isSpan(at)) {
        out.push({ span: { source: exact.path, start: at.start, end: at.end }, group })
        continue
      }
      for (const s of sources) {
        const start = s.text.indexOf(quote)
        if (start >= 0) {
          out.push({ span: { source: s.path, start, end: start + quote.length }, group })
          break
        }
      }
    }
  })
  return out
}

function inGroup(cursor: string | null, group: string): boolean {
  return cursor !== null && (cursor === group || cursor.startsWith(`${group}.`))
}

export function useEvidenceHighlight(
  root: RefObject<HTMLElement | null>,
  widgets: ReadonlyArray<Widget>,
  view: Record<string, unknown>,
  data: unknown,
  cursor: string | null,
  /** The highlights are the page's, one set for the item on screen: an item held behind it draws none. */
  live = true
): void {
  const lastGroup = useRef<string | null>(null)
  useLayoutEffect(() => {
    const box = root.current
    if (!live || !box || typeof Highlight === 'undefined' || !('highlights' in CSS)) return
    const placed = placeQuotes(widgets, view, data)
    const textOf = (source: string) => {
      const t = getAt(view, source)
      return typeof t === 'string' ? t : ''
    }
    const all: Range[] = []
    const current: Range[] = []
    let currentGroup: string | null = null
    for (const p of placed) {
      const ranges = rangesFor(box, p.span, textOf(p.span.source))
      if (inGroup(cursor, p.group)) {
        current.push(...ranges)
        currentGroup = p.group
      } else all.push(...ranges)
    }
    CSS.highlights.set(ALL, new Highlight(...all))
    CSS.highlights.set(CURRENT, new Highlight(...current))
    // Moving to an entry brings its evidence into view once, not on every key typed inside it.
    if (currentGroup !== lastGroup.current && current[0]) {
      const rect = current[0].getBoundingClientRect()
      const frame = box.getBoundingClientRect()
      if (rect.top < frame.top || rect.bottom > frame.bottom) box.scrollBy({ top: rect.top - frame.top - frame.height / 3 })
    }
    lastGroup.current = currentGroup
  }, [live, root, widgets, view, data, cursor])

  // Cleared in the layout phase, before the next item sets its own (a passive cleanup would run after it).
  useLayoutEffect(() => {
    if (!live) return
    return () => {
      if (typeof CSS !== 'undefined' && 'highlights' in CSS) {
        CSS.highlights.delete(ALL)
        CSS.highlights.delete(CURRENT)
      }
    }
  }, [live])
}
