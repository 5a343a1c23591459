import { assertFiniteNumbers, assertSameLength, binaryOutcomes } from '../stats/input-checks'

/** What a threshold is chosen to maximise on the fit items. */
export const THRESHOLD_METRICS = ['balanced_accuracy', 'accuracy', 'f1', 'youden'] as const
/** What a threshold maximises where no metric is named. */
export const DEFAULT_THRESHOLD_METRIC: ThresholdMetric = 'balanced_accuracy'
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number]

export type ThresholdParameters = {
  /** A score at or above the threshold is a positive decision. */
  threshold: number
  metric: ThresholdMetric
  /** The metric's value on the fit items at the chosen threshold. */
  fitValue: number
  candidates: number
}

/**
 * Chooses the threshold t (decision: score ≥ t) that maximises the metric on the fit items. Candidates are every
 * distinct score and one above the largest (never positive); among equal values the candidate closest to the median
 * of the scores wins, then the smaller one, so the choice is deterministic.
 */
export function chooseThreshold(scores: readonly number[], outcomes: readonly (number | boolean)[], metric: ThresholdMetric = DEFAULT_THRESHOLD_METRIC): ThresholdParameters {
  assertSameLength(scores, outcomes, 'threshold')
  assertFiniteNumbers(scores, 'threshold scores')
  const y = binaryOutcomes(outcomes, 'threshold')
  if (y.length === 0) throw new RangeError('choosing a threshold needs at least one labelled score')
  const distinct = [...new Set(scores)].sort((a, b) => a - b)
  const candidates = [...distinct, (distinct[distinct.length - 1] as number) + 1]
  const sorted = [...scores].sort((a, b) => a - b)
  const median = ((sorted[Math.floor((sorted.length - 1) / 2)] as number) + (sorted[Math.ceil((sorted.length - 1) / 2)] as number)) / 2
  let best: { threshold: number; value: number } | null = null
  for (const t of candidates) {
    const value = decisionMetric(scores.map((s) => (s >= t ? 1 : 0)), y, metric)
    if (value === null) continue
    const better =
      !best ||
      value > best.value + 1e-12 ||
      (Math.abs(value - best.value) <= 1e-12 && Math.abs(t - median) < Math.abs(best.threshold - median))
    if (better) best = { threshold: t, value }
  }
  if (!best) throw new RangeError(`the ${metric} of a threshold is undefined on these fit items (only one class present)`)
  return { threshold: best.threshold, metric, fitValue: best.value, candidates: candidates.length }
}

/** A binary decision's metric against 0/1 outcomes; null where undefined (e.g. balanced accuracy with one class). */
export function decisionMetric(decisions: readonly number[], outcomes: readonly number[], metric: ThresholdMetric): number | null {
  let tp = 0, tn = 0, fp = 0, fn = 0
  decisions.forEach((d, i) => {
    const o = outcomes[i]
    if (d === 1 && o === 1) tp++
    else if (d === 0 && o === 0) tn++
    else if (d === 1) fp++
    else fn++
  })
  const n = tp + tn + fp + fn
  if (n === 0) return null
  if (metric === 'accuracy') return (tp + tn) / n
  if (metric === 'f1') return 2 * tp + fp + fn === 0 ? null : (2 * tp) / (2 * tp + fp + fn)
  if (tp + fn === 0 || tn + fp === 0) return null
  const sensitivity = tp / (tp + fn)
  const specificity = tn / (tn + fp)
  return metric === 'balanced_accuracy' ? (sensitivity + specificity) / 2 : sensitivity + specificity - 1
}
