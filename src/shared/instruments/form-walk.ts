import type { Widget } from './types'

/** A widget that holds one answer value (not a group of entries). */
export type LeafWidget = Exclude<Widget, { kind: 'units' | 'list' }>

export function valueAt(root: unknown, path: string): unknown {
  let node = root
  for (const key of path === '' ? [] : path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

export function joinPath(prefix: string, field: string): string {
  return [prefix, field].filter((p) => p !== '').join('.')
}

/**
 * Visits every answer field of a form over an answer, entries of lists and units included: the widget, its dotted
 * path in the answer, the entry that holds it (for conditions on sibling fields) and its labels from the top
 * ("Flaw 2", "Note").
 */
export function walkFields(
  widgets: ReadonlyArray<Widget>,
  answer: unknown,
  visit: (widget: LeafWidget, path: string, entry: unknown, labels: ReadonlyArray<string>) => void
): void {
  const walk = (ws: ReadonlyArray<Widget>, prefix: string, entry: unknown, labels: ReadonlyArray<string>) => {
    for (const w of ws) {
      const path = joinPath(prefix, w.field)
      if (w.kind === 'units' || w.kind === 'list') {
        const items = valueAt(answer, path)
        const entryLabel = w.kind === 'list' ? w.itemLabel : w.label
        if (Array.isArray(items)) items.forEach((item, i) => walk(w.widgets, joinPath(path, String(i)), item, [...labels, `${entryLabel} ${i + 1}`]))
        continue
      }
      visit(w, path, entry, [...labels, w.label])
    }
  }
  walk(widgets, '', answer, [])
}
