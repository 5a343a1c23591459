import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { AnyInstrument } from '../../../shared/instruments/types'
import { focusStopElement } from '../annotate/dom'
import { emptyEntry, type FormApi } from '../annotate/form/context'
import { getAt, isWithin, joinPath, parentPath, removeAt, setAt } from '../annotate/paths'
import type { QuoteSource } from '../annotate/quotes'
import { collectStops, type ListWidget, type Stop } from '../annotate/stops'
import { useCheckRunner } from '../annotate/use-check-runner'
import { useFieldIssues, type PlacedIssues } from '../annotate/use-field-issues'
import { useQuoteActions } from '../annotate/use-quote-actions'
import type { FieldIssue } from '../annotate/validate'

export interface FinalForm {
  api: FormApi
  data: unknown
  stops: ReadonlyArray<Stop>
  cursor: string | null
  placed: PlacedIssues
  picker: { path: string; sources: QuoteSource[] } | null
  closePicker(): void
  pick: ReturnType<typeof useQuoteActions>['pick']
  /** Replaces the whole answer (starting from an annotator's answer or the current decision). */
  replace(data: unknown): void
  setAttempted(on: boolean): void
  setServerIssues(issues: FieldIssue[]): void
  focusStop(path: string): void
}

/**
 * The state of the final-label form: the instrument's own form (the same widgets, quote taking and worked checks as
 * annotation) over one answer, without the annotation queue around it (no autosave, no active time, no skip).
 */
export function useFinalForm(instrument: AnyInstrument, view: Record<string, unknown>, initial: () => unknown): FinalForm {
  const widgets = instrument.form.widgets
  const [data, setData] = useState<unknown>(initial)
  const stops = useMemo(() => collectStops(widgets, data, view), [widgets, data, view])
  const [cursor, setCursor] = useState<string | null>(() => stops[0]?.path ?? null)
  const [attempted, setAttempted] = useState(false)
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>([])
  const [notes, setNotes] = useState<FieldIssue[]>([])
  const [picker, setPicker] = useState<{ path: string; sources: QuoteSource[] } | null>(null)
  const pendingFocus = useRef<string | null>(null)

  useLayoutEffect(() => {
    if (pendingFocus.current && focusStopElement(pendingFocus.current)) pendingFocus.current = null
  })

  const update = useCallback((change: (d: unknown) => unknown) => setData((d: unknown) => change(d)), [])

  const clearAt = useCallback((path: string) => {
    const keep = (i: FieldIssue) => !isWithin(i.path, path) && !isWithin(path, i.path)
    setServerIssues((list) => (list.some((i) => !keep(i)) ? list.filter(keep) : list))
    setNotes((list) => (list.some((i) => !keep(i)) ? list.filter(keep) : list))
  }, [])
  const addNote = useCallback((issue: FieldIssue) => setNotes((n) => [...n, issue]), [])
  const setNote = useCallback((issue: FieldIssue) => setNotes((n) => [...n.filter((i) => i.path !== issue.path), issue]), [])

  const setValue = useCallback(
    (path: string, value: unknown) => {
      clearAt(path)
      setData((d: unknown) => (value === undefined ? removeAt(d, path) : setAt(d, path, value)))
    },
    [clearAt]
  )

  const focusStop = useCallback((path: string) => {
    setCursor(path)
    if (focusStopElement(path)) {
      pendingFocus.current = null
      return
    }
    // A stop that appears with this change (a new entry) is focused once rendered.
    pendingFocus.current = path
  }, [])

  const extra = useMemo(() => [...serverIssues, ...notes], [serverIssues, notes])
  const placed = useFieldIssues(instrument, data, view, stops, attempted, extra)
  const openPickerDialog = useCallback((path: string, sources: QuoteSource[]) => setPicker({ path, sources }), [])
  const quotes = useQuoteActions({ view, data, stops, update, clearAt, setNote, setCursor, focusStop, openPickerDialog })
  const { runCheck, running } = useCheckRunner(data, update, clearAt, addNote)

  const addEntry = useCallback(
    (listPath: string, widget: ListWidget) => {
      const current = getAt(data, listPath)
      const index = Array.isArray(current) ? current.length : 0
      update((d) => {
        const list = getAt(d, listPath)
        return setAt(d, listPath, [...(Array.isArray(list) ? list : []), emptyEntry(widget.widgets)])
      })
      const first = widget.widgets[0]
      focusStop(first ? joinPath(listPath, index, first.field) : joinPath(listPath, '+'))
    },
    [data, update, focusStop]
  )

  const removeEntry = useCallback(
    (entryPath: string) => {
      clearAt(entryPath)
      update((d) => removeAt(d, entryPath))
      focusStop(joinPath(parentPath(entryPath), '+'))
    },
    [clearAt, update, focusStop]
  )

  const replace = useCallback((next: unknown) => {
    setServerIssues([])
    setNotes([])
    setAttempted(false)
    setData(structuredClone(next))
  }, [])

  const api: FormApi = {
    instrument,
    view,
    data,
    cursor,
    setValue,
    update,
    noteFocus: setCursor,
    focusStop,
    messagesAt: (path) => placed.byStop.get(path) ?? [],
    addEntry,
    removeEntry,
    openPicker: quotes.openPicker,
    addSelection: quotes.addSelection,
    runCheck,
    running
  }

  return {
    api,
    data,
    stops,
    cursor,
    placed,
    picker,
    closePicker: () => setPicker(null),
    pick: quotes.pick,
    replace,
    setAttempted,
    setServerIssues,
    focusStop
  }
}
