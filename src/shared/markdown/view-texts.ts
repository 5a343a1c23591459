import type { Widget } from '../instruments/types'
import { alignSections, splitSections } from './sections'

// Which Markdown texts an annotator's item shows, and where each starts in the text quotes are taken from: the
// window parses them ahead of time, and the browser-mode server sends the first item's already parsed.

/** A blinded view of two proposals, shown side by side section by section. */
export function isPairView(view: Record<string, unknown>): boolean {
  const md = (side: unknown) => side !== null && typeof side === 'object' && typeof (side as { markdown?: unknown }).markdown === 'string'
  return md(view.a) && md(view.b)
}

/** Whether a view is a probe beside its original (the probe check), shown side by side by section. */
export function isProbeView(view: Record<string, unknown>): boolean {
  return typeof view.original === 'string' && typeof view.probe === 'string'
}

/** View keys the form shows itself (units next to their widgets, rubric items with their points). */
export function keysShownByForm(widgets: ReadonlyArray<Widget>): Set<string> {
  const keys = new Set<string>()
  const walk = (list: ReadonlyArray<Widget>) => {
    for (const w of list) {
      if (w.kind === 'units') keys.add(w.unitsFrom.split('.')[0]!)
      if (w.kind === 'rubric') keys.add(w.source.split('.')[0]!)
      if (w.kind === 'units' || w.kind === 'list') walk(w.widgets)
    }
  }
  walk(widgets)
  return keys
}

export interface ViewText {
  text: string
  sourceOffset: number
}

/** One key for a text rendered from one offset: the same text elsewhere in its source renders other offsets. */
export function viewTextKey(text: string, sourceOffset: number): string {
  return `${sourceOffset}\u0000${text}`
}

/**
 * Every text the item's source pane renders for `view` (the same texts at the same offsets: a pair's sections, or
 * each non-empty string of the fields the form does not show itself), then the instrument's rubric if it has one.
 */
export function viewTexts(view: Record<string, unknown>, widgets: ReadonlyArray<Widget>, rubric?: string): ViewText[] {
  const out: ViewText[] = []
  if (isPairView(view)) {
    for (const r of alignSections(splitSections((view.a as { markdown: string }).markdown), splitSections((view.b as { markdown: string }).markdown))) {
      if (r.a) out.push({ text: r.a.body, sourceOffset: r.a.offset })
      if (r.b) out.push({ text: r.b.body, sourceOffset: r.b.offset })
    }
  } else if (isProbeView(view)) {
    // The intended flaw, then the original and the probe section by section (the change list is drawn from them).
    if (typeof view.intended_flaw === 'string' && view.intended_flaw) out.push({ text: view.intended_flaw, sourceOffset: 0 })
    for (const r of alignSections(splitSections(view.original as string), splitSections(view.probe as string))) {
      if (r.a) out.push({ text: r.a.body, sourceOffset: r.a.offset })
      if (r.b) out.push({ text: r.b.body, sourceOffset: r.b.offset })
    }
  } else {
    const skip = keysShownByForm(widgets)
    const walk = (v: unknown): void => {
      if (typeof v === 'string') {
        if (v !== '') out.push({ text: v, sourceOffset: 0 })
      } else if (Array.isArray(v)) v.forEach(walk)
      else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
    }
    for (const [k, v] of Object.entries(view)) if (!skip.has(k)) walk(v)
  }
  if (rubric) out.push({ text: rubric, sourceOffset: 0 })
  return out
}
