import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { AnyInstrument } from '../../../shared/instruments/types'
import { focusStopElement } from './dom'
import { emptyEntry, type FormApi } from './form/context'
import { getAt, isWithin, joinPath, parentPath, removeAt, setAt } from './paths'
import type { QuoteSource } from './quotes'
import { collectStops, type ListWidget, type Stop } from './stops'
import { useCheckRunner } from './use-check-runner'
import { useFieldIssues, type PlacedIssues } from './use-field-issues'
import { useQuoteActions } from './use-quote-actions'
import type { FieldIssue } from './validate'

export interface FormStateOptions {
  instrument: AnyInstrument
  view: Record<string, unknown>
  initial: () => unknown
  /** Issues main gave for this answer before (a refused commit shown again), and whether they show at once. */
  initialIssues?: FieldIssue[]
  /** Where a quote key with several texts to choose from opens its picker. */
  openPickerDialog(path: string, sources: QuoteSource[]): void
  /** The element holding this form, where its stops are looked up (the page where none is given). */
  scope?: RefObject<HTMLElement | null>
}

export interface FormState {
  /** What the instrument's widgets read and write through FormContext. */
  api: FormApi
  data: unknown
  setData(next: unknown): void
  stops: ReadonlyArray<Stop>
  cursor: string | null
  placed: PlacedIssues
  attempted: boolean
  setAttempted(on: boolean): void
  setServerIssues(issues: FieldIssue[]): void
  setNotes(issues: FieldIssue[]): void
  setValue(path: string, value: unknown): void
  /** Moves the cursor to a stop; `enter` puts the caret in its text box (Tab, Enter), else the stop takes the keys. */
  focusStop(path: string, enter?: boolean): void
  addEntry(listPath: string, widget: ListWidget): void
  removeEntry(entryPath: string): void
  quotes: ReturnType<typeof useQuoteActions>
  runCheck: FormApi['runCheck']
}

/**
 * One answer being filled in with an instrument's own form: its data, the cursor over its stops, field issues,
 * quote taking and worked checks. Shared by annotation (which adds autosave, active time and the queue around it)
 * and the adjudicator's final-label form.
 */
export function useFormState({ instrument, view, initial, initialIssues, openPickerDialog, scope }: FormStateOptions): FormState {
  const widgets = instrument.form.widgets
  const [data, setData] = useState<unknown>(initial)
  const stops = useMemo(() => collectStops(widgets, data, view), [widgets, data, view])
  const [cursor, setCursor] = useState<string | null>(() => stops[0]?.path ?? null)
  const [attempted, setAttempted] = useState(initialIssues !== undefined)
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>(initialIssues ?? [])
  const [notes, setNotes] = useState<FieldIssue[]>([])
  const pendingFocus = useRef<{ path: string; enter: boolean } | null>(null)

  useLayoutEffect(() => {
    const pending = pendingFocus.current
    if (pending && focusStopElement(pending.path, scope, pending.enter)) pendingFocus.current = null
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

  const focusStop = useCallback((path: string, enter = false) => {
    setCursor(path)
    // Focus now where the stop is on screen, so the next key press already lands in it; a stop that appears with
    // this change (a new entry) is focused once rendered.
    if (focusStopElement(path, scope, enter)) {
      pendingFocus.current = null
      return
    }
    const pending = { path, enter }
    pendingFocus.current = pending
    requestAnimationFrame(() => {
      if (pendingFocus.current === pending && focusStopElement(path, scope, enter)) pendingFocus.current = null
    })
  }, [scope])

  const extra = useMemo(() => [...serverIssues, ...notes], [serverIssues, notes])
  const placed = useFieldIssues(instrument, data, view, stops, attempted, extra)
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

  // One object per state: a render that changes none of it (the item being shown, its bar) leaves the widgets alone.
  const api = useMemo<FormApi>(
    () => ({
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
    }),
    [instrument, view, data, cursor, setValue, update, focusStop, placed, addEntry, removeEntry, quotes.openPicker, quotes.addSelection, runCheck, running]
  )

  return { api, data, setData, stops, cursor, placed, attempted, setAttempted, setServerIssues, setNotes, setValue, focusStop, addEntry, removeEntry, quotes, runCheck }
}
