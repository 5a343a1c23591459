import { majorityLabelBaseline, randomBaseline } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import type { ItemIndex } from './item-index'
import type { ReportItem } from './input'
import { bootstrapCi, exactCi, proportion, put, wilsonOverItems } from './intervals'
import { PAIR_STATUSES, SIDE_OF_CODE, labelOf, labelTermsOf, type LabelTerms, type PairCalls, type PairStatus, type Side } from './pairwise'
import type { ReportPairwiseRow } from './schema'
import type { ResolvedSource } from './resolve'
import { itemOfUnitKey } from './unit-values'
import { NO_ANNOTATOR_BOOTSTRAP, NO_JUDGED_FOR_BASELINE } from './definitions'

/**
 * One source's pairwise calls scored against one criterion's item-level winners, as IdeaEval scores them: one verdict
 * per call (an item in one display order, trials voted), a failed call listed and left out of the judged
 * denominator, an unparseable one counted as incorrect, a tie kept as not correct (and reported without ties too),
 * an abstention no choice at all. Point estimates count calls; their Wilson intervals count items.
 *
 * Every figure is a count, so the calls are tallied in one pass into counters (overall, per label, per side, per
 * subset, per item) rather than listed and filtered once per table: this runs over every call of every source.
 */

export interface PairwiseRowOptions {
  level: number
  /** Null for individual annotators: their rows carry Wilson intervals only. */
  plan: BootstrapPlan | null
  terms: LabelTerms
  labels: readonly string[]
  /** A human majority's pairs its annotators split evenly on, among those the criterion labels: left out, and said. */
  tiedVotes?: number | undefined
}

/** Judged (not failed) and correct calls of one group. */
interface Count {
  judged: number
  correct: number
}

/**
 * What each item's calls add up to, as columns in order of the item's first call: its share of the bootstrap ratio
 * (correct and judged calls), its judged calls other than ties, its label, and the groups its calls count in (label,
 * side, subsets; found once per item). Columns rather than an object per item: this runs for every source and
 * criterion over every item.
 */
class ItemCounts {
  length = 0
  item = new Int32Array(64)
  numerator = new Int32Array(64)
  denominator = new Int32Array(64)
  decided = new Int32Array(64)
  readonly label: string[] = []
  /** Item k's groups are groups[groupStart[k]] up to groups[groupStart[k + 1]]. */
  groupStart = new Int32Array(65)
  readonly groups: Count[] = []

  /** Adds an item, whose groups are pushed next (closed by `closeGroups`); returns its index. */
  add(itemId: number, label: string): number {
    const k = this.length
    if (k === this.item.length) this.grow()
    this.item[k] = itemId
    this.label.push(label)
    this.length = k + 1
    return k
  }

  closeGroups(k: number): void {
    this.groupStart[k + 1] = this.groups.length
  }

  private grow(): void {
    const bigger = (a: Int32Array, extra = 0) => {
      const b = new Int32Array(a.length * 2 + extra)
      b.set(a)
      return b
    }
    this.item = bigger(this.item)
    this.numerator = bigger(this.numerator)
    this.denominator = bigger(this.denominator)
    this.decided = bigger(this.decided)
    this.groupStart = bigger(this.groupStart, -1)
  }
}

const SUBSET_GROUPINGS = ['set', 'probe', 'label_source'] as const

function subsetKey(by: (typeof SUBSET_GROUPINGS)[number], item: ReportItem): string | null {
  if (by === 'set') return item.set
  if (by === 'probe') return item.pair?.probe ?? null
  return item.pair?.labelSource ?? null
}

function countIn<K>(counts: Map<K, Count>, key: K): Count {
  let count = counts.get(key)
  if (!count) counts.set(key, (count = { judged: 0, correct: 0 }))
  return count
}

/**
 * A criterion's winners over the report's items by dense index (0: no winner, 1: a, 2: b), read by the rows in
 * place of maps keyed by item id: each row looks an item up once per run of its calls.
 */
