import { positionBias, type PairwiseCall, type PairwiseVerdict } from '../stats'
import { CALL_STATUSES, OK, SourceColumns, UnitDictionary } from './frame'
import { callCountOf } from './call-rows'
import type { ReportItem, CallStatus } from './input'
import { proportion, put, wilsonCi, wilsonOverItems } from './intervals'
import { roundResidue } from './residue'
import { valueOfUnit, type ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

/**
 * A source's pairwise calls (one verdict per item and display order, trials voted), the item-level winners, and its
 * position statistics. Scoring against a criterion is in pairwise-row.ts.
 */

export type Side = 'a' | 'b'
export type LabelTerms = 'origin' | 'side'

export interface PairCall {
  item: number
  order: number
  status: 'choice' | 'tie' | 'unparseable' | 'failed' | 'abstained' | 'pending'
  winner?: Side
  /** The canonical side shown first, where the source recorded its display. */
  shownFirst?: Side
}

export function isSide(v: unknown): v is Side {
  return v === 'a' || v === 'b'
}

export function otherSide(side: Side): Side {
  return side === 'a' ? 'b' : 'a'
}

/** The item-level winner a source gives (trials and display orders voted), if any. */
export function itemWinner(source: ResolvedSource, item: ReportItem): Side | null {
  if (!item.pair) return null
  const v = valueOfUnit(source.values.get('winner'), item.id, item.pair.unit)
  return isSide(v) ? v : null
}

/** A source's calls on pairs, one per item and display order, trials voted; derived sources give one per item. */
export function pairCallsOf(source: ResolvedSource, items: ReadonlyMap<number, ReportItem>): PairCall[] {
  if (callCountOf(source.input) === 0) {
    const calls: PairCall[] = []
    for (const [itemId, status] of source.itemStatus) {
      const item = items.get(itemId)
      if (!item?.pair) continue
      if (status === 'answered') {
        const winner = itemWinner(source, item)
        // The ties policy: a majority split evenly has no label on this pair; it is left out, never scored as wrong.
        if (winner) calls.push({ item: itemId, order: 0, status: 'choice', winner })
      } else calls.push({ item: itemId, order: 0, status })
    }
    return calls
  }
  // One group per item and display order (numeric keys: this runs over every call of every source).
  const groups = new Map<number, PairGroup>()
  // A resolved source carries its columns; one made by hand gets them here.
  groupColumns(source.columns ?? new SourceColumns(source.input.calls, new UnitDictionary()), items, groups)
  const calls: PairCall[] = []
  for (const g of groups.values()) {
    let call: PairCall
    if (g.a + g.b > 0) {
      // Trials voted: an even split is a tie.
      call = g.a === g.b ? { item: g.item, order: g.order, status: 'tie' } : { item: g.item, order: g.order, status: 'choice', winner: g.a > g.b ? 'a' : 'b' }
    } else call = { item: g.item, order: g.order, status: FALLBACK_STATUSES.find((s) => (g.statuses & STATUS_BIT[s]) !== 0) ?? 'unparseable' }
    if (g.shownFirst) call.shownFirst = g.shownFirst
    calls.push(call)
  }
  return calls
}

type PairGroup = { item: number; order: number; a: number; b: number; statuses: number; shownFirst?: Side }

/** pairCallsOf's grouping, read from the frame's columns of the source's calls: the same groups in the same order. */
function groupColumns(columns: SourceColumns, items: ReadonlyMap<number, ReportItem>, groups: Map<number, PairGroup>): void {
  const { item: itemOf, order: orderOf, status, shownFirst, observationStart, unit, units } = columns
  const winner = columns.field('winner')
  const a = winner.values.indexOf('a')
  const b = winner.values.indexOf('b')
  // An item's calls usually come one after another: the item and its pair's unit are looked up once per run of them.
  let lastItem = Number.NaN
  let item: ReportItem | undefined
  let pairUnit = -1
  for (let c = 0; c < columns.length; c++) {
    const itemId = itemOf[c] as number
    if (itemId !== lastItem) {
      lastItem = itemId
      item = items.get(itemId)
      pairUnit = item?.pair ? units.find(itemId, item.pair.unit) : -1
    }
    if (!item?.pair) continue
    const order = orderOf[c] as number
    if (!(order >= 0 && order < ORDER_SLOTS)) throw new RangeError(`display order ${order} of item ${itemId} is outside 0..${ORDER_SLOTS - 1}`)
    const key = itemId * ORDER_SLOTS + order
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { item: itemId, order, a: 0, b: 0, statuses: 0 }))
    const code = status[c] as number
    group.statuses |= STATUS_BIT[CALL_STATUSES[code] as CallStatus]
    const first = shownFirst[c] as number
    if (first !== 0 && !group.shownFirst) group.shownFirst = first === 1 ? 'a' : 'b'
    if (code !== OK) continue
    const end = observationStart[c + 1] as number
    for (let o = observationStart[c] as number; o < end; o++) {
      if (unit[o] !== pairUnit) continue
      const value = winner.codes[o] as number
      if (value >= 0 && value === a) group.a++
      else if (value >= 0 && value === b) group.b++
      break
    }
  }
}

