import type { Report, ReportInterval, ReportSource } from './schema'

/** Above this share of undefined bootstrap resamples an interval is flagged as unreliable. */
export const MAX_UNDEFINED_RESAMPLE_SHARE = 0.1

/** The share of a bootstrap interval's resamples where its statistic was undefined (null for other intervals). */
export function undefinedShare(interval: ReportInterval | undefined): number | null {
  if (!interval || interval.resamples === undefined || interval.resamples === 0) return null
  return (interval.undefined_resamples ?? 0) / interval.resamples
}

/** The largest undefined share among intervals (null when none is a bootstrap interval). */
export function largestShare(intervals: Iterable<ReportInterval | undefined>): number | null {
  let out: number | null = null
  for (const interval of intervals) {
    const share = undefinedShare(interval)
    if (share !== null && (out === null || share > out)) out = share
  }
  return out
}

/**
 * The "too few items" and "unreliable interval" flags of every source, from every table it appears in (as the
 * source scored or as the criterion scored against): a source is short of items when none of its comparisons rests
 * on `minItems` items or more.
 */
export function flagSources(report: Report, minItems: number): void {
  const items = new Map<string, number>()
  const intervals = new Map<string, ReportInterval[]>()
  const note = (ids: readonly string[], n: number, ci: Record<string, ReportInterval>) => {
    for (const id of ids) {
      items.set(id, Math.max(items.get(id) ?? 0, n))
      const list = intervals.get(id) ?? []
      list.push(...Object.values(ci))
      intervals.set(id, list)
    }
  }
  for (const section of report.fields) for (const row of section.comparisons) note([row.source, row.criterion], row.n_items, row.ci)
  for (const row of report.pairwise?.rows ?? []) note([row.source, row.criterion], row.n_items, row.ci)
  for (const row of report.judge_vs_judge) note([row.first, row.second], row.n_items, row.ci)
  report.sources = report.sources.map((source): ReportSource => {
    const share = largestShare(intervals.get(source.id) ?? [])
    return {
      ...source,
      too_few_items: (items.get(source.id) ?? source.n_items) < minItems,
      unreliable_interval: share !== null && share > MAX_UNDEFINED_RESAMPLE_SHARE,
      undefined_resample_share: share
    }
  })
}
