import type { FieldSpec } from '../instruments/types'
import { JUDGE_KINDS, type ReportInput } from '../report/input'
import { forEachUnit, itemOfUnitKey, unitOfUnitKey, valueKey, valueReader, type ResolvedSource, type Value } from '../report/resolve'
import { classicalMean, normalCriticalValue, ppiMean, roganGladen, type MeanEstimate, type PpiMean } from '../stats'
import { resolveInput, type ResolvedInput } from './data'
import type { EstimateCut, EstimateRow, EstimatesSection } from './schema'

export const ESTIMATES_METHOD =
  'prediction-powered inference for a mean (Angelopoulos et al. 2023; PPI++ power tuning, Angelopoulos, Duchi & Zrnic 2024; ' +
  'as ppi_py ppi_mean_ci, normal interval) and Rogan–Gladen prevalence (delta-method interval); labelled units are those the ' +
  'criterion labels, unlabelled those no annotator labelled or abstained on (a label that came with the item is not a person\'s); ' +
  'units people labelled or abstained on where the criterion has no value, and labelled ' +
  'units the judge was asked about but gave no value on, are left out, counted and named; ' +
  'both assume the labelled units are a random sample of the judged ones; units are treated as independent, as in ppi_py; ' +
  'an estimate and its interval are cut to the range of their quantity where it has one (a share to [0, 1], a mean of a ' +
  'scale to its ends), which leaves the coverage as it was, and the figures before the cut are kept beside them'

/** The quantity a field estimates: a share of one outcome (binary) or a mean, and the range it cannot leave. */
interface Quantity {
  description: string
  binary: boolean
  of: (value: Value) => number | null
  range: readonly [number, number] | null
}

const SHARE: readonly [number, number] = [0, 1]

function quantityOf(field: FieldSpec): Quantity | null {
  const categories = field.categories ?? []
  if (categories.length === 2 && categories.every((c) => typeof c === 'boolean')) {
    return { description: `share of ${field.name} = true`, binary: true, of: (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : null), range: SHARE }
  }
  if (field.name === 'origin_verdict') {
    return { description: 'share of pairs where the AI proposal is better', binary: true, of: (v) => (typeof v === 'string' ? (v.startsWith('ai_') ? 1 : 0) : null), range: SHARE }
  }
  if (categories.length === 2) {
    const positive = categories[1] as Value
    return { description: `share of ${field.name} = ${String(positive)}`, binary: true, of: (v) => (valueKey(v) === valueKey(positive) ? 1 : 0), range: SHARE }
  }
  const numericScale = categories.length > 0 && categories.every((c) => typeof c === 'number')
  if (field.level === 'interval' || field.level === 'ratio' || field.level === 'probability' || (field.level === 'ordinal' && numericScale)) {
    const scale = numericScale ? [Math.min(...(categories as number[])), Math.max(...(categories as number[]))] as const : null
    const range = field.level === 'probability' ? SHARE : scale
    return { description: `mean of ${field.name}`, binary: false, of: (v) => (typeof v === 'number' ? v : null), range }
  }
  return null
}

/** What the annotators did on a field's units: labelled them, or were shown their item and abstained. */
interface PeopleOnField {
  of(key: string): 'labelled' | 'abstained' | null
}

function peopleOnField(people: readonly ResolvedSource[], field: string): PeopleOnField {
  const labelled = new Set<string>()
  const abstainedItems = new Set<number>()
  for (const person of people) {
    for (const unit of person.values.get(field)?.keys() ?? []) labelled.add(unit)
    // An abstention answers the whole item without a value: the hard units, not a random gap (ITEM_STATUS_ORDER).
    for (const [item, status] of person.itemStatus) if (status === 'abstained') abstainedItems.add(item)
  }
  return { of: (key) => (labelled.has(key) ? 'labelled' : abstainedItems.has(itemOfUnitKey(key)) ? 'abstained' : null) }
}

/** Units left out of an estimate are named, up to this many (the count is always whole). */
const MAX_NAMED_UNITS = 100

/** Why units people labelled have no value under a criterion, in words. */
function leftOutReason(criterion: ResolvedSource): string {
  if (criterion.input.kind === 'human_majority') return 'people labelled them but their labels tie, so the human majority gives no value'
  if (criterion.input.kind === 'adjudicated') return 'people labelled them but they were not adjudicated (adjudication is of disagreements only)'
  return `people labelled them but ${criterion.input.name} gives no value`
}

