import type { Widget } from '../../../shared/instruments/types'

/** What the form calls a field and each of its choices, by the field's own name (the last part of its path). */
export type FieldLabels = ReadonlyMap<string, { label: string; options: ReadonlyMap<string, string> }>

/** The labels of an instrument's form, so answers read in the words the annotators answered in. */
export function fieldLabels(widgets: ReadonlyArray<Widget>): FieldLabels {
  const out = new Map<string, { label: string; options: ReadonlyMap<string, string> }>()
  const visit = (list: ReadonlyArray<Widget>) => {
    for (const w of list) {
      const name = w.field.split('.').pop()
      if (name && !out.has(name)) out.set(name, { label: w.label, options: new Map(w.kind === 'choice' ? w.options.map((o) => [String(o.value), o.label]) : []) })
      if (w.kind === 'units' || w.kind === 'list') visit(w.widgets)
    }
  }
  visit(widgets)
  return out
}
