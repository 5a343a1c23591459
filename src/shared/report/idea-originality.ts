import { clusterBootstrap } from '../stats/bootstrap'
import type { Estimate } from '../stats/types'
import type { IdeaOriginalityRow, IdeaOriginalitySection } from './idea-originality-schema'
import type { ReportInput, GeneratedIdeaFacts } from './input'

// The comparison of chosen and excluded ideas: for each source that scored originality, the mean originality of the
// ideas the generator chose and of those it left out, and the difference with an interval from resampling whole
// keywords (a choice is made among one keyword's candidates, so its ideas are not independent of each other).

/** What the report needs of a generated idea's payload (`generation`, written by the generation runner). */
export function generatedIdeaFacts(payload: Record<string, unknown>): GeneratedIdeaFacts | null {
  const g = payload.generation as Record<string, unknown> | undefined
  if (!g || typeof g !== 'object' || typeof g.selected !== 'boolean') return null
  return { selected: g.selected, scheme: typeof g.scheme === 'string' ? g.scheme : 'unknown', group: `${String(g.run_id)}\u0000${String(g.keyword)}` }
}

interface Scored {
  group: string
  selected: boolean
  value: number
}

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)

function difference(rows: readonly Scored[]): Estimate {
  const s = mean(rows.filter((r) => r.selected).map((r) => r.value))
  const e = mean(rows.filter((r) => !r.selected).map((r) => r.value))
  return s === null || e === null ? { value: null, reason: s === null ? 'no chosen idea' : 'no excluded idea' } : { value: s - e }
}

function row(source: string, scheme: string, scored: readonly Scored[], options: { level: number; resamples: number; seed: number }): IdeaOriginalityRow {
  const selected = scored.filter((r) => r.selected).map((r) => r.value)
  const excluded = scored.filter((r) => !r.selected).map((r) => r.value)
  const groups = new Map<string, Scored[]>()
  for (const r of scored) groups.set(r.group, [...(groups.get(r.group) ?? []), r])
  const reasons: Record<string, string> = {}
  const point = difference(scored)
  let ci: { lower: number | null; upper: number | null } = { lower: null, upper: null }
  if (point.value === null) reasons.difference = excluded.length === 0 ? 'no excluded idea: the single request keeps every idea it proposes' : point.reason
  else if (groups.size < 2) reasons.ci = 'one keyword: no interval'
  else {
    const boot = clusterBootstrap([...groups.values()], (resample) => difference(resample.flat()), { level: options.level, resamples: options.resamples, seed: options.seed })
    ci = { lower: boot.lower, upper: boot.upper }
    if (boot.intervalReason) reasons.ci = boot.intervalReason
  }
  return {
    source,
    scheme,
    n_groups: groups.size,
    n_selected: selected.length,
    n_excluded: excluded.length,
    mean_selected: mean(selected),
    mean_excluded: mean(excluded),
    difference: point.value,
    ci_low: ci.lower,
    ci_high: ci.upper,
    reasons
  }
}

/** The section, or null when no item in scope is a generated idea or no source scored originality. */
export function ideaOriginalitySection(input: ReportInput, options: { level: number; resamples: number; seed: number }): IdeaOriginalitySection | null {
  const facts = new Map(input.items.flatMap((i) => (i.generatedIdea ? [[i.id, i.generatedIdea] as const] : [])))
  if (facts.size === 0 || !input.instrument.fields.some((f) => f.name === 'originality')) return null
  const rows: IdeaOriginalityRow[] = []
  for (const source of input.sources) {
    // One value per item and source: the mean over its answered calls (trials, repeated answers).
    const values = new Map<number, number[]>()
    for (const call of source.calls) {
      if (call.status !== 'ok' || !facts.has(call.itemId)) continue
      for (const o of call.observations) {
        const v = o.values.originality
        if (typeof v === 'number') values.set(call.itemId, [...(values.get(call.itemId) ?? []), v])
      }
    }
    if (values.size === 0) continue
    const scored = [...values].map(([itemId, vs]) => ({ ...facts.get(itemId)!, value: mean(vs)! }))
    const schemes = [...new Set(scored.map((s) => s.scheme))].sort()
    if (schemes.length > 1) rows.push(row(source.id, 'all', scored, options))
    for (const scheme of schemes) rows.push(row(source.id, scheme, scored.filter((s) => s.scheme === scheme), options))
  }
  return rows.length ? { field: 'originality', n_generated: facts.size, rows } : null
}
