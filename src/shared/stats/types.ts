/**
 * Shared result types of the statistics.
 *
 * A statistic that is undefined on its input says so with a reason; it never returns a stand-in number
 * (a fake 0, 1 or NaN) that could end up in a table as if it had been measured.
 */
export type Estimate = { value: number; reason?: undefined } | { value: null; reason: string }

/** A point estimate with a confidence interval; undefined as a whole when the point is undefined. */
export type IntervalEstimate = (
  | { value: number; lower: number; upper: number; reason?: undefined }
  | { value: null; lower: null; upper: null; reason: string }
) & {
  /** Confidence level, e.g. 0.95. */
  level: number
}

/** Measurement level of a field, which decides the statistics that apply to it. */
export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio'

/** Agreement weights between ordered categories: identity (unweighted), linear or quadratic. */
export type Weighting = 'identity' | 'linear' | 'quadratic'

/** A category label: what annotators and judges choose among. */
export type Category = string | number | boolean

export function defined(value: number): Estimate {
  if (!Number.isFinite(value)) {
    // A non-finite result means a formula was applied outside its domain; surfacing it beats storing NaN.
    throw new RangeError(`statistic evaluated to ${value}; the undefined case must be handled explicitly`)
  }
  return { value }
}

export function undefinedBecause(reason: string): { value: null; reason: string } {
  return { value: null, reason }
}

export function isDefined(estimate: Estimate): estimate is { value: number; reason?: undefined } {
  return estimate.value !== null
}
