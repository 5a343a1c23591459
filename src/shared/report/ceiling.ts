import type { FieldSpec } from '../instruments/types'
import { fleissKappa, gwetAc1Raters, observedCategories, type Category } from '../stats'
import { putAlphas } from './alpha-levels'
import { compareField, type CompareOptions } from './compare'
import type { ItemStatusCodes } from './compare-units'
import { put } from './intervals'
import { valueKey, type ResolvedSource, type Value } from './resolve'
import type { ReportCeiling, ReportComparison, ReportFieldSection } from './schema'
import { CEILING_DEFINITIONS } from './definitions'
import { statisticLabel } from './format'
import type { OutcomeRule } from './outcomes'

/**
 * The human ceiling: how well people agree with each other, beside how well each judge agrees with the same people,
 * with the same statistics, averaged over rater pairs. A judge cannot be expected to agree with a person more than
 * people agree among themselves.
 */

export function ceilingStatistics(level: string, outcome?: OutcomeRule): string[] {
  // A probability scored against an outcome is compared by the scores its field table gives, never as a number.
  if (level === 'probability' && outcome) return ['brier', 'log_loss', 'ece', 'auroc']
  switch (level) {
    case 'nominal':
      return ['accuracy', 'cohen_kappa', 'gwet_ac1', 'krippendorff_alpha_nominal']
    case 'ordinal':
      return ['accuracy', 'weighted_kappa_quadratic', 'krippendorff_alpha_ordinal', 'spearman']
    case 'ratio':
      return ['mean_abs_diff', 'pearson', 'krippendorff_alpha_ratio']
    default:
      return ['mean_abs_diff', 'pearson', 'krippendorff_alpha_interval']
  }
}

function pairRow(comparison: ReportComparison, statistics: readonly string[]): ReportCeiling['human_human']['pairs'][number] {
  const record = comparison as unknown as Record<string, unknown>
  const stats: Record<string, number | null> = {}
  const reasons: Record<string, string> = {}
  for (const name of statistics) {
    const v = record[name]
    stats[name] = typeof v === 'number' ? v : null
    const reason = comparison.reasons[name]
    if (reason) reasons[name] = reason
  }
  return { first: comparison.criterion, second: comparison.source, n: comparison.n, stats, reasons }
}

/** A pair of raters scored each way, averaged per statistic (undefined where either way is), on the fewer units. */
function bothWays(one: ReturnType<typeof pairRow>, other: ReturnType<typeof pairRow>): ReturnType<typeof pairRow> {
  const stats: Record<string, number | null> = {}
  const reasons: Record<string, string> = {}
  for (const name of Object.keys(one.stats)) {
    const a = one.stats[name]
    const b = other.stats[name]
    stats[name] = typeof a === 'number' && typeof b === 'number' ? (a + b) / 2 : null
    const reason = one.reasons[name] ?? other.reasons[name]
    if (stats[name] === null && reason) reasons[name] = reason
  }
  return { first: one.first, second: one.second, n: Math.min(one.n, other.n), stats, reasons }
}

function meanOverPairs(pairs: ReturnType<typeof pairRow>[], statistics: readonly string[]): ReportCeiling['human_human']['mean'] {
  const out: ReportCeiling['human_human']['mean'] = {}
  for (const name of statistics) {
    const values = pairs.map((p) => p.stats[name]).filter((v): v is number => typeof v === 'number')
    out[name] =
      values.length === 0
        ? { value: null, n_pairs: 0, reason: pairs.length === 0 ? 'no rater pairs' : 'undefined for every rater pair' }
        : { value: values.reduce((s, v) => s + v, 0) / values.length, n_pairs: values.length }
  }
  return out
}

export function ceilingFor(
  field: FieldSpec,
  annotators: readonly ResolvedSource[],
  judges: readonly ResolvedSource[],
  options: Omit<CompareOptions, 'plan' | 'outcome' | 'statuses'>,
  statuses?: ReadonlyMap<string, ItemStatusCodes | null>,
  outcome?: OutcomeRule
): ReportCeiling {
  const statistics = ceilingStatistics(field.level, outcome)
  // Each source compared with its item status by unit code, where the report made it, and as its field table compares it.
  const compareOf = (source: ResolvedSource): CompareOptions => ({ ...options, plan: null, statuses: statuses?.get(source.id) ?? undefined, outcome })
  const valuesOf = (source: ResolvedSource) => (name: string) => source.values.get(name) ?? new Map<string, Value>()
  const humanPairs: ReturnType<typeof pairRow>[] = []
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const first = annotators[i] as ResolvedSource
      const second = annotators[j] as ResolvedSource
      const row = pairRow(compareField(field, second, first.id, valuesOf(first), compareOf(second)), statistics)
      // Scored against an outcome, a pair is not symmetric (only the second's probabilities are scored against the
      // first's outcome): it is scored both ways and the two averaged, so no annotator's place in the list decides it.
      const pair = outcome ? bothWays(row, pairRow(compareField(field, first, second.id, valuesOf(second), compareOf(first)), statistics)) : row
      if (pair.n > 0) humanPairs.push(pair)
    }
  }
  const judgeRows = judges.map((judge) => {
    const compare = compareOf(judge)
    const pairs = annotators
      .map((annotator) => compareField(field, judge, annotator.id, valuesOf(annotator), compare))
      .filter((row) => row.n > 0)
      .map((row) => pairRow(row, statistics))
    return { source: judge.id, n_pairs: pairs.length, mean: meanOverPairs(pairs, statistics), pairs }
  })
  return {
    field: field.name,
    level: field.level,
    statistics,
    n_annotators: annotators.length,
    definitions: { ...CEILING_DEFINITIONS },
    human_human: { n_pairs: humanPairs.length, mean: meanOverPairs(humanPairs, statistics), pairs: humanPairs, against_majority_of_others: {}, ...multiRater(field, annotators) },
    judge_human: judgeRows.map((row) => ({ ...row, against_majority: {} }))
  }
}