/** Of a call with no winner, the status it reports (earlier wins). */
const FALLBACK_STATUSES = ['abstained', 'unparseable', 'failed', 'pending'] as const

/** Display orders per item a group key leaves room for. */
const ORDER_SLOTS = 1024
const STATUS_BIT = { ok: 1, abstained: 2, unparseable: 4, failed: 8, pending: 16 } as const

/** Origin terms (human/ai) when every labelled pair sets a human proposal against an AI one; sides otherwise. */
export function labelTermsOf(items: readonly ReportItem[]): LabelTerms {
  const pairs = items.filter((i) => i.pair)
  if (pairs.length === 0) return 'side'
  return pairs.every((i) => {
    const a = i.pair?.a.origin
    const b = i.pair?.b.origin
    return !!a && !!b && a !== b
  })
    ? 'origin'
    : 'side'
}

export function labelOf(item: ReportItem, side: Side, terms: LabelTerms): string {
  return terms === 'origin' ? (item.pair?.[side].origin ?? side) : side
}

/**
 * Position statistics of one source over all its calls that recorded which proposal was shown first: labels play
 * no part, so they are computed once per source, in side terms. Null for a source never asked about a pair in both
 * display orders: it has no position statistics, not undefined ones.
 */
export function positionRow(sourceId: string, calls: readonly PairCall[], level: number): ReportPairwise['position'][number] | null {
  const shown: PairwiseCall<Side>[] = []
  // Per item, the side shown first on its first call, or 'both' once the other side was shown first too.
  const orders = new Map<number, Side | 'both'>()
  let bothOrders = false
  const answeredItems = new Set<number>()
  for (const call of calls) {
    if (!call.shownFirst) continue
    const seen = orders.get(call.item)
    if (seen === undefined) orders.set(call.item, call.shownFirst)
    else if (seen !== 'both' && seen !== call.shownFirst) {
      orders.set(call.item, 'both')
      bothOrders = true
    }
    if (call.status === 'abstained' || call.status === 'pending') continue
    if (call.status === 'choice' || call.status === 'tie') answeredItems.add(call.item)
    const verdict: PairwiseVerdict<Side> = call.status === 'choice' ? { kind: 'choice', choice: call.winner as Side } : { kind: call.status }
    // positionBias reads only the verdict and the side shown first; the label is not used.
    shown.push({ itemId: call.item, label: 'a', verdict, shownFirst: call.shownFirst })
  }
  if (!bothOrders) return null
  const reasons: Record<string, string> = {}
  let bias
  try {
    bias = positionBias(shown, 'kept')
  } catch (e) {
    const reason = `position statistics need at most one answered call per display order: ${(e as Error).message}`
    const names = ['position_consistency', 'conflict_rate', 'mt_bench_consistency', 'biased_to_first', 'biased_to_second', 'error_rate', 'preference_fairness', 'first_position_preference']
    return {
      source: sourceId,
      ...Object.fromEntries(names.map((n) => [n, null])),
      n_compared: 0,
      n_consistent: 0,
      n_incomplete: 0,
      n_pairs: 0,
      n_biased_first: 0,
      n_biased_second: 0,
      n_error: 0,
      n_answered: 0,
      n_picked_first: 0,
      ci: {},
      reasons: Object.fromEntries(names.map((n) => [n, reason]))
    } as ReportPairwise['position'][number]
  }
  const pairsAsked = orders.size
  const row: Record<string, unknown> = { source: sourceId }
  put(row, reasons, 'position_consistency', bias.consistency)
  put(row, reasons, 'conflict_rate', bias.consistency.value === null ? bias.consistency : { value: roundResidue(1 - bias.consistency.value) })
  Object.assign(row, {
    n_compared: bias.consistency.compared,
    n_consistent: bias.consistency.consistent,
    n_incomplete: pairsAsked - bias.mtBench.pairs,
    n_pairs: bias.mtBench.pairs
  })
  put(row, reasons, 'mt_bench_consistency', bias.mtBench.consistency)
  put(row, reasons, 'biased_to_first', bias.mtBench.biasedToFirst)
  put(row, reasons, 'biased_to_second', bias.mtBench.biasedToSecond)
  put(row, reasons, 'error_rate', bias.mtBench.errorRate)
  Object.assign(row, { n_biased_first: bias.mtBench.biasedFirst, n_biased_second: bias.mtBench.biasedSecond, n_error: bias.mtBench.error })
  put(row, reasons, 'preference_fairness', bias.preferenceFairness)
  put(row, reasons, 'first_position_preference', bias.firstPositionPreference)
  Object.assign(row, { n_answered: bias.firstPositionPreference.answered, n_picked_first: bias.firstPositionPreference.pickedFirst })
  const consistency = proportion(bias.consistency.consistent, bias.consistency.compared, level)
  // Calls share items (both orders of a pair): the preference's interval counts the items answered, not the calls.
  return {
    ...(row as Omit<ReportPairwise['position'][number], 'ci' | 'reasons'>),
    ci: {
      position_consistency: wilsonCi(consistency),
      first_position_preference: wilsonOverItems(bias.firstPositionPreference.value, answeredItems.size, level, 'no answered calls')
    },
    reasons
  }
}
