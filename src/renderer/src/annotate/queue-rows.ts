import type { OperationOutput } from '../../../shared/contract/operations'
import { nextPendingBy } from './queue-order'

export type Row = OperationOutput<'queue.list'>['rows'][number]

// A queue's rows in order, kept in chunks: a change of one row copies its chunk and the short list of chunks, never
// the whole queue, so a submission costs the same whatever the length of the queue.

const CHUNK_BITS = 10
const CHUNK = 1 << CHUNK_BITS

export interface Rows {
  readonly length: number
  readonly chunks: ReadonlyArray<ReadonlyArray<Row>>
}

export function toRows(list: ReadonlyArray<Row>): Rows {
  const chunks: Row[][] = []
  for (let at = 0; at < list.length; at += CHUNK) chunks.push(list.slice(at, at + CHUNK))
  return { length: list.length, chunks }
}

export function rowAt(rows: Rows, at: number): Row | undefined {
  if (at < 0 || at >= rows.length) return undefined
  return rows.chunks[at >> CHUNK_BITS]![at & (CHUNK - 1)]
}

/** The rows with the one at `at` replaced. */
export function withRow(rows: Rows, at: number, row: Row): Rows {
  const chunks = rows.chunks.slice()
  const chunk = chunks[at >> CHUNK_BITS]!.slice()
  chunk[at & (CHUNK - 1)] = row
  chunks[at >> CHUNK_BITS] = chunk
  return { length: rows.length, chunks }
}

/** The row's position, looked for first beside `near` (moving through the queue, the last one looked up or one of the next few); -1 if absent. */
export function positionOf(rows: Rows, assignmentId: number, near: number): number {
  for (let k = -1; k <= 8; k++) if (rowAt(rows, near + k)?.assignmentId === assignmentId) return near + k
  let at = 0
  for (const chunk of rows.chunks) {
    const i = chunk.findIndex((r) => r.assignmentId === assignmentId)
    if (i >= 0) return at + i
    at += chunk.length
  }
  return -1
}

/** The next pending row after position `from`, wrapping around. */
export function nextPendingRow(rows: Rows, from: number): Row | undefined {
  return nextPendingBy(rows.length, (at) => rowAt(rows, at), from)
}

/** A queue's counts by status. */
export interface Counts {
  total: number
  done: number
  skipped: number
  flagged: number
}

export function countRows(rows: ReadonlyArray<Row>): Counts {
  const c: Counts = { total: rows.length, done: 0, skipped: 0, flagged: 0 }
  for (const r of rows) if (r.status !== 'pending') c[r.status]++
  return c
}
