import { createHash } from 'node:crypto'
import { AssayError } from '../../shared/errors'
import type { AnyInstrument } from '../../shared/instruments'
import { writtenTexts, type WrittenText } from '../../shared/instruments/written-texts'
import { getDraft, latestSetAsideDraft, saveDraft, setDraftAside, type DraftRow } from '../store/annotations'
import type { Project } from '../store/project'
import type { AnnotatorRef, AssignmentContext } from './blinded'
import type { WritableDB } from '../store/database'

// Drafts are kept in the order the annotator saw (left/right, P1…P5), so each draft records the display mapping it
// was entered in. When main's layout for the item has changed since (a new layout rule, assignments added or removed
// shifting the balance), the draft is mapped through canonical order to the current layout; one that cannot be
// mapped is set aside rather than read against a layout it was not made for. Only main sees the mappings: the
// renderer gets an opaque token per layout, which names nothing (salted with the project seed, per item).

type Display = Record<string, unknown>

/** JSON with keys in order, so two equal mappings compare equal whatever order their keys were built in. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v
  )
}

/** The opaque token of the layout an annotator is shown for an assignment's item. */
export function layoutToken(project: Project, c: AssignmentContext): string {
  return createHash('sha256')
    .update(`${project.seed}\0${c.assignment.annotator_id}\0${c.assignment.item_id}\0${c.instrument.id}\0${stable(c.blind.display)}`)
    .digest('hex')
    .slice(0, 20)
}

function unitOrder(display: Display): string[] | null {
  return Array.isArray(display.order) ? display.order.map(String) : null
}

/**
 * A draft entered in layout `from`, as it reads in layout `to`; null when it cannot be carried over (the units
 * shown differ, or the instrument's mapping does not take the draft there and back unchanged, as with half-filled
 * entries it cannot map).
 */
export function mapDraft(instrument: AnyInstrument, data: unknown, from: Display, to: Display): unknown {
  if (stable(from) === stable(to)) return data
  const before = unitOrder(from)
  const after = unitOrder(to)
  if ((before === null) !== (after === null)) return null
  if (before && after && stable([...before].sort()) !== stable([...after].sort())) return null
  try {
    const mapped = instrument.toDisplay(instrument.toCanonical(data as never, from), to)
    const back = instrument.toDisplay(instrument.toCanonical(mapped as never, to), from)
    return stable(back) === stable(data) ? mapped : null
  } catch {
    return null
  }
}

export interface RestoredDraft {
  draft: { data: unknown; activeMs: number; updatedAt: string } | null
  /**
   * A draft of this item that could not be carried over to the current layout: kept aside, never put in the form;
   * what was written in it is given back so the person can take it up again.
   */
  setAside: { updatedAt: string; texts: WrittenText[] } | null
}

function displayOf(row: DraftRow): Display | null {
  if (!row.display) return null
  const parsed = JSON.parse(row.display) as unknown
  return parsed !== null && typeof parsed === 'object' ? (parsed as Display) : null
}

/** The stored draft in the current layout: as saved, mapped, or null when it is unmappable. */
function inCurrentLayout(c: AssignmentContext, row: DraftRow): { data: unknown } | null {
  const data = JSON.parse(row.data) as unknown
  const from = displayOf(row)
  // Saved before layouts were recorded: read in the current layout, as it always was.
  if (from === null) return { data }
  const mapped = mapDraft(c.instrument, data, from, c.blind.display)
  return mapped === null ? null : { data: mapped }
}

function latestSetAside(project: Project, me: AnnotatorRef, c: AssignmentContext): RestoredDraft['setAside'] {
  const row = latestSetAsideDraft(project.db, me.id, c.assignment.item_id, c.instrument.id)
  return row ? setAsideOf(c, row) : null
}

function setAsideOf(c: AssignmentContext, row: { data: string; updated_at: string }): NonNullable<RestoredDraft['setAside']> {
  return { updatedAt: row.updated_at, texts: writtenTexts(c.instrument, JSON.parse(row.data) as unknown) }
}

/** The annotator's draft of an assignment, in the layout they are shown now. */
export function restoreDraft(project: Project, me: AnnotatorRef, c: AssignmentContext): RestoredDraft {
  const row = getDraft(project.db, me.id, c.assignment.item_id, c.instrument.id)
  const current = row ? inCurrentLayout(c, row) : null
  const draft = row && current ? { data: current.data, activeMs: row.active_ms, updatedAt: row.updated_at } : null
  const setAside = row && !current ? setAsideOf(c, row) : latestSetAside(project, me, c)
  return { draft, setAside }
}

/**
 * Saves a draft entered in the layout named by `layout` (the token the item was shown with), recording the current
 * display mapping. A draft made for a layout that has changed since is refused, so it is never stored under a
 * mapping it was not entered in; a stored draft that cannot be carried over is moved aside before it is replaced.
 * Call inside a write transaction.
 */
export function saveLayoutDraft(project: Project, db: WritableDB, me: AnnotatorRef, c: AssignmentContext, data: unknown, activeMs: number, layout?: string): void {
  if (layout !== undefined && layout !== layoutToken(project, c)) {
    throw new AssayError('conflict', 'The arrangement of this item changed since it was opened; reopen it (your draft is kept in this browser)')
  }
  const row = getDraft(db, me.id, c.assignment.item_id, c.instrument.id)
  if (row && !inCurrentLayout(c, row)) {
    setDraftAside(db, me.id, c.assignment.item_id, c.instrument.id, row)
  }
  saveDraft(db, me.id, c.assignment.item_id, c.instrument.id, data, activeMs, c.blind.display)
}