/**
 * For every judge, criterion and field with a share or mean to estimate: the human-only and judge-only estimates
 * beside PPI (λ = 1) and PPI++ (tuned λ), and for binary quantities the Rogan–Gladen correction. Unlabelled means no
 * annotator labelled the unit or abstained on it: units people labelled where the criterion has no value (a tie, no
 * adjudication), and units they abstained on, are left out, counted and named, and the row warns that the labelled
 * units are then not a random sample. Rows exist only
 * where the judge labels at least one unit no person labelled (otherwise the human mean is the estimate); the section
 * is null when there is no such row.
 */
export function estimatesSection(input: ReportInput, level: number, resolved: ResolvedInput = resolveInput(input)): EstimatesSection | null {
  const judges = [...resolved.sources.values()].filter((s) => JUDGE_KINDS.has(s.input.kind))
  // People are the annotators: a criterion of their own (majority, adjudication) labels only what they labelled, and a
  // label that came with the item or an import (citations, a rule) is not a person's.
  const people = [...resolved.sources.values()].filter((s) => s.input.kind === 'annotator')
  const externalId = new Map(input.items.map((i) => [i.id, i.externalId]))
  const unitName = (key: string) => {
    const item = externalId.get(itemOfUnitKey(key)) ?? String(itemOfUnitKey(key))
    const unit = unitOfUnitKey(key)
    return unit === item ? item : `${item}/${unit}`
  }
  const rows: EstimateRow[] = []
  for (const field of resolved.fields) {
    const quantity = quantityOf(field)
    if (!quantity) continue
    // Only asked of units a judge answered and the criterion did not label: made on the first such unit.
    let seen: PeopleOnField | null = null
    const byPeople = (key: string): 'labelled' | 'abstained' | null => (seen ??= peopleOnField(people, field.name)).of(key)
    for (const criterion of resolved.criteria) {
      const truth = criterion.values.get(field.name)
      if (!truth || truth.size === 0) continue
      for (const judge of judges) {
        const judged = judge.values.get(field.name)
        if (!judged || judged.size === 0) continue
        const Y: number[] = [], F: number[] = [], U: number[] = []
        const leftOut: string[] = []
        const abstained: string[] = []
        const truthAt = valueReader(truth, judged)
        forEachUnit(judged, (key, code, _item, v) => {
          const f = quantity.of(v)
          if (f === null) return
          const t = truthAt(key, code)
          const y = t === undefined ? null : quantity.of(t)
          if (y !== null) {
            Y.push(y)
            F.push(f)
          } else {
            const people = byPeople(key)
            if (people === 'labelled') leftOut.push(key)
            else if (people === 'abstained') abstained.push(key)
            else U.push(f)
          }
        })
        if (U.length === 0 || Y.length === 0) continue
        // Labelled units the judge was asked about but gave no value on (unreadable, split, never answered) are left
        // out too: as selected a rule as the criterion's own gaps, so counted, named and warned about alike.
        const skipped: string[] = []
        for (const key of truth.keys()) {
          const v = judged.get(key)
          if ((v === undefined || quantity.of(v) === null) && judge.itemStatus.has(itemOfUnitKey(key))) skipped.push(key)
        }
        const reasons = [
          leftOut.length ? `${leftOutReason(criterion)} (${leftOut.length})` : '',
          abstained.length ? `people were shown them and abstained, so they gave no label (${abstained.length})` : '',
          skipped.length ? `${judge.input.name} was asked about them but gave no value: unreadable, split or never answered (${skipped.length})` : ''
        ]
        const reason = reasons.filter(Boolean).join('; ')
        leftOut.push(...abstained, ...skipped)
        const warnings = leftOut.length
          ? [
              `The labelled units are not a random sample of the judged ones: ${leftOut.length} unit(s) are left out because ${reason}. ` +
                `PPI and Rogan–Gladen assume the labelled units are chosen at random, so this estimate's assumption does not hold and its interval may be too confident.`
            ]
          : []
        const rg = quantity.binary ? roganGladenRow(Y, F, U, level) : null
        // A raw prevalence outside [0, 1] is the correction blowing up on a judge barely better than chance: said.
        if (rg?.unclipped != null && (rg.unclipped < 0 || rg.unclipped > 1)) {
          const youden = (rg.sensitivity ?? 0) + (rg.specificity ?? 0) - 1
          warnings.push(
            `Rogan–Gladen's raw estimate is ${rg.unclipped.toFixed(3)}, outside [0, 1]: sensitivity + specificity − 1 is ${youden.toFixed(3)}, so the correction divides by almost nothing and is unstable; its figure is cut to [0, 1] and should not be read as an estimate.`
          )
        }
        rows.push({
          source: judge.id,
          criterion: criterion.id,
          field: field.name,
          quantity: quantity.description,
          binary: quantity.binary,
          n_labelled: Y.length,
          n_unlabelled: U.length,
          n_left_out: leftOut.length,
          ...(leftOut.length ? { left_out: { reason, units: leftOut.slice(0, MAX_NAMED_UNITS).map(unitName) } } : {}),
          warnings,
          human_only: cutToRange(meanRow(classicalMean(Y, level)), quantity.range),
          judge_only: cutToRange(meanRow(classicalMean([...F, ...U], level)), quantity.range),
          ppi: cutToRange(ppiRow(ppiMean(Y, F, U, { lambda: 'classic', level })), quantity.range),
          ppi_plus_plus: cutToRange(ppiRow(ppiMean(Y, F, U, { lambda: 'tuned', level })), quantity.range),
          ...(rg ? { rogan_gladen: rg } : {})
        })
      }
    }
  }
  if (rows.length === 0) return null
  const doubtful = rows.filter((r) => r.n_left_out > 0)
  const warnings = doubtful.length
    ? [
        `${doubtful.length} of ${rows.length} estimate(s) rest on labelled units that were not chosen at random (units without a criterion value, or without a value from the judge, are left out): ` +
          `their assumption does not hold (${[...new Set(doubtful.map((r) => `${r.source} against ${r.criterion}`))].join('; ')})`
      ]
    : []
  return { level, method: ESTIMATES_METHOD, warnings, rows }
}