export interface CriterionTruth {
  index: ItemIndex
  /** The report's items, by the same dense index. */
  items: readonly ReportItem[]
  side: Int8Array
}

const SIDE_OF_TRUTH: ReadonlyArray<Side | undefined> = [undefined, 'a', 'b']

/** A criterion's truth over the items, from its winner of each. */
export function criterionTruth(index: ItemIndex, items: readonly ReportItem[], winnerOf: (item: ReportItem) => Side | null): CriterionTruth {
  const side = new Int8Array(items.length)
  for (const item of items) {
    const w = winnerOf(item)
    side[index.find(item.id)] = w === 'a' ? 1 : w === 'b' ? 2 : 0
  }
  return { index, items, side }
}

export function pairwiseRow(
  sourceId: string,
  calls: PairCalls,
  criterionId: string,
  criterion: CriterionTruth,
  options: PairwiseRowOptions
): ReportPairwiseRow {
  const { terms, level } = options
  let abstained = 0
  let pending = 0
  let total = 0
  let failed = 0
  let unparseable = 0
  let ties = 0
  let correct = 0
  // Per label in the row's terms and per canonical side of the truth; per subset value (a group exists once any
  // call of it is scored, failed ones included).
  const byLabel = new Map<string, Count>()
  const bySide = new Map<Side, Count>()
  const bySubset = SUBSET_GROUPINGS.map(() => new Map<string, Count>())
  // Each item's index in `counts`, by the item's dense index (-1: none yet).
  const byItem = new Int32Array(criterion.items.length).fill(-1)
  const counts = new ItemCounts()
  // An item's calls come one after another: its truth, facts and count are looked up once per run of them.
  let lastItem = Number.NaN
  let truth: Side | undefined
  let item: ReportItem | undefined
  let k = -1
  let dense = -1
  // Items with any call in scope, whatever its status: the items of "of all in scope".
  let itemsInScope = 0
  for (let c = 0; c < calls.length; c++) {
    const itemId = calls.item[c] as number
    if (itemId !== lastItem) {
      lastItem = itemId
      dense = criterion.index.find(itemId)
      truth = dense < 0 ? undefined : SIDE_OF_TRUTH[criterion.side[dense] as number]
      item = dense < 0 ? undefined : criterion.items[dense]
      k = dense < 0 ? -1 : (byItem[dense] as number)
      if (truth && item) itemsInScope++
    }
    if (!truth || !item) continue
    const status = PAIR_STATUSES[calls.status[c] as number] as PairStatus
    if (status === 'abstained') {
      abstained++
      continue
    }
    if (status === 'pending') {
      pending++
      continue
    }
    total++
    if (k < 0) {
      const label = labelOf(item, truth, terms)
      // Every group the item's calls count in: its label, its side, and its value of each subset grouping.
      k = counts.add(item.id, label)
      counts.groups.push(countIn(byLabel, label), countIn(bySide, truth))
      for (let g = 0; g < SUBSET_GROUPINGS.length; g++) {
        const key = subsetKey(SUBSET_GROUPINGS[g] as (typeof SUBSET_GROUPINGS)[number], item)
        if (key !== null) counts.groups.push(countIn(bySubset[g] as Map<string, Count>, key))
      }
      counts.closeGroups(k)
      byItem[dense] = k
    }
    if (status === 'failed') {
      failed++
      continue
    }
    // Right when the choice names the truth's label (the same side, or, in origin terms, the same origin).
    const choice = status === 'choice' ? (SIDE_OF_CODE[calls.winner[c] as number] as Side) : null
    const right = choice !== null && (choice === truth || labelOf(item, choice, terms) === counts.label[k])
    if (status === 'unparseable') unparseable++
    if (status === 'tie') ties++
    else counts.decided[k] = (counts.decided[k] as number) + 1
    counts.denominator[k] = (counts.denominator[k] as number) + 1
    if (right) {
      correct++
      counts.numerator[k] = (counts.numerator[k] as number) + 1
    }
    const end = counts.groupStart[k + 1] as number
    for (let g = counts.groupStart[k] as number; g < end; g++) {
      const count = counts.groups[g] as Count
      count.judged++
      if (right) count.correct++
    }
  }
  const judged = total - failed
  let judgedItemCount = 0
  let decidedItemCount = 0
  // The label of each judged call (its item's): the baseline is scored on the calls the accuracy is scored on.
  const judgedCallLabels: string[] = []
  for (let j = 0; j < counts.length; j++) {
    if ((counts.denominator[j] as number) > 0) {
      judgedItemCount++
      for (let c = 0; c < (counts.denominator[j] as number); c++) judgedCallLabels.push(counts.label[j] as string)
    }
    if ((counts.decided[j] as number) > 0) decidedItemCount++
  }

  const reasons: Record<string, string> = {}
  const row = {
    source: sourceId,
    criterion: criterionId,
    n_in_scope: total + abstained + pending,
    n_judged: judged,
    n_failed: failed,
    n_unparseable: unparseable,
    n_abstained: abstained,
    n_pending: pending,
    n_ties: ties,
    ...(options.tiedVotes === undefined ? {} : { n_tied_votes: options.tiedVotes }),
    // The items behind the accuracy (those with a judged call), as a field row's n_items counts them.
    n_items: judgedItemCount,
    correct,
    ci: {},
    reasons
  } as unknown as ReportPairwiseRow
  const record = row as unknown as Record<string, unknown>
  const accuracy = proportion(correct, judged, level, 'no judged calls')
  put(record, reasons, 'accuracy', accuracy)
  row.ci.accuracy = wilsonOverItems(accuracy.value, judgedItemCount, level)
  // The exact binomial interval needs one observation per item: given only where each item has one judged call.
  row.ci.accuracy_exact =
    judgedItemCount === judged
      ? exactCi(correct, judged, level, 'no judged calls')
      : { method: 'clopper-pearson', level, ci_low: null, ci_high: null, reason: 'items were judged in both display orders: the exact binomial interval needs one observation per item (see the Wilson interval over items and the bootstrap)' }
  const ofAll = proportion(correct, row.n_in_scope, level, 'no calls in scope')
  put(record, reasons, 'accuracy_of_all', ofAll)
  row.ci.accuracy_of_all = wilsonOverItems(ofAll.value, itemsInScope, level, 'no calls in scope')
  if (ties > 0) {
    // A tie is never correct, so dropping ties changes only the denominator.
    const share = proportion(correct, judged - ties, level, 'no judged calls once ties are dropped')
    put(record, reasons, 'accuracy_ties_dropped', share)
    row.ci.accuracy_ties_dropped = wilsonOverItems(share.value, decidedItemCount, level, 'no judged calls once ties are dropped')
  }

  // The baseline is counted on the calls in the accuracy's denominator (always answering the majority label on
  // each of them), from the rows, never from metadata, in terms chosen on their items alone: other pairs of the
  // project (probes, say) never change it.
  const own = baselineTerms(counts, criterion, terms)
  const counted = majorityLabelBaseline(own ? own.labels : judgedCallLabels)
  const baseline = counted.total === 0 ? { ...counted, value: null, reason: NO_JUDGED_FOR_BASELINE } : counted
  put(record, reasons, 'majority_baseline', baseline)
  row.majority_label = [...baseline.majority].sort()
  row.label_counts = Object.fromEntries((own ? own.names : options.labels).map((l) => [l, baseline.counts[l] ?? 0]))
  if (own) row.baseline_terms = own.terms
  put(record, reasons, 'random_baseline', randomBaseline(2))
  row.below_majority_baseline = accuracy.value !== null && baseline.value !== null ? accuracy.value < baseline.value : null

  row.per_label = perLabel(byLabel, options.labels, level)
  row.per_label_side = terms === 'side' ? row.per_label : perLabel(bySide, ['a', 'b'], level)
  row.per_label_origin = terms === 'origin' ? row.per_label : []
  row.subsets = subsets(byLabel, bySubset, options)

  if (options.plan) options.plan.addRatioColumns(counts, 'no judged calls', (interval) => (row.ci.accuracy_bootstrap = bootstrapCi(interval)))
  else if (accuracy.value !== null) row.reasons.accuracy_bootstrap = NO_ANNOTATOR_BOOTSTRAP
  const { ci, reasons: why, ...rest } = row
  return { ...rest, ci, reasons: why }
}