function read(row: ReportComparison, name: string): number | null {
  const v = (row as unknown as Record<string, unknown>)[name]
  return typeof v === 'number' ? v : null
}

const FEWER_THAN_TWO = 'fewer than two annotators have units to compare with the majority of the others'

/**
 * The ceiling beside the figures it is read against, cited from the field tables (never computed a second time):
 * each annotator against the majority of the others, averaged over annotators, and each judge against the human
 * majority. The summary cards cite these in turn.
 */
export function withMajorityRows(
  ceiling: readonly ReportCeiling[],
  fields: readonly ReportFieldSection[],
  majority: string | null,
  annotators: ReadonlySet<string>
): ReportCeiling[] {
  return ceiling.map((c) => {
    const rows = majority ? (fields.find((f) => f.name === c.field)?.comparisons ?? []).filter((r) => r.criterion === majority) : []
    const people = rows.filter((r) => annotators.has(r.source) && r.n > 0)
    const againstOthers: ReportCeiling['human_human']['against_majority_of_others'] = {}
    if (people.length < 2) {
      // Said on the ceiling (and the cards that cite it) rather than left as if the field had no annotators.
      for (const name of c.statistics) againstOthers[name] = { value: null, min: null, max: null, n_annotators: 0, n_undefined: people.length, reason: FEWER_THAN_TWO }
    } else {
      for (const name of c.statistics) {
        const values = people.map((r) => read(r, name)).filter((v): v is number => v !== null)
        againstOthers[name] =
          values.length === 0
            ? { value: null, min: null, max: null, n_annotators: 0, n_undefined: people.length, reason: `${statisticLabel(name)} is undefined for every annotator` }
            : {
                value: values.reduce((s, v) => s + v, 0) / values.length,
                min: Math.min(...values),
                max: Math.max(...values),
                n_annotators: values.length,
                // Annotators the statistic is undefined for are counted, not passed over as if they had not answered.
                ...(values.length < people.length ? { n_undefined: people.length - values.length } : {})
              }
      }
    }
    return {
      ...c,
      human_human: { ...c.human_human, against_majority_of_others: againstOthers },
      judge_human: c.judge_human.map((j) => {
        const row = rows.find((r) => r.source === j.source)
        const against: ReportCeiling['judge_human'][number]['against_majority'] = {}
        if (row) {
          for (const name of c.statistics) {
            const value = read(row, name)
            const reason = row.reasons[name]
            // An accuracy is of the judged units (an unreadable answer counts as wrong), every other figure of n.
            const n = name === 'accuracy' ? row.n_judged : row.n
            against[name] = value === null ? { value, n, reason: reason ?? `${statisticLabel(name)} does not apply to this field` } : { value, n }
          }
        }
        return { ...j, against_majority: against }
      })
    }
  })
}

/** Every annotator at once, missing ratings allowed. */
function multiRater(field: FieldSpec, annotators: readonly ResolvedSource[]): Omit<ReportCeiling['human_human'], 'n_pairs' | 'mean' | 'pairs' | 'against_majority_of_others'> {
  const units = new Set<string>()
  for (const a of annotators) for (const key of a.values.get(field.name)?.keys() ?? []) units.add(key)
  const keys = [...units]
  const rows = annotators.map((a) => keys.map((k) => a.values.get(field.name)?.get(k) ?? null))
  const items = new Set(keys.map((k) => k.slice(0, k.indexOf('\u0000'))))
  const reasons: Record<string, string> = {}
  const out: Record<string, unknown> = { n_items: items.size }
  if (field.level === 'nominal' || field.level === 'ordinal') {
    const declared: Value[] = field.categories ? [...field.categories] : []
    const known = new Set(declared.map(valueKey))
    const extra = observedCategories<Category>(rows.flat().filter((v): v is Value => v !== null && !known.has(valueKey(v))))
    const scale = [...declared, ...extra]
    const position = new Map(scale.map((c, i) => [valueKey(c), i]))
    const indexed = rows.map((row) => row.map((v) => (v === null ? null : (position.get(valueKey(v)) as number))))
    const domain = scale.map((_, i) => i)
    const byItem = keys.map((_, u) => indexed.map((row) => row[u] ?? null))
    if (field.level === 'nominal') {
      const fleiss = fleissKappa(byItem, domain)
      put(out, reasons, 'fleiss_kappa', fleiss)
      out.fleiss_kappa_p_a = fleiss.pA
      out.fleiss_kappa_p_e = fleiss.pE
      const ac1 = gwetAc1Raters(byItem, domain)
      put(out, reasons, 'gwet_ac1', ac1)
      out.gwet_ac1_p_a = ac1.pA
      out.gwet_ac1_p_e = ac1.pE
    }
    putAlphas(out, reasons, indexed, field.level, domain)
  } else {
    putAlphas(out, reasons, rows.map((row) => row.map((v) => (typeof v === 'number' ? v : null))), field.level)
  }
  return { ...(out as Omit<ReportCeiling['human_human'], 'n_pairs' | 'mean' | 'pairs' | 'against_majority_of_others' | 'reasons'>), reasons }
}
