import { assertFiniteNumbers, assertSameLength, binaryOutcomes } from './input-checks'
import { averageRanks } from './ranks'
import { defined, undefinedBecause, type Estimate } from './types'

export type Auroc = Estimate & { positives: number; negatives: number }

/**
 * Area under the ROC curve as the Mann–Whitney probability that a random positive scores above a random
 * negative, ties counting one half: (R₊ − n₊(n₊ + 1)/2) / (n₊·n₋) with average ranks R.
 */
export function auroc(outcomes: readonly (number | boolean)[], scores: readonly number[]): Auroc {
  assertSameLength(outcomes, scores, 'AUROC')
  const y = binaryOutcomes(outcomes, 'AUROC')
  assertFiniteNumbers(scores, 'AUROC')
  const positives = y.filter((outcome) => outcome === 1).length
  const negatives = y.length - positives
  const counts = { positives, negatives }
  if (positives === 0 || negatives === 0) {
    return { ...undefinedBecause(`only one class present (${positives} positive, ${negatives} negative)`), ...counts }
  }
  const ranks = averageRanks(scores)
  const positiveRankSum = ranks.reduce((sum, rank, i) => sum + (y[i] === 1 ? rank : 0), 0)
  return { ...defined((positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives)), ...counts }
}