/**
 * An estimate and its interval cut to the range of their quantity (a share cannot leave [0, 1]): the quantity lies in
 * that range, so an interval that covers it still covers it once cut, and the estimate cut is never further from it.
 * The figures before the cut are kept beside them, where the cut changed one.
 */
function cutToRange<T extends { value: number | null; ci_low: number | null; ci_high: number | null }>(m: T, range: readonly [number, number] | null): T & { cut_to_range?: EstimateCut } {
  if (!range || m.value === null) return m
  const [low, high] = range
  const cut = (v: number | null) => (v === null ? null : Math.min(high, Math.max(low, v)))
  const value = cut(m.value)
  const ciLow = cut(m.ci_low)
  const ciHigh = cut(m.ci_high)
  if (value === m.value && ciLow === m.ci_low && ciHigh === m.ci_high) return m
  return { ...m, value, ci_low: ciLow, ci_high: ciHigh, cut_to_range: { range: [low, high], value: m.value, ci_low: m.ci_low, ci_high: m.ci_high } }
}

function meanRow(m: MeanEstimate): EstimateRow['human_only'] {
  return { value: m.value, se: m.se, ci_low: m.lower, ci_high: m.upper, n: m.n, ...(m.reason ? { reason: m.reason } : {}) }
}

function ppiRow(m: PpiMean): EstimateRow['ppi'] {
  return { value: m.value, se: m.se, ci_low: m.lower, ci_high: m.upper, n: m.n + m.N, lambda: m.lambda, ...(m.reason ? { reason: m.reason } : {}) }
}

function roganGladenRow(Y: readonly number[], F: readonly number[], U: readonly number[], level: number): NonNullable<EstimateRow['rogan_gladen']> {
  const positives = Y.filter((y) => y === 1).length
  const negatives = Y.length - positives
  const r = roganGladen(
    {
      judgedPositive: U.filter((f) => f === 1).length,
      judged: U.length,
      truePositives: Y.filter((y, i) => y === 1 && F[i] === 1).length,
      humanPositives: positives,
      trueNegatives: Y.filter((y, i) => y === 0 && F[i] === 0).length,
      humanNegatives: negatives
    },
    level
  )
  // Rogan–Gladen cuts to [0, 1] itself; its figures are cut here from its raw value and that value's normal interval,
  // as every other estimate's, so that the figures before the cut are kept the same way.
  const z = normalCriticalValue(level)
  const raw = r.unclipped === null || r.se === null ? { value: r.value, ci_low: r.lower, ci_high: r.upper } : { value: r.unclipped, ci_low: r.unclipped - z * r.se, ci_high: r.unclipped + z * r.se }
  const cut = cutToRange(raw, SHARE)
  return {
    value: cut.value,
    unclipped: r.unclipped,
    se: r.se,
    ci_low: cut.ci_low,
    ci_high: cut.ci_high,
    positive_rate: r.positiveRate,
    sensitivity: r.sensitivity,
    specificity: r.specificity,
    n_judged: U.length,
    n_labelled_positive: positives,
    n_labelled_negative: negatives,
    method: r.method,
    ...(cut.cut_to_range ? { cut_to_range: cut.cut_to_range } : {}),
    ...(r.reason ? { reason: r.reason } : {})
  }
}
