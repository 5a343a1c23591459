import { createContext } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'

/**
 * How far the open queue is. Read where it is shown (the item's bar) rather than passed down, so a submission
 * updates that line and not the items held ready behind the one on screen.
 */
export const QueueProgress = createContext<{ done: number; total: number }>({ done: 0, total: 0 })

/** A queue's counts by status. */
export interface Counts {
  total: number
  done: number
  skipped: number
  flagged: number
}

export function countRows(rows: ReadonlyArray<OperationOutput<'queue.list'>['rows'][number]>): Counts {
  const c: Counts = { total: rows.length, done: 0, skipped: 0, flagged: 0 }
  for (const r of rows) if (r.status !== 'pending') c[r.status]++
  return c
}
