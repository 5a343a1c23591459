import type { PairwiseCall } from './pairwise-types'
import { defined, undefinedBecause, type Estimate } from './types'

export type MajorityBaseline<L extends string> = Estimate & {
  /** The most frequent label(s); several when tied. */
  majority: L[]
  counts: Record<L, number>
  total: number
}

/**
 * Accuracy of always answering the most frequent label: its share of the labels. Counted from the labels given,
 * never from summary metadata (published manifests have misstated their own balance).
 */
export function majorityLabelBaseline<L extends string>(labels: readonly L[]): MajorityBaseline<L> {
  const counts = {} as Record<L, number>
  for (const label of labels) counts[label] = (counts[label] ?? 0) + 1
  return majorityOfCounts(counts)
}

/** majorityLabelBaseline from the labels' counts (label → times given), for callers that tallied them already. */
export function majorityOfCounts<L extends string>(counts: Record<L, number>): MajorityBaseline<L> {
  const entries = Object.entries(counts) as [L, number][]
  let total = 0
  for (const [, count] of entries) total += count
  const top = entries.reduce((max, [, count]) => Math.max(max, count), 0)
  const majority = entries.filter(([, count]) => count === top).map(([label]) => label)
  const summary = { majority, counts, total }
  if (total === 0) return { ...undefinedBecause('no labels'), ...summary }
  return { ...defined(top / total), ...summary }
}

/** Expected accuracy of answering uniformly at random among the options (0.5 for a pair without ties). */
export function randomBaseline(optionCount = 2): Estimate {
  if (!(Number.isInteger(optionCount) && optionCount >= 1)) throw new RangeError(`option count must be a positive integer (${optionCount})`)
  return defined(1 / optionCount)
}

/** One label per pair, read from the calls; calls of one pair that disagree on its label are an error. */
export function labelsPerItem<L extends string>(calls: readonly PairwiseCall<L>[]): L[] {
  const labels = new Map<string | number, L>()
  for (const call of calls) {
    const known = labels.get(call.itemId)
    if (known !== undefined && known !== call.label) {
      throw new RangeError(`pair ${call.itemId} carries two labels (${known}, ${call.label})`)
    }
    labels.set(call.itemId, call.label)
  }
  return [...labels.values()]
}
