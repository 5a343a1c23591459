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
