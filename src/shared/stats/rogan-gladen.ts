import { assertLevel, assertNonNegativeInteger } from './input-checks'
import { normalCriticalValue } from './wilson-interval'

/**
 * Rogan–Gladen prevalence correction (Rogan & Gladen 1978; for LLM judges Lee et al. 2025, arXiv:2511.21140):
 *   θ̂ = (p̂ + q̂₀ − 1) / (q̂₀ + q̂₁ − 1), clipped to [0, 1],
 * where p̂ is the judge's positive rate on the items to estimate, and q̂₁ (sensitivity) and q̂₀ (specificity) come
 * from a human-labelled calibration set.
 *
 * The interval is a delta-method (Wald) interval on the unclipped estimate, treating p̂, q̂₀ and q̂₁ as independent
 * binomial proportions (three disjoint samples: the judged items, the human negatives, the human positives):
 *   Var(θ̂) ≈ [p̂(1−p̂)/m + (1−θ̂)²·q̂₀(1−q̂₀)/n₀ + θ̂²·q̂₁(1−q̂₁)/n₁] / (q̂₀ + q̂₁ − 1)²,
 * then clipped to [0, 1]. It is undefined when the judge is no better than chance (q̂₀ + q̂₁ ≤ 1).
 */

export type RoganGladenCounts = {
  /** Items the judge called positive, of `judged` items whose prevalence is estimated. */
  judgedPositive: number
  judged: number
  /** On the calibration set: human positives the judge called positive (true positives), of all human positives. */
  truePositives: number
  humanPositives: number
  /** On the calibration set: human negatives the judge called negative (true negatives), of all human negatives. */
  trueNegatives: number
  humanNegatives: number
}

export type RoganGladen =
  | {
      value: number
      /** The estimate before clipping to [0, 1]. */
      unclipped: number
      se: number
      lower: number
      upper: number
      positiveRate: number
      sensitivity: number
      specificity: number
      level: number
      method: 'delta method (Wald), p̂, q̂₀, q̂₁ independent binomials'
      reason?: undefined
    }
  | {
      value: null
      unclipped: null
      se: null
      lower: null
      upper: null
      positiveRate: number | null
      sensitivity: number | null
      specificity: number | null
      level: number
      method: 'delta method (Wald), p̂, q̂₀, q̂₁ independent binomials'
      reason: string
    }

const METHOD = 'delta method (Wald), p̂, q̂₀, q̂₁ independent binomials' as const

export function roganGladen(counts: RoganGladenCounts, level = 0.95): RoganGladen {
  assertLevel(level)
  for (const [key, value] of Object.entries(counts)) assertNonNegativeInteger(value, `Rogan–Gladen ${key}`)
  const pairs: Array<[number, number, string]> = [
    [counts.judgedPositive, counts.judged, 'judged'],
    [counts.truePositives, counts.humanPositives, 'human positives'],
    [counts.trueNegatives, counts.humanNegatives, 'human negatives']
  ]
  for (const [part, whole, what] of pairs) if (part > whole) throw new RangeError(`Rogan–Gladen: ${part} exceeds the ${whole} ${what}`)
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : null)
  const p = share(counts.judgedPositive, counts.judged)
  const q1 = share(counts.truePositives, counts.humanPositives)
  const q0 = share(counts.trueNegatives, counts.humanNegatives)
  const none = (reason: string): RoganGladen => ({
    value: null, unclipped: null, se: null, lower: null, upper: null, positiveRate: p, sensitivity: q1, specificity: q0, level, method: METHOD, reason
  })
  if (p === null) return none('no judged items to estimate the prevalence on')
  if (q1 === null) return none('no human-labelled positives: sensitivity is undefined')
  if (q0 === null) return none('no human-labelled negatives: specificity is undefined')
  const youden = q0 + q1 - 1
  if (!(youden > 0)) return none(`the judge is no better than chance on the labelled items (sensitivity + specificity − 1 = ${youden.toFixed(4)} ≤ 0)`)
  const raw = (p + q0 - 1) / youden
  const variance =
    (p * (1 - p)) / counts.judged +
    ((1 - raw) ** 2 * q0 * (1 - q0)) / counts.humanNegatives +
    (raw ** 2 * q1 * (1 - q1)) / counts.humanPositives
  const se = Math.sqrt(variance) / youden
  const z = normalCriticalValue(level)
  const clip = (x: number) => Math.min(1, Math.max(0, x))
  return {
    value: clip(raw),
    unclipped: raw,
    se,
    lower: clip(raw - z * se),
    upper: clip(raw + z * se),
    positiveRate: p,
    sensitivity: q1,
    specificity: q0,
    level,
    method: METHOD
  }
}
