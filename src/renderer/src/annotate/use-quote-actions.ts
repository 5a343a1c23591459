import { useCallback } from 'react'
import { containsSpan } from '../../../shared/instruments/common'
import { selectedText } from './dom'
import { getAt, joinPath, parentPath, setAt } from './paths'
import { quoteProblem, quoteSources, sideOfSource, type QuoteCandidate, type QuoteSource, type QuoteWidget } from './quotes'
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

  /** Puts a quote in place; where the entry's side is still open and the quote comes from one side, sets it. */
  const applyQuote = useCallback(
    (path: string, widget: QuoteWidget, text: string, sourcePath: string | null) => {
      clearAt(path)
      update((d) => {
        const current = getAt(d, path)
        let next = widget.many ? setAt(d, path, [...(Array.isArray(current) ? current : []), text]) : setAt(d, path, text)
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
      const text = selectedText().replace(/\s+/g, ' ').trim()
      const sources = sourcesFor(stop.path, widget)
      if (!text) {
        setNote({ path: stop.path, message: 'Select words in the text first, then press e.' })
        return
      }
      const sideFixed = sources.length < widget.source.length
      const problem = quoteProblem(widget, text, sources, sideFixed)
      if (problem) {
        setNote({ path: stop.path, message: `The selection is not exact: ${problem}` })
        focusStop(stop.path)
        return
      }
      const from = sources.find((s) => containsSpan(s.text, text))
      applyQuote(stop.path, widget, text, from?.path ?? null)
      focusStop(stop.path)
    },
    [quoteStopFor, sourcesFor, applyQuote, focusStop, setNote]
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
      if (stop?.kind === 'field' && stop.widget.kind === 'quote') applyQuote(path, stop.widget, c.text, c.source.path)
      focusStop(path)
    },
    [stops, applyQuote, focusStop]
  )

  return { addSelection, openPicker, pick }
}
