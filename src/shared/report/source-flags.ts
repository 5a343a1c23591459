import type { ReportInterval, ReportSource } from './schema'

/** Above this share of undefined bootstrap resamples an interval is flagged as unreliable. */
export const MAX_UNDEFINED_RESAMPLE_SHARE = 0.1

/** The share of a bootstrap interval's resamples where its statistic was undefined (null for other intervals). */
export function undefinedShare(interval: ReportInterval | undefined): number | null {
  if (!interval || interval.resamples === undefined || interval.resamples === 0) return null
  return (interval.undefined_resamples ?? 0) / interval.resamples
}

/** The largest undefined share among bootstrap intervals that exist (null when there is none). */
export function largestShare(intervals: Iterable<ReportInterval | undefined>): number | null {
  let out: number | null = null
  for (const interval of intervals) {
    // An interval that could not be formed at all carries its reason instead; there is nothing to be unreliable.
    const share = interval?.ci_low === null ? null : undefinedShare(interval)
    if (share !== null && (out === null || share > out)) out = share
  }
  return out
}

/**
 * The "too few items" and "unreliable interval" flags of every source, from the tables that score it (a criterion
 * never scored against another, from the tables scored against it): a source is short of items when none of its
 * comparisons rests on `minItems` items or more.
 */
export function flaggedSources(
  sources: readonly ReportSource[],
  rows: ReadonlyArray<{ source: string; criterion: string; n_items: number; ci: Record<string, ReportInterval> }>,
  minItems: number
): ReportSource[] {
  type Seen = { items: number; intervals: ReportInterval[] }
  const asSource = new Map<string, Seen>()
  const asCriterion = new Map<string, Seen>()
  const note = (map: Map<string, Seen>, id: string, n: number, ci: Record<string, ReportInterval>) => {
    const seen = map.get(id) ?? { items: 0, intervals: [] }
    seen.items = Math.max(seen.items, n)
    seen.intervals.push(...Object.values(ci))
    map.set(id, seen)
  }
  for (const row of rows) {
    note(asSource, row.source, row.n_items, row.ci)
    note(asCriterion, row.criterion, row.n_items, row.ci)
  }
  return sources.map((source): ReportSource => {
    const seen = asSource.get(source.id) ?? asCriterion.get(source.id)
    const share = largestShare(seen?.intervals ?? [])
    return {
      ...source,
      // A source left out is compared with nothing: its status says why, not a shortage of items.
      too_few_items: !source.left_out && (seen?.items ?? source.n_items) < minItems,
      unreliable_interval: share !== null && share > MAX_UNDEFINED_RESAMPLE_SHARE,
      undefined_resample_share: share
    }
  })
}
