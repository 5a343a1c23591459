import type { Weighting } from './types'

/**
 * Agreement weights between category positions 0..q-1 (1 on the diagonal).
 * linear: 1 − |i−j|/(q−1); quadratic: 1 − (i−j)²/(q−1)². Positions come from the declared scale, so the
 * width of the scale counts even where some categories were never used.
 */
export function agreementWeights(categoryCount: number, weighting: Weighting): number[][] {
  const span = categoryCount - 1
  const weights: number[][] = []
  for (let i = 0; i < categoryCount; i++) {
    const row: number[] = []
    for (let j = 0; j < categoryCount; j++) {
      if (i === j) row.push(1)
      else if (weighting === 'identity') row.push(0)
      else if (weighting === 'linear') row.push(1 - Math.abs(i - j) / span)
      else row.push(1 - ((i - j) * (i - j)) / (span * span))
    }
    weights.push(row)
  }
  return weights
}
