import { sortedQuantileType7 } from './quantile'
import { assertProbabilities, assertSameLength, binaryOutcomes } from './input-checks'
import { defined, undefinedBecause, type Estimate } from './types'

export type ReliabilityBin = {
  lower: number
  upper: number
  count: number
  meanPredicted: number
  observedFrequency: number
}

export type CalibrationError = Estimate & {
  /** Non-empty bins only, lowest first: the points of a reliability diagram. */
  bins: ReliabilityBin[]
  binCount: number
}

/**
 * Bin of a probability among binCount even bins over [0, 1]: a probability exactly on an inner edge goes to the
 * lower bin (numpy.searchsorted side='left' on the inner edges, as sklearn's calibration_curve).
 */
export function reliabilityBinIndex(probability: number, binCount: number): number {
  let index = 0
  while (index < binCount - 1 && innerEdge(index + 1, binCount) < probability) index++
  return index
}

// i / binCount rather than i·(1/binCount): for ten bins 0.3 is then exactly an edge, as written.
function innerEdge(edgeIndex: number, binCount: number): number {
  return edgeIndex / binCount
}

/**
 * Expected calibration error: Σ over non-empty bins of (count / n)·|observed frequency − mean predicted|, with
 * the reliability-diagram bins it is computed from.
 */
export function expectedCalibrationError(
  outcomes: readonly (number | boolean)[],
  probabilities: readonly number[],
  binCount = 10
): CalibrationError {
  if (!(Number.isInteger(binCount) && binCount >= 1)) throw new RangeError(`bin count must be a positive integer (${binCount})`)
  assertSameLength(outcomes, probabilities, 'calibration error')
  const y = binaryOutcomes(outcomes, 'calibration error')
  assertProbabilities(probabilities, 'calibration error')
  const sums = Array.from({ length: binCount }, () => ({ count: 0, predicted: 0, observed: 0 }))
  probabilities.forEach((p, i) => {
    const bin = sums[reliabilityBinIndex(p, binCount)] as { count: number; predicted: number; observed: number }
    bin.count++
    bin.predicted += p
    bin.observed += y[i] as number
  })
  const bins: ReliabilityBin[] = []
  sums.forEach((sum, index) => {
    if (sum.count === 0) return
    bins.push({
      lower: index / binCount,
      upper: (index + 1) / binCount,
      count: sum.count,
      meanPredicted: sum.predicted / sum.count,
      observedFrequency: sum.observed / sum.count
    })
  })
  if (y.length === 0) return { ...undefinedBecause('no forecasts'), bins, binCount }
  const error = bins.reduce((total, bin) => total + (bin.count / y.length) * Math.abs(bin.observedFrequency - bin.meanPredicted), 0)
  return { ...defined(error), bins, binCount }
}

/**
 * Expected calibration error with quantile bins (sklearn `calibration_curve(strategy="quantile")`): bin edges at
 * the type-7 quantiles 0, 1/B, …, 1 of the predicted probabilities, each probability in the bin found by searching
 * the inner edges (side left); bins left empty by repeated edges are skipped. Each bin holds about n/B forecasts,
 * so sparse regions of [0, 1] do not leave single-forecast bins.
 */
export function quantileCalibrationError(outcomes: readonly (number | boolean)[], probabilities: readonly number[], binCount = 10): CalibrationError {
  if (!(Number.isInteger(binCount) && binCount >= 1)) throw new RangeError(`bin count must be a positive integer (${binCount})`)
  assertSameLength(outcomes, probabilities, 'calibration error')
  const y = binaryOutcomes(outcomes, 'calibration error')
  assertProbabilities(probabilities, 'calibration error')
  if (y.length === 0) return { ...undefinedBecause('no forecasts'), bins: [], binCount }
  const sorted = [...probabilities].sort((a, b) => a - b)
  const edges = Array.from({ length: binCount + 1 }, (_, i) => sortedQuantileType7(sorted, i / binCount))
  const inner = edges.slice(1, -1)
  const sums = Array.from({ length: binCount }, () => ({ count: 0, predicted: 0, observed: 0 }))
  probabilities.forEach((p, i) => {
    // searchsorted(inner, p, side='left'): the number of inner edges strictly below p.
    let index = 0
    while (index < inner.length && (inner[index] as number) < p) index++
    const bin = sums[index] as { count: number; predicted: number; observed: number }
    bin.count++
    bin.predicted += p
    bin.observed += y[i] as number
  })
  const bins: ReliabilityBin[] = []
  sums.forEach((sum, index) => {
    if (sum.count === 0) return
    bins.push({ lower: edges[index] as number, upper: edges[index + 1] as number, count: sum.count, meanPredicted: sum.predicted / sum.count, observedFrequency: sum.observed / sum.count })
  })
  const error = bins.reduce((total, bin) => total + (bin.count / y.length) * Math.abs(bin.observedFrequency - bin.meanPredicted), 0)
  return { ...defined(error), bins, binCount }
}

