import { isInstrumentId } from '../../../shared/instruments'
import { afterPaint } from './after-paint'
import type { InstrumentId } from '../../../shared/instruments/types'

// The item this tab is working on, so a reload returns to it instead of the queue list. Kept for the tab only
// (sessionStorage): another window starts at the queues.

export interface LastItem {
  instrument: InstrumentId
  assignmentId: number
}

export function lastItemKey(projectId: string, annotatorId: number): string {
  return `assay:last-item:${projectId}:${annotatorId}`
}

function storage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

export function readLastItem(key: string): LastItem | null {
  try {
    const raw = storage()?.getItem(key)
    if (!raw) return null
    const v = JSON.parse(raw) as { instrument?: unknown; assignmentId?: unknown }
    if (typeof v.instrument !== 'string' || !isInstrumentId(v.instrument) || typeof v.assignmentId !== 'number') return null
    return { instrument: v.instrument, assignmentId: v.assignmentId }
  } catch {
    return null
  }
}

export function writeLastItem(key: string, at: LastItem): void {
  try {
    storage()?.setItem(key, JSON.stringify(at))
  } catch {
    // Without storage a reload opens the queue list, as before.
  }
}

export function clearLastItem(key: string): void {
  try {
    storage()?.removeItem(key)
  } catch {
    // Nothing kept.
  }
}

/** The write waiting for the paint, if any: a reload or a closed tab writes it at once. */
let pending: { key: string; at: LastItem } | null = null
let flushOnLeave = false

function flush(): void {
  if (!pending) return
  writeLastItem(pending.key, pending.at)
  pending = null
}

/**
 * Records the item once the frame that shows it is painted (storage is not touched while the item is drawn). A
 * reload before then still finds it: leaving the page writes what is waiting.
 */
export function writeLastItemAfterPaint(key: string, at: LastItem): void {
  pending = { key, at }
  if (!flushOnLeave) {
    flushOnLeave = true
    window.addEventListener('pagehide', flush)
  }
  afterPaint(flush)
}
