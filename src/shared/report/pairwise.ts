import { positionBias, type PairwiseCall, type PairwiseVerdict } from '../stats'
import { CALL_STATUSES, OK, SourceColumns, UnitDictionary } from './frame'
import { callCountOf } from './call-rows'
import type { ReportItem, CallStatus } from './input'
import { proportion, put, wilsonCi, wilsonOverItems } from './intervals'
import { roundResidue } from './residue'
import { unitValueReader, valueOfUnit, type ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

/**
 * A source's pairwise calls (one verdict per item and display order, trials voted), the item-level winners, and its
 * position statistics. Scoring against a criterion is in pairwise-row.ts.
 */

export type Side = 'a' | 'b'
export type LabelTerms = 'origin' | 'side'

/** What a pairwise call of a source came to, coded in PairCalls.status in this order. */
export const PAIR_STATUSES = ['choice', 'tie', 'unparseable', 'failed', 'abstained', 'pending'] as const
export type PairStatus = (typeof PAIR_STATUSES)[number]
export const CHOICE = 0
export const TIE = 1
const PAIR_STATUS_CODE = new Map<PairStatus, number>(PAIR_STATUSES.map((s, i) => [s, i]))

/** A side as coded in PairCalls.winner and .shownFirst: 0 none (or not recorded), 1 a, 2 b. */
export const SIDE_OF_CODE = [null, 'a', 'b'] as const

/**
 * A source's pairwise calls as columns, one per item and display order (trials voted): the item, the display order,
 * the status (PAIR_STATUSES), the side chosen (a choice only) and the canonical side shown first where the source
 * recorded its display. A source derived from others gives one per item.
 */
export class PairCalls {
  length = 0
  item: Int32Array
  order: Int32Array
  status: Uint8Array
  winner: Uint8Array
  shownFirst: Uint8Array

  constructor(capacity: number) {
    this.item = new Int32Array(capacity)
    this.order = new Int32Array(capacity)
    this.status = new Uint8Array(capacity)
    this.winner = new Uint8Array(capacity)
    this.shownFirst = new Uint8Array(capacity)
  }

  push(item: number, order: number, status: number, winner: number, shownFirst: number): void {
    const c = this.length++
    this.item[c] = item
    this.order[c] = order
    this.status[c] = status
    this.winner[c] = winner
    this.shownFirst[c] = shownFirst
  }

  /** The columns cut to the calls pushed (made with room for the most there could be). */
  trimmed(): this {
    this.item = this.item.subarray(0, this.length)
    this.order = this.order.subarray(0, this.length)
    this.status = this.status.subarray(0, this.length)
    this.winner = this.winner.subarray(0, this.length)
    this.shownFirst = this.shownFirst.subarray(0, this.length)
    return this
  }
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

/** itemWinner for one source over many items: its winners' coded twin is found once, not once per item. */
export function winnerReader(source: ResolvedSource): (item: ReportItem) => Side | null {
  const read = unitValueReader(source.values.get('winner'))
  return (item) => {
    const v = item.pair ? read(item.id, item.pair.unit) : undefined
    return isSide(v) ? v : null
  }
}

/** A source's calls on pairs, one per item and display order, trials voted; derived sources give one per item. */
export function pairCallsOf(source: ResolvedSource, items: ReadonlyMap<number, ReportItem>): PairCalls {
  if (callCountOf(source.input) === 0) {
    const calls = new PairCalls(source.itemStatus.size)
    for (const [itemId, status] of source.itemStatus) {
      const item = items.get(itemId)
      if (!item?.pair) continue
      if (status === 'answered') {
        const winner = itemWinner(source, item)
        // The ties policy: a majority split evenly has no label on this pair; it is left out, never scored as wrong.
        if (winner) calls.push(itemId, 0, CHOICE, winner === 'a' ? 1 : 2, 0)
      } else calls.push(itemId, 0, PAIR_STATUS_CODE.get(status) as number, 0, 0)
    }
    return calls.trimmed()
  }
  // A resolved source carries its columns; one made by hand gets them here.
  return groupColumns(source.columns ?? new SourceColumns(source.input.calls, new UnitDictionary()), items)
}

/**
 * pairCallsOf's grouping, read from the frame's columns of the source's calls: one group per item and display order,
 * in order of their first call, with the trials' votes for each side, the statuses seen and the side shown first.
 */
function groupColumns(columns: SourceColumns, items: ReadonlyMap<number, ReportItem>): PairCalls {
  const { item: itemOf, order: orderOf, status, shownFirst, observationStart, unit, units } = columns
  const winner = columns.field('winner')
  const a = winner.values.indexOf('a')
  const b = winner.values.indexOf('b')
  const n = columns.length
  // Groups held in columns. Where each item's calls come in one run (as gathered), an item's groups are found among
  // the last ones made; otherwise by key (item and order; numeric keys: this runs over every call of every source).
  const contiguous = inRunsByItem(itemOf, n)
  const groupOf = new Map<number, number>()
  let groupsItem = Number.NaN
  let groupsStart = 0
  const votesA = new Int32Array(n)
  const votesB = new Int32Array(n)
  const statuses = new Uint8Array(n)
  const calls = new PairCalls(n)
  // An item's calls usually come one after another: the item and its pair's unit are looked up once per run of them.
  let lastItem = Number.NaN
  let item: ReportItem | undefined
  let pairUnit = -1
  for (let c = 0; c < n; c++) {
    const itemId = itemOf[c] as number
    if (itemId !== lastItem) {
      lastItem = itemId
      item = items.get(itemId)
      pairUnit = item?.pair ? units.find(itemId, item.pair.unit) : -1
    }
    if (!item?.pair) continue
    const order = orderOf[c] as number
    if (!(order >= 0 && order < ORDER_SLOTS)) throw new RangeError(`display order ${order} of item ${itemId} is outside 0..${ORDER_SLOTS - 1}`)
    let g = -1
    if (contiguous) {
      // The item's groups are the last ones made: its order is found among them.
      if (itemId !== groupsItem) {
        groupsItem = itemId
        groupsStart = calls.length
      }
      for (let k = groupsStart; k < calls.length && g < 0; k++) if (calls.order[k] === order) g = k
    } else g = groupOf.get(itemId * ORDER_SLOTS + order) ?? -1
    if (g < 0) {
      g = calls.length
      if (!contiguous) groupOf.set(itemId * ORDER_SLOTS + order, g)
      calls.push(itemId, order, 0, 0, 0)
    }
    const code = status[c] as number
    statuses[g] = (statuses[g] as number) | (STATUS_BIT[CALL_STATUSES[code] as CallStatus] as number)
    const first = shownFirst[c] as number
    if (first !== 0 && calls.shownFirst[g] === 0) calls.shownFirst[g] = first
    if (code !== OK) continue
    const end = observationStart[c + 1] as number
    for (let o = observationStart[c] as number; o < end; o++) {
      if (unit[o] !== pairUnit) continue
      const value = winner.codes[o] as number
      if (value >= 0 && value === a) votesA[g] = (votesA[g] as number) + 1
      else if (value >= 0 && value === b) votesB[g] = (votesB[g] as number) + 1
      break
    }
  }
  for (let g = 0; g < calls.length; g++) {
    const forA = votesA[g] as number
    const forB = votesB[g] as number
    if (forA + forB > 0) {
      // Trials voted: an even split is a tie.
      calls.status[g] = forA === forB ? TIE : CHOICE
      calls.winner[g] = forA === forB ? 0 : forA > forB ? 1 : 2
    } else {
      const fallback = FALLBACK_STATUSES.find((s) => ((statuses[g] as number) & STATUS_BIT[s]) !== 0) ?? 'unparseable'
      calls.status[g] = PAIR_STATUS_CODE.get(fallback) as number
    }
  }
  return calls.trimmed()
}

/** Whether each item's calls come one after another (one run per item). */
function inRunsByItem(items: Int32Array, n: number): boolean {
  const seen = new Set<number>()
  for (let c = 0; c < n; c++) {
    const item = items[c] as number
    if (c > 0 && item === items[c - 1]) continue
    if (seen.has(item)) return false
    seen.add(item)
  }
  return true
}

/** Of a call with no winner, the status it reports (earlier wins). */
const FALLBACK_STATUSES = ['abstained', 'unparseable', 'failed', 'pending'] as const

/** Display orders per item a group key leaves room for. */
const ORDER_SLOTS = 1024
const STATUS_BIT = { ok: 1, abstained: 2, unparseable: 4, failed: 8, pending: 16 } as const

/** The verdicts a position statistic reads, made once: it only reads them. */
const CHOSE_A: PairwiseVerdict<Side> = { kind: 'choice', choice: 'a' }
const CHOSE_B: PairwiseVerdict<Side> = { kind: 'choice', choice: 'b' }
const OTHER_VERDICTS = { tie: { kind: 'tie' }, unparseable: { kind: 'unparseable' }, failed: { kind: 'failed' } } as const

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
export function positionRow(sourceId: string, calls: PairCalls, level: number): ReportPairwise['position'][number] | null {
  const shown: PairwiseCall<Side>[] = []
  // Per item, the side shown first on its first call, or 'both' once the other side was shown first too.
  const orders = new Map<number, Side | 'both'>()
  let bothOrders = false
  const answeredItems = new Set<number>()
  for (let c = 0; c < calls.length; c++) {
    const shownFirst = SIDE_OF_CODE[calls.shownFirst[c] as number]
    if (!shownFirst) continue
    const itemId = calls.item[c] as number
    const seen = orders.get(itemId)
    if (seen === undefined) orders.set(itemId, shownFirst)
    else if (seen !== 'both' && seen !== shownFirst) {
      orders.set(itemId, 'both')
      bothOrders = true
    }
    const status = PAIR_STATUSES[calls.status[c] as number] as PairStatus
    if (status === 'abstained' || status === 'pending') continue
    if (status === 'choice' || status === 'tie') answeredItems.add(itemId)
    const verdict = status === 'choice' ? (calls.winner[c] === 1 ? CHOSE_A : CHOSE_B) : (OTHER_VERDICTS[status as 'tie' | 'unparseable' | 'failed'] as PairwiseVerdict<Side>)
    // positionBias reads only the verdict and the side shown first; the label is not used.
    shown.push({ itemId, label: 'a', verdict, shownFirst })
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
