import { clopperPearsonInterval, wilsonInterval, wilsonIntervalOfShare, type DrawAhead, type KappaWithSe, type BootstrapInterval, type Estimate, type IntervalEstimate } from '../stats'
import type { ReportInterval } from './schema'

/** Bootstrap settings shared by every interval of one report (recorded in the report's settings). */
export interface BootstrapSettings {
  resamples: number
  seed: number
  level: number
  /** Draws the resamples on another thread while this one computes the statistics (see DrawAhead). */
  drawAhead?: DrawAhead | undefined
}

export type { DrawAhead, DrawAheadJob, DrawsAhead } from '../stats'

export function wilsonCi(interval: IntervalEstimate): ReportInterval {
  return {
    method: 'wilson',
    level: interval.level,
    ci_low: interval.lower,
    ci_high: interval.upper,
    ...(interval.value === null ? { reason: interval.reason } : {})
  }
}

/**
 * Wilson interval of a share over the items it rests on, when an item contributes several calls (both display
 * orders): the items, not the calls, are the independent observations. `n` in the interval says so.
 */
export function wilsonOverItems(share: number | null, items: number, level: number, none = 'no judged calls'): ReportInterval {
  if (share === null || items === 0) return { method: 'wilson', level, ci_low: null, ci_high: null, reason: none }
  const interval = wilsonIntervalOfShare(share, items, level)
  return { method: 'wilson', level, ci_low: interval.lower, ci_high: interval.upper, n: items }
}

/** A proportion with its Wilson interval; undefined (with the reason) when there are no trials. */
export function proportion(successes: number, trials: number, level: number, none = 'no units in the denominator'): IntervalEstimate {
  if (trials === 0) return { value: null, reason: none, lower: null, upper: null, level }
  return wilsonInterval(successes, trials, level)
}

export function bootstrapCi(interval: BootstrapInterval, paired = false): ReportInterval {
  return {
    method: paired ? 'paired cluster bootstrap (percentile)' : 'cluster bootstrap (percentile)',
    level: interval.level,
    ci_low: interval.lower,
    ci_high: interval.upper,
    resamples: interval.resamples,
    undefined_resamples: interval.undefinedResamples,
    seed: interval.seed,
    ...(interval.intervalReason ? { reason: interval.intervalReason } : {})
  }
}

/** Writes a statistic as a number or null; an undefined one leaves its reason under the same name. */
export function put(row: Record<string, unknown>, reasons: Record<string, string>, name: string, estimate: Estimate): void {
  row[name] = estimate.value
  if (estimate.value === null) reasons[name] = estimate.reason
}

/** Clopper–Pearson interval of successes / trials (none when there are no trials). */
export function exactCi(successes: number, trials: number, level: number, none = 'no units in the denominator'): ReportInterval {
  if (trials === 0) return { method: 'clopper-pearson', level, ci_low: null, ci_high: null, reason: none }
  const interval = clopperPearsonInterval(successes, trials, level)
  return { method: 'clopper-pearson', level, ci_low: interval.lower, ci_high: interval.upper }
}

/** The normal interval of a kappa from its asymptotic standard error. */
export function asymptoticCi(kappa: KappaWithSe): ReportInterval {
  return {
    method: 'asymptotic normal',
    level: kappa.level,
    ci_low: kappa.lower,
    ci_high: kappa.upper,
    ...(kappa.value === null ? { reason: kappa.reason } : {})
  }
}
