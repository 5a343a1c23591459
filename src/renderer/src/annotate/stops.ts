import type { Widget } from '../../../shared/instruments/types'
import { getAt, joinPath } from './paths'

// The form as a flat sequence of stops: what Tab/Shift+Tab and j/k walk through. Units (P1..P5) and list entries
// (flaws) are expanded from the current form state, so the sequence follows what is on screen.

export type ContainerWidget = Extract<Widget, { kind: 'units' | 'list' }>
export type LeafWidget = Exclude<Widget, ContainerWidget>
export type RubricWidget = Extract<Widget, { kind: 'rubric' }>
export type ListWidget = Extract<Widget, { kind: 'list' }>

export type Stop =
  | { kind: 'field'; path: string; widget: LeafWidget; group: string | null }
  | { kind: 'rubric-item'; path: string; widget: RubricWidget; index: number; group: string | null }
  | { kind: 'add'; path: string; widget: ListWidget; listPath: string; group: string | null }

/** Stops whose focus goes into a text box: keys typed there are text, not shortcuts. */
export function isTextEntry(stop: Stop): boolean {
  if (stop.kind === 'rubric-item') return true
  if (stop.kind === 'add') return false
  return stop.widget.kind === 'text' || stop.widget.kind === 'number' || stop.widget.kind === 'code'
}

/** A choice that may stay unanswered (a mark such as "No flaws found"): its key or click again clears it. */
export function clearsOnRepeat(stop: Stop): boolean {
  return stop.kind === 'field' && stop.widget.kind === 'choice' && stop.widget.optional === true
}

export function addStopPath(listPath: string): string {
  return joinPath(listPath, '+')
}

export function collectStops(widgets: ReadonlyArray<Widget>, data: unknown, view: Record<string, unknown>): Stop[] {
  const stops: Stop[] = []
  const walk = (list: ReadonlyArray<Widget>, prefix: string, group: string | null) => {
    for (const w of list) {
      const path = joinPath(prefix, w.field)
      if (w.kind === 'units' || w.kind === 'list') {
        const entries = getAt(data, path)
        const count = Array.isArray(entries) ? entries.length : 0
        for (let i = 0; i < count; i++) walk(w.widgets, joinPath(path, i), joinPath(path, i))
        if (w.kind === 'list') stops.push({ kind: 'add', path: addStopPath(path), widget: w, listPath: path, group })
      } else if (w.kind === 'rubric') {
        const items = getAt(view, w.source)
        const count = Array.isArray(items) ? items.length : 0
        for (let i = 0; i < count; i++) stops.push({ kind: 'rubric-item', path: joinPath(path, i), widget: w, index: i, group })
      } else {
        stops.push({ kind: 'field', path, widget: w, group })
      }
    }
  }
  walk(widgets, '', null)
  return stops
}

/** The stop `step` places after `current` (clamped at both ends); the first stop when `current` is unknown. */
export function moveStop(stops: ReadonlyArray<Stop>, current: string | null, step: number): string | null {
  if (stops.length === 0) return null
  const at = stops.findIndex((s) => s.path === current)
  if (at < 0) return stops[0]!.path
  const next = Math.min(stops.length - 1, Math.max(0, at + step))
  return stops[next]!.path
}

/** The first stop of the next (or previous) unit or list entry: J/K jump a whole hypothesis or flaw. */
export function moveGroup(stops: ReadonlyArray<Stop>, current: string | null, direction: 1 | -1): string | null {
  const at = stops.findIndex((s) => s.path === current)
  if (at < 0) return stops[0]?.path ?? null
  const group = stops[at]!.group
  const starts = stops
    .map((s, i) => ({ s, i }))
    .filter(({ s, i }) => s.group !== null && (i === 0 || stops[i - 1]!.group !== s.group))
  if (direction === 1) return starts.find(({ i, s }) => i > at && s.group !== group)?.s.path ?? current
  return starts.filter(({ i, s }) => i < at && s.group !== group).pop()?.s.path ?? current
}

/** The stop an issue at `path` belongs to: the deepest stop at or above it (a whole-list issue goes to its add stop). */
export function stopForIssue(stops: ReadonlyArray<Stop>, path: string): Stop | undefined {
  const exact = stops.find((s) => s.path === path)
  if (exact) return exact
  let best: Stop | undefined
  for (const s of stops) {
    const own = s.kind === 'add' ? s.listPath : s.path
    if (path.startsWith(`${own}.`) && (!best || own.length > best.path.length)) best = s
  }
  if (best) return best
  // An issue about a whole unit list ("Hypothesis C3 has no answer") or a whole rubric: its first stop.
  return stops.find((s) => s.path.startsWith(`${path}.`))
}