/**
 * The terms of a row's majority baseline, chosen on the row's own judged items: origin when each sets a human proposal
 * against an AI one, sides otherwise. Null when they are the report's terms (the baseline is counted as before);
 * else the judged items' labels in the row's own terms.
 */
function baselineTerms(counts: ItemCounts, criterion: CriterionTruth, reportTerms: LabelTerms): { terms: LabelTerms; names: string[]; labels: string[] } | null {
  const judged: ReportItem[] = []
  const sides: Side[] = []
  const calls: number[] = []
  for (let k = 0; k < counts.length; k++) {
    if ((counts.denominator[k] as number) === 0) continue
    const dense = criterion.index.find(counts.item[k] as number)
    judged.push(criterion.items[dense] as ReportItem)
    sides.push(SIDE_OF_TRUTH[criterion.side[dense] as number] as Side)
    calls.push(counts.denominator[k] as number)
  }
  if (judged.length === 0) return null
  const terms = labelTermsOf(judged)
  if (terms === reportTerms) return null
  return {
    terms,
    names: terms === 'origin' ? ['human', 'ai'] : ['a', 'b'],
    labels: judged.flatMap((item, i) => Array<string>(calls[i] as number).fill(labelOf(item, sides[i] as Side, terms)))
  }
}

/** Accuracy within each label (declared labels appear even when no call carries them), with Wilson intervals. */
function perLabel(counts: ReadonlyMap<string, Count>, labels: readonly string[], level: number): ReportPairwiseRow['per_label'] {
  return labels.map((label) => {
    const { judged, correct } = counts.get(label) ?? { judged: 0, correct: 0 }
    const share = proportion(correct, judged, level)
    return { label, n: judged, correct, accuracy: share.value, ci_low: share.lower, ci_high: share.upper }
  })
}

