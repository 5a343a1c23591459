import { cohenKappaFromTable } from './cohen-kappa'
import { confusionMatrix } from './confusion-matrix'
import type { Category, Estimate } from './types'

/**
 * Weighted Cohen's kappa of two sources on an ordinal scale. The scale is declared (ordered, lowest first) rather
 * than read off the data, so labels are placed by their rank on the full scale: on 0..5 with no 4s, 3 and 5 are
 * still two steps apart.
 */
export function weightedKappa<C extends Category>(
  first: readonly C[],
  second: readonly C[],
  scale: readonly C[],
  weighting: 'linear' | 'quadratic'
): Estimate {
  return cohenKappaFromTable(confusionMatrix(first, second, scale).counts, weighting)
}
