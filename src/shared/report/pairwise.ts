import {
  accuracyByLabel,
  majorityLabelBaseline,
  positionBias,
  randomBaseline,
  tallyPairwise,
  type PairwiseCall,
  type PairwiseVerdict
} from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import type { AuditItem, PairFacts } from './input'
import { bootstrapCi, exactCi, proportion, put, wilsonCi, wilsonOverItems } from './intervals'
import { roundResidue } from './residue'
import { unitKey, type ResolvedSource } from './resolve'
import type { ReportPairwise, ReportPairwiseRow } from './schema'

/**
 * Pairwise accuracy as IdeaEval scores it: one verdict per call (an item in one display order, trials voted), both
 * orders kept as separate calls and resampled together; a failed call is listed and left out of the judged
 * denominator, an unparseable one counts as incorrect, an abstention is no choice at all.
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
export function itemWinner(source: ResolvedSource, item: AuditItem): Side | null {
  if (!item.pair) return null
  const v = source.values.get('winner')?.get(pairKeyOf(item, item.pair))
  return isSide(v) ? v : null
}

/** The unit key of a pair's verdict, built once per item: winners are read item by item in several sections. */
const pairKeys = new WeakMap<AuditItem, { id: number; unit: string; key: string }>()

function pairKeyOf(item: AuditItem, pair: PairFacts): string {
  const known = pairKeys.get(item)
  if (known && known.id === item.id && known.unit === pair.unit) return known.key
  const key = unitKey(item.id, pair.unit)
  pairKeys.set(item, { id: item.id, unit: pair.unit, key })
  return key
}

/** A source's calls on pairs, one per item and display order, trials voted; derived sources give one per item. */
export function pairCallsOf(source: ResolvedSource, items: ReadonlyMap<number, AuditItem>): PairCall[] {
  if (source.input.calls.length === 0) {
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
  const groups = new Map<number, { item: number; order: number; a: number; b: number; statuses: number; shownFirst?: Side }>()
  for (const call of source.input.calls) {
    const item = items.get(call.itemId)
    if (!item?.pair) continue
    if (!(call.order >= 0 && call.order < ORDER_SLOTS)) throw new RangeError(`display order ${call.order} of item ${call.itemId} is outside 0..${ORDER_SLOTS - 1}`)
    const key = call.itemId * ORDER_SLOTS + call.order
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { item: call.itemId, order: call.order, a: 0, b: 0, statuses: 0 }))
    group.statuses |= STATUS_BIT[call.status]
    if (call.shownFirst && !group.shownFirst) group.shownFirst = call.shownFirst
    if (call.status !== 'ok') continue
    const unit = item.pair.unit
    let winner: unknown
    for (const o of call.observations) {
      if (o.unit !== unit) continue
      winner = o.values.winner
      break
    }
    if (winner === 'a') group.a++
    else if (winner === 'b') group.b++
  }
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

/** Of a call with no winner, the status it reports (earlier wins). */
const FALLBACK_STATUSES = ['abstained', 'unparseable', 'failed', 'pending'] as const

/** Display orders per item a group key leaves room for. */
const ORDER_SLOTS = 1024
const STATUS_BIT = { ok: 1, abstained: 2, unparseable: 4, failed: 8, pending: 16 } as const

