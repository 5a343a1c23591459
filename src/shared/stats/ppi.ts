import { assertFiniteNumbers, assertLevel } from './input-checks'
import { normalCriticalValue } from './wilson-interval'

/**
 * Prediction-powered inference for a mean (Angelopoulos et al., Science 2023) and its power-tuned form PPI++
 * (Angelopoulos, Duchi & Zrnic 2024), as ppi_py's `ppi_mean_ci`:
 *   θ̂ = mean(λŶᵤ) + mean(Y − λŶ),  SE² = var₀(λŶᵤ)/N + var₀(Y − λŶ)/n  (var₀: population variance, ddof = 0),
 * with a normal (z) interval. λ = 1 is classic PPI; PPI++ takes λ = cov₀(Y, Ŷ) / ((1 + n/N)·var₁(Ŷ ∪ Ŷᵤ)) clipped
 * to [0, 1] (ppi_py `_calc_lam_glm`: the covariance over the labelled items with ddof 0, the variance of the judge's
 * labels over labelled and unlabelled items together with ddof 1). ppi_py defaults to a 90% interval; Assay
 * reports 95% unless a level is given.
 */

export type PpiLambda = 'classic' | 'tuned' | number

export type PpiMean =
  | {
      value: number
      se: number
      lower: number
      upper: number
      lambda: number
      level: number
      n: number
      N: number
      reason?: undefined
    }
  | { value: null; se: null; lower: null; upper: null; lambda: number | null; level: number; n: number; N: number; reason: string }

export type MeanEstimate =
  | { value: number; se: number; lower: number; upper: number; level: number; n: number; reason?: undefined }
  | { value: null; se: null; lower: null; upper: null; level: number; n: number; reason: string }

const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length

function variance(x: readonly number[], ddof: 0 | 1): number {
  const m = mean(x)
  return x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - ddof)
}

/** The PPI++ power-tuning parameter (clipped to [0, 1]); null when the judge's labels do not vary. */
export function ppiTunedLambda(labels: readonly number[], judgeLabelled: readonly number[], judgeUnlabelled: readonly number[]): number | null {
  const n = labels.length
  const N = judgeUnlabelled.length
  if (n < 1 || N < 1) return null
  const my = mean(labels)
  const mf = mean(judgeLabelled)
  const cov = labels.reduce((s, y, i) => s + (y - my) * ((judgeLabelled[i] as number) - mf), 0) / n
  const all = [...judgeLabelled, ...judgeUnlabelled]
  if (all.length < 2) return null
  const v = variance(all, 1)
  if (!(v > 0)) return null
  return Math.min(1, Math.max(0, cov / ((1 + n / N) * v)))
}

/**
 * PPI mean with its standard error and interval. labels: human labels Y on the n labelled items; judgeLabelled:
 * the judge's labels Ŷ on the same items; judgeUnlabelled: the judge's labels Ŷᵤ on the N items without a human label.
 */
export function ppiMean(
  labels: readonly number[],
  judgeLabelled: readonly number[],
  judgeUnlabelled: readonly number[],
  options: { lambda?: PpiLambda; level?: number } = {}
): PpiMean {
  const level = options.level ?? 0.95
  assertLevel(level)
  if (labels.length !== judgeLabelled.length) {
    throw new RangeError(`PPI: human and judge labels must cover the same labelled items (lengths ${labels.length} and ${judgeLabelled.length})`)
  }
  assertFiniteNumbers(labels, 'PPI human labels')
  assertFiniteNumbers(judgeLabelled, 'PPI judge labels (labelled items)')
  assertFiniteNumbers(judgeUnlabelled, 'PPI judge labels (unlabelled items)')
  const n = labels.length
  const N = judgeUnlabelled.length
  const choice = options.lambda ?? 'classic'
  const none = (reason: string, lambda: number | null = null): PpiMean => ({ value: null, se: null, lower: null, upper: null, lambda, level, n, N, reason })
  if (n === 0) return none('no item has both a human and a judge label')
  if (N === 0) return none('no item has a judge label without a human label: with every item labelled, the human mean is the estimate')
  let lambda: number
  if (choice === 'classic') lambda = 1
  else if (choice === 'tuned') {
    const tuned = ppiTunedLambda(labels, judgeLabelled, judgeUnlabelled)
    if (tuned === null) return none("the judge's labels do not vary, so the power-tuning parameter is undefined")
    lambda = tuned
  } else {
    if (!(choice >= 0 && choice <= 1)) throw new RangeError(`PPI λ must lie in [0, 1] (${choice})`)
    lambda = choice
  }
  const imputed = judgeUnlabelled.map((f) => lambda * f)
  const rectifier = labels.map((y, i) => y - lambda * (judgeLabelled[i] as number))
  const value = mean(imputed) + mean(rectifier)
  const se = Math.sqrt(variance(imputed, 0) / N + variance(rectifier, 0) / n)
  const z = normalCriticalValue(level)
  return { value, se, lower: value - z * se, upper: value + z * se, lambda, level, n, N }
}

/**
 * The classical mean of n values with a normal interval, SE = sd₀/√n (ppi_py `classical_mean_ci`, which takes
 * numpy's default standard deviation, ddof = 0). Undefined below two values.
 */
export function classicalMean(values: readonly number[], level = 0.95): MeanEstimate {
  assertLevel(level)
  assertFiniteNumbers(values, 'mean')
  const n = values.length
  if (n < 2) return { value: null, se: null, lower: null, upper: null, level, n, reason: n === 0 ? 'no values' : 'one value: no standard error' }
  const value = mean(values)
  const se = Math.sqrt(variance(values, 0) / n)
  const z = normalCriticalValue(level)
  return { value, se, lower: value - z * se, upper: value + z * se, level, n }
}
