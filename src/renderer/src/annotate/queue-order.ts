export interface QueueRow {
  assignmentId: number
  status: 'pending' | 'done' | 'skipped' | 'flagged'
}

/** The next pending row after position `from` of `length` rows read by `rowAt`, wrapping around; undefined when none is left. */
export function nextPendingBy<R extends QueueRow>(length: number, rowAt: (at: number) => R | undefined, from: number): R | undefined {
  for (let k = 1; k <= length; k++) {
    const row = rowAt((((from + k) % length) + length) % length)
    if (row && row.status === 'pending') return row
  }
  return undefined
}

/** The next pending row after position `from` in queue order, wrapping around; undefined when none is left. */
export function nextPending<R extends QueueRow>(rows: ReadonlyArray<R>, from: number): R | undefined {
  return nextPendingBy(rows.length, (at) => rows[at], from)
}
