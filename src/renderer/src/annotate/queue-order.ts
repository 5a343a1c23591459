export interface QueueRow {
  assignmentId: number
  status: 'pending' | 'done' | 'skipped' | 'flagged'
}

/** The next pending row after position `from` in queue order, wrapping around; undefined when none is left. */
export function nextPending<R extends QueueRow>(rows: ReadonlyArray<R>, from: number): R | undefined {
  for (let k = 1; k <= rows.length; k++) {
    const row = rows[(((from + k) % rows.length) + rows.length) % rows.length]
    if (row && row.status === 'pending') return row
  }
  return undefined
}
