import { useCallback, useState } from 'react'
import type { AnyInstrument } from '../../../shared/instruments/types'
import type { FormApi } from '../annotate/form/context'
import type { QuoteSource } from '../annotate/quotes'
import type { Stop } from '../annotate/stops'
import type { PlacedIssues } from '../annotate/use-field-issues'
import { useFormState } from '../annotate/use-form-state'
import type { useQuoteActions } from '../annotate/use-quote-actions'
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
  const [picker, setPicker] = useState<{ path: string; sources: QuoteSource[] } | null>(null)
  const openPickerDialog = useCallback((path: string, sources: QuoteSource[]) => setPicker({ path, sources }), [])
  const form = useFormState({ instrument, view, initial, openPickerDialog })
  const { setServerIssues, setNotes, setAttempted, setData } = form

  const replace = useCallback(
    (next: unknown) => {
      setServerIssues([])
      setNotes([])
      setAttempted(false)
      setData(structuredClone(next))
    },
    [setServerIssues, setNotes, setAttempted, setData]
  )

  return {
    api: form.api,
    data: form.data,
    stops: form.stops,
    cursor: form.cursor,
    placed: form.placed,
    picker,
    closePicker: () => setPicker(null),
    pick: form.quotes.pick,
    replace,
    setAttempted,
    setServerIssues,
    focusStop: form.focusStop
  }
}