function subsets(byLabel: ReadonlyMap<string, Count>, bySubset: ReadonlyArray<ReadonlyMap<string, Count>>, options: PairwiseRowOptions): ReportPairwiseRow['subsets'] {
  const out: ReportPairwiseRow['subsets'] = []
  const push = (by: ReportPairwiseRow['subsets'][number]['by'], value: string, { judged, correct }: Count) => {
    const share = proportion(correct, judged, options.level)
    out.push({ by, value, n_judged: judged, correct, accuracy: share.value, ci_low: share.lower, ci_high: share.upper })
  }
  // Labels are always shown, so both sides are visible.
  for (const label of options.labels) {
    const count = byLabel.get(label)
    if (count) push('label', label, count)
  }
  SUBSET_GROUPINGS.forEach((by, g) => {
    const groups = bySubset[g] as ReadonlyMap<string, Count>
    // A grouping with one value repeats the overall figure.
    if (groups.size < 2) return
    for (const value of [...groups.keys()].sort()) push(by, value, groups.get(value) as Count)
  })
  return out
}

/** A majority's pairs tied on the winner among those the criterion labels; undefined for a source that has none. */
export function tiedPairs(source: ResolvedSource, truth: CriterionTruth, dense: ItemIndex): number | undefined {
  const tied = source.tiedUnits?.get('winner')
  if (!tied) return undefined
  let n = 0
  for (const key of tied) {
    const index = dense.find(itemOfUnitKey(key))
    if (index >= 0 && truth.side[index] !== 0) n++
  }
  return n
}
