import { CALL_STATUSES, OK, type CallRows } from '../report/call-rows'
import { betterStatus, type ItemStatus } from '../report/resolve'
import type { OrderedVerdicts } from './both-orders'

/**
 * The raw run's calls as a recalibration reads them, from the run's rows (no call objects): its calls by item, and
 * an item's verdicts in each display order on the pair's unit.
 */

/** Indices of the rows' calls by item, in call order, for the items kept. */
export function callsByItem(rows: CallRows, keep: (itemId: number) => boolean): Map<number, number[]> {
  const { item } = rows.columns()
  const out = new Map<number, number[]>()
  for (let c = 0; c < rows.length; c++) {
    const itemId = item[c] as number
    if (!keep(itemId)) continue
    const list = out.get(itemId)
    if (list) list.push(c)
    else out.set(itemId, [c])
  }
  return out
}

/** The verdicts of the answered calls among `calls` asked in one display order, on the pair's unit, in call order. */
function verdictsInOrder(rows: CallRows, calls: readonly number[], order: number, unit: string | undefined): string[] {
  const { order: orders, status, observationStart } = rows.columns()
  const out: string[] = []
  for (const c of calls) {
    if (orders[c] !== order || status[c] !== OK) continue
    const end = observationStart[c + 1] as number
    for (let o = observationStart[c] as number; o < end; o++) {
      if (rows.unitNames[o] === unit) out.push(String(rows.values[o]?.verdict ?? ''))
    }
  }
  return out
}

/** An item's verdicts in the first and the second display order. */
export function orderedVerdicts(rows: CallRows, calls: readonly number[], unit: string | undefined): OrderedVerdicts {
  return { first: verdictsInOrder(rows, calls, 0, unit), second: verdictsInOrder(rows, calls, 1, unit) }
}

/**
 * How a pair without a verdict in both orders counts for the both-orders fit, as its source's calls are counted in
 * every table: the first of its unanswered calls' statuses in the report's order (betterStatus; an unparseable answer is judged, and wrong),
 * pending where none was stored.
 */
export function unansweredPairStatus(rows: CallRows, calls: readonly number[]): ItemStatus {
  const { status } = rows.columns()
  let held: ItemStatus | undefined
  for (const c of calls) {
    if (status[c] !== OK) held = betterStatus(held, CALL_STATUSES[status[c] as number] as ItemStatus)
  }
  return held ?? 'pending'
}
