import { isInstrumentId } from '../../../shared/instruments'
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