/** Origin terms (human/ai) when every labelled pair sets a human proposal against an AI one; sides otherwise. */
export function labelTermsOf(items: readonly AuditItem[]): LabelTerms {
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

export function labelOf(item: AuditItem, side: Side, terms: LabelTerms): string {
  return terms === 'origin' ? (item.pair?.[side].origin ?? side) : side
}

export interface PairwiseRowOptions {
  level: number
  /** Null for individual annotators: their rows carry Wilson intervals only. */
  plan: BootstrapPlan | null
  terms: LabelTerms
  labels: readonly string[]
}

/** One source's calls scored against one criterion's item-level winners. */
export function pairwiseRow(
  sourceId: string,
  calls: readonly PairCall[],
  criterionId: string,
  criterionWinners: ReadonlyMap<number, Side>,
  items: ReadonlyMap<number, AuditItem>,
  options: PairwiseRowOptions
): ReportPairwiseRow {
  const { terms, level } = options
  let abstained = 0
  let pending = 0
  const scored: PairwiseCall<string>[] = []
  const itemOfCall: AuditItem[] = []
  for (const call of calls) {
    const truth = criterionWinners.get(call.item)
    const item = items.get(call.item)
    if (!truth || !item) continue
    if (call.status === 'abstained') {
      abstained++
      continue
    }
    if (call.status === 'pending') {
      pending++
      continue
    }
    const verdict: PairwiseVerdict<string> =
      call.status === 'choice' ? { kind: 'choice', choice: labelOf(item, call.winner as Side, terms) } : { kind: call.status }
    scored.push({
      itemId: String(call.item),
      label: labelOf(item, truth, terms),
      verdict,
      ...(call.shownFirst ? { shownFirst: labelOf(item, call.shownFirst, terms) } : {})
    })
    itemOfCall.push(item)
  }
  const tally = tallyPairwise(scored, 'kept')
  const reasons: Record<string, string> = {}
  const row = {
    source: sourceId,
    criterion: criterionId,
    n_in_scope: tally.total + abstained + pending,
    n_judged: tally.judged,
    n_failed: tally.failed,
    n_unparseable: tally.unparseable,
    n_abstained: abstained,
    n_pending: pending,
    n_ties: tally.ties,
    n_items: itemsOf(itemOfCall, scored, () => true),
    correct: tally.correct,
    ci: {},
    reasons
  } as unknown as ReportPairwiseRow
  const record = row as unknown as Record<string, unknown>
  // Point estimates count calls (IdeaEval); their Wilson intervals count items, one observation per item.
  const judgedItemCount = itemsOf(itemOfCall, scored, (c) => c.verdict.kind !== 'failed')
  const accuracy = proportion(tally.correct, tally.judged, level, 'no judged calls')
  put(record, reasons, 'accuracy', accuracy)
  row.ci.accuracy = wilsonOverItems(accuracy.value, judgedItemCount, level)
  // The exact binomial interval needs one observation per item: given only where each item has one judged call.
  row.ci.accuracy_exact =
    judgedItemCount === tally.judged
      ? exactCi(tally.correct, tally.judged, level, 'no judged calls')
      : { method: 'clopper-pearson', level, ci_low: null, ci_high: null, reason: 'items were judged in both display orders: the exact binomial interval needs one observation per item (see the Wilson interval over items and the bootstrap)' }
  const ofAll = proportion(tally.correct, row.n_in_scope, level, 'no calls in scope')
  put(record, reasons, 'accuracy_of_all', ofAll)
  row.ci.accuracy_of_all = wilsonOverItems(ofAll.value, row.n_items, level, 'no calls in scope')
  if (tally.ties > 0) {
    const dropped = tallyPairwise(scored, 'dropped')
    const share = proportion(dropped.correct, dropped.judged, level, 'no judged calls once ties are dropped')
    put(record, reasons, 'accuracy_ties_dropped', share)
    const droppedItems = itemsOf(itemOfCall, scored, (c) => c.verdict.kind !== 'failed' && c.verdict.kind !== 'tie')
    row.ci.accuracy_ties_dropped = wilsonOverItems(share.value, droppedItems, level, 'no judged calls once ties are dropped')
  }

  // The baseline is counted on the items in the accuracy's denominator, from the rows, never from metadata.
  const judgedItems = new Map<number, string>()
  scored.forEach((call, i) => {
    if (call.verdict.kind !== 'failed') judgedItems.set((itemOfCall[i] as AuditItem).id, call.label)
  })
  const baseline = majorityLabelBaseline([...judgedItems.values()])
  put(record, reasons, 'majority_baseline', baseline)
  row.majority_label = [...baseline.majority].sort()
  row.label_counts = Object.fromEntries(options.labels.map((l) => [l, baseline.counts[l] ?? 0]))
  put(record, reasons, 'random_baseline', randomBaseline(2))
  row.below_majority_baseline = accuracy.value !== null && baseline.value !== null ? accuracy.value < baseline.value : null

  row.per_label = perLabel(scored, options.labels, level)
  const inFrame = (frame: LabelTerms) =>
    scored.map((call, i) => {
      const item = itemOfCall[i] as AuditItem
      const verdict: PairwiseVerdict<string> =
        call.verdict.kind === 'choice' ? { kind: 'choice', choice: relabel(item, call.verdict.choice, terms, frame) } : call.verdict
      // Only the label and the verdict are read by the per-label tallies.
      return { itemId: call.itemId, label: relabel(item, call.label, terms, frame), verdict }
    })
  row.per_label_side = terms === 'side' ? row.per_label : perLabel(inFrame('side'), ['a', 'b'], level)
  row.per_label_origin = terms === 'origin' ? row.per_label : []
  row.subsets = subsets(scored, itemOfCall, options)

  const perItem = new Map<number, { item: number; numerator: number; denominator: number }>()
  scored.forEach((call, i) => {
    const item = (itemOfCall[i] as AuditItem).id
    let unit = perItem.get(item)
    if (!unit) perItem.set(item, (unit = { item, numerator: 0, denominator: 0 }))
    if (call.verdict.kind !== 'failed') unit.denominator++
    if (call.verdict.kind === 'choice' && call.verdict.choice === call.label) unit.numerator++
  })
  options.plan?.addRatio([...perItem.values()], 'no judged calls', (interval) => (row.ci.accuracy_bootstrap = bootstrapCi(interval)))
  const { ci, reasons: why, ...rest } = row
  return { ...rest, ci, reasons: why }
}

/** How many distinct items the calls that pass `keep` cover (`itemOfCall[i]` is call i's item). */
function itemsOf(itemOfCall: readonly AuditItem[], calls: readonly PairwiseCall<string>[], keep: (call: PairwiseCall<string>) => boolean): number {
  const items = new Set<number>()
  calls.forEach((call, i) => {
    if (keep(call)) items.add((itemOfCall[i] as AuditItem).id)
  })
  return items.size
}

function perLabel(scored: readonly PairwiseCall<string>[], labels: readonly string[], level: number): ReportPairwiseRow['per_label'] {
  return accuracyByLabel(scored, labels, { level }).map((s) => ({
    label: s.label,
    n: s.judged,
    correct: s.correct,
    accuracy: s.ofJudged.value,
    ci_low: s.ofJudged.lower,
    ci_high: s.ofJudged.upper
  }))
}

/** A label in `terms` said in `frame` terms, on one item. */
function relabel(item: AuditItem, label: string, terms: LabelTerms, frame: LabelTerms): string {
  return labelOf(item, terms === frame ? (label as Side) : sideOfLabel(item, label, terms), frame)
}

/** The canonical side a label in `terms` names on an item. */
function sideOfLabel(item: AuditItem, label: string, terms: LabelTerms): Side {
  if (terms === 'side') return label as Side
  return item.pair?.a.origin === label ? 'a' : 'b'
}

function subsets(scored: readonly PairwiseCall<string>[], itemOfCall: readonly AuditItem[], options: PairwiseRowOptions): ReportPairwiseRow['subsets'] {
  const groupings: Array<{ by: ReportPairwiseRow['subsets'][number]['by']; key: (call: PairwiseCall<string>, item: AuditItem) => string | null }> = [
    { by: 'label', key: (call) => call.label },
    { by: 'set', key: (_, item) => item.set },
    { by: 'probe', key: (_, item) => item.pair?.probe ?? null },
    { by: 'label_source', key: (_, item) => item.pair?.labelSource ?? null }
  ]
  const out: ReportPairwiseRow['subsets'] = []
  for (const grouping of groupings) {
    const groups = new Map<string, PairwiseCall<string>[]>()
    scored.forEach((call, i) => {
      const key = grouping.key(call, itemOfCall[i] as AuditItem)
      if (key === null) return
      const list = groups.get(key)
      if (list) list.push(call)
      else groups.set(key, [call])
    })
    // A grouping with one value repeats the overall figure; labels are always shown, so both sides are visible.
    if (grouping.by !== 'label' && groups.size < 2) continue
    const keys = grouping.by === 'label' ? options.labels.filter((l) => groups.has(l)) : [...groups.keys()].sort()
    for (const value of keys) {
      const tally = tallyPairwise(groups.get(value) ?? [], 'kept')
      const share = proportion(tally.correct, tally.judged, options.level)
      out.push({ by: grouping.by, value, n_judged: tally.judged, correct: tally.correct, accuracy: share.value, ci_low: share.lower, ci_high: share.upper })
    }
  }
  return out
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
    shown.push({ itemId: String(call.item), label: 'a', verdict, shownFirst: call.shownFirst })
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
