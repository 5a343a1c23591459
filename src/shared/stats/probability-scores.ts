import { assertProbabilities, assertSameLength, binaryOutcomes } from './input-checks'
import { defined, undefinedBecause, type Estimate } from './types'

/** Brier score: mean squared difference between the predicted probability and the 0/1 outcome. */
export function brierScore(outcomes: readonly (number | boolean)[], probabilities: readonly number[]): Estimate {
  assertSameLength(outcomes, probabilities, 'Brier score')
  const y = binaryOutcomes(outcomes, 'Brier score')
  assertProbabilities(probabilities, 'Brier score')
  if (y.length === 0) return undefinedBecause('no forecasts')
  const total = y.reduce((sum, outcome, i) => sum + ((probabilities[i] as number) - outcome) ** 2, 0)
  return defined(total / y.length)
}

/** Probabilities are clipped to [ε, 1 − ε] so that a confident miss costs a large, finite amount. */
export const LOG_LOSS_EPSILON = 1e-15

/** Log loss (cross-entropy, natural log) of probabilities for the positive outcome. */
export function logLoss(outcomes: readonly (number | boolean)[], probabilities: readonly number[]): Estimate {
  assertSameLength(outcomes, probabilities, 'log loss')
  const y = binaryOutcomes(outcomes, 'log loss')
  assertProbabilities(probabilities, 'log loss')
  if (y.length === 0) return undefinedBecause('no forecasts')
  const total = y.reduce((sum, outcome, i) => {
    const p = Math.min(1 - LOG_LOSS_EPSILON, Math.max(LOG_LOSS_EPSILON, probabilities[i] as number))
    return sum - (outcome === 1 ? Math.log(p) : Math.log(1 - p))
  }, 0)
  return defined(total / y.length)
}
