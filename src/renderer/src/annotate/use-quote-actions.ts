import { useCallback } from 'react'
import { containsSpan } from '../../../shared/instruments/common'
import { selectedText } from './dom'
import { getAt, joinPath, parentPath, removeAt, setAt } from './paths'
import { quoteProblem, quoteSources, sideOfSource, sourceLabel, type QuoteCandidate, type QuoteSource, type QuoteWidget } from './quotes'
import { selectionSpan } from './source-span'
import type { Stop } from './stops'
import type { FieldIssue } from './validate'

type QuoteStop = Extract<Stop, { kind: 'field' }> & { widget: QuoteWidget }

export interface QuoteActionsDeps {
  view: Record<string, unknown>
  data: unknown
  stops: ReadonlyArray<Stop>
  update(change: (d: unknown) => unknown): void
  clearAt(path: string): void
  setNote(issue: FieldIssue): void
  setCursor(path: string): void
  focusStop(path: string): void
  openPickerDialog(path: string, sources: QuoteSource[]): void
}

/** Where a quote's offsets are kept (the widget's span field beside it), or null. */
export function spanPathOf(path: string, widget: QuoteWidget): string | null {
  return widget.spanField && !widget.many ? joinPath(parentPath(path), widget.spanField) : null
}

/** Taking quotes for a quote field: from the selection on the page (e) or from the sentence picker (/). */
export function useQuoteActions(deps: QuoteActionsDeps) {
  const { view, data, stops, update, clearAt, setNote, setCursor, focusStop, openPickerDialog } = deps

  /** The quote field the cursor is on, else the first one of its group, else the first one of the form. */
  const quoteStopFor = useCallback(
    (path: string | null): QuoteStop | undefined => {
      const isQuote = (s: Stop | undefined): s is QuoteStop => s?.kind === 'field' && s.widget.kind === 'quote'
      const here = stops.find((s) => s.path === path)
      if (isQuote(here)) return here
      const group = here?.group ?? null
      return stops.filter(isQuote).find((s) => group === null || s.group === group) ?? stops.find(isQuote)
    },
    [stops]
  )

  /**
   * Puts a quote in place with its offsets where known; where the entry's side is still open and the quote comes
   * from one side, sets it.
   */
  const applyQuote = useCallback(
    (path: string, widget: QuoteWidget, text: string, sourcePath: string | null, at: { start: number; end: number } | null) => {
      clearAt(path)
      update((d) => {
        const current = getAt(d, path)
        let next = widget.many ? setAt(d, path, [...(Array.isArray(current) ? current : []), text]) : setAt(d, path, text)
        const spanPath = spanPathOf(path, widget)
        if (spanPath) next = at ? setAt(next, spanPath, at) : removeAt(next, spanPath)
        const side = sourcePath ? sideOfSource(sourcePath) : null
        const sidePath = joinPath(parentPath(path), 'side')
        if (side && parentPath(path) !== '' && getAt(d, sidePath) === null) next = setAt(next, sidePath, side)
        return next
      })
    },
    [clearAt, update]
  )

  const sourcesFor = useCallback((path: string, widget: QuoteWidget) => quoteSources(widget, view, getAt(data, parentPath(path))), [view, data])

  const addSelection = useCallback(
    (path: string) => {
      const stop = quoteStopFor(path)
      if (!stop) return
      const widget = stop.widget
      const sources = sourcesFor(stop.path, widget)
      const note = (message: string) => {
        setNote({ path: stop.path, message })
        focusStop(stop.path)
      }
      const textOf = (source: string) => {
        const t = getAt(view, source)
        return typeof t === 'string' ? t : undefined
      }
      // Quotable text on screen maps back to its source through the renderer's offsets.
      const mapped = selectionSpan(window.getSelection(), textOf)
      if (mapped && 'problem' in mapped) return note(mapped.problem)
      if (mapped) {
        const { source, start, end } = mapped.span
        const own = sources.find((s) => s.path === source)
        if (!own) {
          const allowed = sources.map((s) => s.label).join(' or ') || 'the shown text'
          return note(`This quote must come from ${allowed}; the selection is in ${sourceLabel(source)}.`)
        }
        applyQuote(stop.path, widget, own.text.slice(start, end), source, { start, end })
        focusStop(stop.path)
        return
      }
      // Selected words elsewhere (a unit's text in the form): taken as typed, and held to the same exact-quote rule.
      const text = selectedText().replace(/\s+/g, ' ').trim()
      if (!text) return note('Select words in the text first, then press e.')
      const sideFixed = sources.length < widget.source.length
      const problem = quoteProblem(widget, text, sources, sideFixed)
      if (problem) return note(`The selection is not exact: ${problem}`)
      const from = sources.find((s) => containsSpan(s.text, text))
      applyQuote(stop.path, widget, text, from?.path ?? null, null)
      focusStop(stop.path)
    },
    [quoteStopFor, sourcesFor, applyQuote, focusStop, setNote, view]
  )

  const openPicker = useCallback(
    (path: string) => {
      const stop = quoteStopFor(path)
      if (!stop) return
      setCursor(stop.path)
      openPickerDialog(stop.path, sourcesFor(stop.path, stop.widget))
    },
    [quoteStopFor, sourcesFor, setCursor, openPickerDialog]
  )

  const pick = useCallback(
    (path: string, c: QuoteCandidate) => {
      const stop = stops.find((s) => s.path === path)
      if (stop?.kind === 'field' && stop.widget.kind === 'quote') {
        // A picked sentence is a span of its source; the typed words are kept where they occur exactly.
        const start = c.source.text.indexOf(c.text)
        applyQuote(path, stop.widget, c.text, c.source.path, start >= 0 ? { start, end: start + c.text.length } : null)
      }
      focusStop(path)
    },
    [stops, applyQuote, focusStop]
  )

  return { addSelection, openPicker, pick }
}
