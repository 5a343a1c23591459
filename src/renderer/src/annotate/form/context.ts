import { createContext, useContext } from 'react'
import type { AnyInstrument, Widget } from '../../../../shared/instruments/types'
import type { ListWidget } from '../stops'

/** What every widget of the form reaches: the state, the cursor and the actions the keyboard also uses. */
export interface FormApi {
  instrument: AnyInstrument
  view: Record<string, unknown>
  data: unknown
  cursor: string | null
  setValue(path: string, value: unknown): void
  update(change: (data: unknown) => unknown): void
  /** The stop gained focus by a click or Tab: it becomes the cursor. */
  noteFocus(path: string): void
  /** Moves the cursor and the keyboard focus to a stop. */
  focusStop(path: string, enter?: boolean): void
  messagesAt(path: string): string[]
  addEntry(listPath: string, widget: ListWidget): void
  removeEntry(entryPath: string): void
  openPicker(quotePath: string): void
  addSelection(quotePath: string): void
  runCheck(codePath: string): void
  running: ReadonlySet<string>
}

export const FormContext = createContext<FormApi | null>(null)

export function useForm(): FormApi {
  const api = useContext(FormContext)
  if (!api) throw new Error('Form widgets must be rendered inside a FormContext')
  return api
}

/** The value a fresh widget starts from. */
export function emptyValue(w: Widget): unknown {
  switch (w.kind) {
    case 'text':
      return ''
    case 'quote':
      return w.many ? [] : ''
    case 'units':
    case 'list':
    case 'rubric':
      return []
    case 'code':
      return undefined
    default:
      return null
  }
}

/** A new list entry: one value per inner widget (or the element itself where the inner field is ''). */
export function emptyEntry(widgets: ReadonlyArray<Widget>): unknown {
  const only = widgets[0]
  if (widgets.length === 1 && only && only.field === '') return emptyValue(only)
  const entry: Record<string, unknown> = {}
  for (const w of widgets) {
    const value = emptyValue(w)
    if (value === undefined) continue
    const keys = w.field.split('.')
    let node = entry
    keys.forEach((k, i) => {
      if (i === keys.length - 1) node[k] = value
      else node = (node[k] = (node[k] as Record<string, unknown>) ?? {}) as Record<string, unknown>
    })
  }
  return entry
}
