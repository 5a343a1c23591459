import type { FieldSpec } from '../instruments/types'
import {
  auroc,
  brierScore,
  clusterBootstrapMany,
  cohenKappa,
  cohenKappaFromTable,
  confusionMatrix,
  expectedCalibrationError,
  gwetAc1,
  kendallTauB,
  krippendorffAlpha,
  logLoss,
  majorityLabelBaseline,
  meanAbsoluteDifference,
  observedCategories,
  pearson,
  randomBaseline,
  spearman,
  weightedKappa,
  type Category,
  type Estimate
} from '../stats'
import { bootstrapCi, put, proportion, wilsonCi, type BootstrapSettings } from './intervals'
import { describeOutcome, type OutcomeRule } from './outcomes'
import { itemOfUnitKey, valueKey, type ResolvedSource, type Value } from './resolve'
import type { ReportComparison } from './schema'

export interface CompareOptions {
  level: number
  /** Null leaves out the bootstrap intervals (descriptive rows such as rater pairs of the ceiling). */
  bootstrap: BootstrapSettings | null
  eceBins: number
  outcome?: OutcomeRule | undefined
}

/** The criterion's values of any field (for outcome rules that read a second field). */
export type CriterionValues = (field: string) => ReadonlyMap<string, Value>

interface Accounting<T> {
  inScope: number
  failed: number
  unparseable: number
  abstained: number
  pending: number
  noValue: number
  notAsked: number
  /** Units both have a value for. */
  pairs: { item: number; criterion: T; source: T }[]
  /** Criterion values of units the source returned unparseable: judged, never correct. */
  unparseableCriterion: { item: number; criterion: T }[]
}

/**
 * Walks the units the criterion has a value for and sorts each by what the source did with its item. `pair`
 * returns the two values to compare, or null when the source has none for that unit.
 */
function account<T>(
  criterionKeys: Iterable<[string, Value]>,
  source: ResolvedSource,
  pair: (key: string, criterionValue: Value) => { criterion: T; source: T } | null,
  criterionOnly: (criterionValue: Value) => T
): Accounting<T> {
  const acc: Accounting<T> = { inScope: 0, failed: 0, unparseable: 0, abstained: 0, pending: 0, noValue: 0, notAsked: 0, pairs: [], unparseableCriterion: [] }
  for (const [key, criterionValue] of criterionKeys) {
    const item = itemOfUnitKey(key)
    const status = source.itemStatus.get(item)
    if (status === undefined) {
      acc.notAsked++
      continue
    }
    acc.inScope++
    if (status === 'answered') {
      const values = pair(key, criterionValue)
      if (values === null) acc.noValue++
      else acc.pairs.push({ item, ...values })
    } else if (status === 'unparseable') {
      acc.unparseable++
      acc.unparseableCriterion.push({ item, criterion: criterionOnly(criterionValue) })
    } else acc[status]++
  }
  return acc
}

function baseRow(field: FieldSpec, source: ResolvedSource, criterionId: string, acc: Accounting<unknown>): ReportComparison {
  const items = new Set<number>()
  for (const p of acc.pairs) items.add(p.item)
  for (const u of acc.unparseableCriterion) items.add(u.item)
  return {
    field: field.name,
    level: field.level,
    source: source.id,
    criterion: criterionId,
    n_in_scope: acc.inScope,
    n_judged: acc.pairs.length + acc.unparseable,
    n: acc.pairs.length,
    n_items: items.size,
    n_failed: acc.failed,
    n_unparseable: acc.unparseable,
    n_abstained: acc.abstained,
    n_pending: acc.pending,
    n_no_value: acc.noValue,
    n_not_asked: acc.notAsked,
    ci: {},
    reasons: {}
  }
}

/** Scores one source against one criterion on one field with the statistics of the field's level. */
export function compareField(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterionValues: CriterionValues,
  options: CompareOptions
): ReportComparison {
  if (field.level === 'nominal' || field.level === 'ordinal') return compareCategories(field, source, criterionId, criterionValues(field.name), options)
  if (field.level === 'probability') {
    const outcome = options.outcome
    if (outcome) return compareProbabilities(field, source, criterionId, criterionValues, outcome, options)
  }
  return compareNumbers(field, source, criterionId, criterionValues(field.name), options)
}

// ---------------------------------------------------------------------------------------------------------------
// Nominal and ordinal fields

/** The declared scale, with any value found outside it appended (and named in the reasons). */
function scaleOf(field: FieldSpec, seen: Iterable<Value>): { categories: Value[]; outside: Value[] } {
  const declared: Value[] = field.categories ? [...field.categories] : []
  const known = new Set(declared.map(valueKey))
  const outside: Value[] = []
  for (const v of seen) {
    const key = valueKey(v)
    if (!known.has(key)) {
      known.add(key)
      outside.push(v)
    }
  }
  const extra = observedCategories<Category>(outside)
  return { categories: declared.length ? [...declared, ...extra] : extra, outside }
}

function compareCategories(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterion: ReadonlyMap<string, Value>,
  options: CompareOptions
): ReportComparison {
  const sourceValues = source.values.get(field.name) ?? new Map<string, Value>()
  const raw = account<Value>(
    criterion,
    source,
    (key, c) => {
      const s = sourceValues.get(key)
      return s === undefined ? null : { criterion: c, source: s }
    },
    (c) => c
  )
  const seen: Value[] = []
  for (const p of raw.pairs) seen.push(p.criterion, p.source)
  for (const u of raw.unparseableCriterion) seen.push(u.criterion)
  const { categories, outside } = scaleOf(field, seen)
  const position = new Map(categories.map((c, i) => [valueKey(c), i]))
  const at = (v: Value): number => position.get(valueKey(v)) as number
  const c = raw.pairs.map((p) => at(p.criterion))
  const s = raw.pairs.map((p) => at(p.source))
  const unparseableLabels = raw.unparseableCriterion.map((u) => at(u.criterion))

  const row = baseRow(field, source, criterionId, raw)
  const reasons = row.reasons
  const record = row as unknown as Record<string, unknown>
  if (outside.length) reasons.categories = `values outside the declared scale, appended to it: ${outside.map((v) => JSON.stringify(v)).join(', ')}`
  const q = categories.length
  const scale = categories.map((_, i) => i)
  let correct = 0
  for (let i = 0; i < c.length; i++) if (c[i] === s[i]) correct++
  row.correct = correct

  const accuracy = proportion(correct, row.n_judged, options.level, 'no judged units')
  put(record, reasons, 'accuracy', accuracy)
  row.ci.accuracy = wilsonCi(accuracy)
  const ofAll = proportion(correct, row.n_in_scope, options.level, 'no units in scope')
  put(record, reasons, 'accuracy_of_all', ofAll)
  row.ci.accuracy_of_all = wilsonCi(ofAll)

  const judgedLabels = [...c, ...unparseableLabels].map(String)
  const baseline = majorityLabelBaseline(judgedLabels)
  put(record, reasons, 'majority_baseline', baseline)
  row.majority_label = baseline.majority.map((k) => categories[Number(k)] as Value)
  put(record, reasons, 'random_baseline', q > 0 ? randomBaseline(q) : { value: null, reason: 'no categories' })
  row.below_majority_baseline = accuracy.value !== null && baseline.value !== null ? accuracy.value < baseline.value : null

  put(record, reasons, 'cohen_kappa', cohenKappa(c, s, scale))
  if (field.level === 'nominal') {
    put(record, reasons, 'gwet_ac1', gwetAc1(c, s, scale))
    put(record, reasons, 'krippendorff_alpha_nominal', krippendorffAlpha([c, s], 'nominal', { domain: scale }))
  } else {
    put(record, reasons, 'weighted_kappa_linear', weightedKappa(c, s, scale, 'linear'))
    put(record, reasons, 'weighted_kappa_quadratic', weightedKappa(c, s, scale, 'quadratic'))
    put(record, reasons, 'krippendorff_alpha_ordinal', krippendorffAlpha([c, s], 'ordinal', { domain: scale }))
    put(record, reasons, 'spearman', spearman(c, s))
    const tau = kendallTauB(c, s)
    put(record, reasons, 'kendall_tau_b', tau)
    row.kendall_p = tau.pValue
  }
  row.confusion = { categories, counts: confusionMatrix(c, s, scale).counts }
  row.per_label = categories.map((label, k) => {
    let n = 0
    let right = 0
    for (let i = 0; i < c.length; i++) {
      if (c[i] !== k) continue
      n++
      if (s[i] === k) right++
    }
    for (const u of unparseableLabels) if (u === k) n++
    const share = proportion(right, n, options.level)
    return { label, n, correct: right, accuracy: share.value, ci_low: share.lower, ci_high: share.upper }
  })

  if (options.bootstrap) {
    const agreement = field.level === 'ordinal' ? 'weighted_kappa_quadratic' : 'cohen_kappa'
    const weighting = field.level === 'ordinal' ? 'quadratic' : 'identity'
    const units = categoryUnits(raw.pairs.map((p, i) => ({ item: p.item, c: c[i] as number, s: s[i] as number })), raw.unparseableCriterion)
    const intervals = clusterBootstrapMany(
      units,
      (resample) => {
        const table = scale.map(() => new Array<number>(q).fill(0))
        let right = 0
        let judged = 0
        for (const unit of resample) {
          judged += unit.c.length + unit.unparseable
          for (let i = 0; i < unit.c.length; i++) {
            const ci = unit.c[i] as number
            const si = unit.s[i] as number
            const cells = table[ci] as number[]
            cells[si] = (cells[si] ?? 0) + 1
            if (ci === si) right++
          }
        }
        const share: Estimate = judged === 0 ? { value: null, reason: 'no judged units' } : { value: right / judged }
        return { accuracy: share, agreement: cohenKappaFromTable(table, weighting) }
      },
      options.bootstrap
    )
    row.ci.accuracy_bootstrap = bootstrapCi(intervals.accuracy)
    row.ci[agreement] = bootstrapCi(intervals.agreement)
  }
  return row
}

interface CategoryUnit {
  c: number[]
  s: number[]
  unparseable: number
}

function categoryUnits(pairs: { item: number; c: number; s: number }[], unparseable: { item: number }[]): CategoryUnit[] {
  const units = new Map<number, CategoryUnit>()
  const unitOf = (item: number): CategoryUnit => {
    let unit = units.get(item)
    if (!unit) units.set(item, (unit = { c: [], s: [], unparseable: 0 }))
    return unit
  }
  for (const p of pairs) {
    const unit = unitOf(p.item)
    unit.c.push(p.c)
    unit.s.push(p.s)
  }
  for (const u of unparseable) unitOf(u.item).unparseable++
  return [...units.values()]
}

// ---------------------------------------------------------------------------------------------------------------
// Interval, ratio and probability fields scored against the criterion's numbers

function compareNumbers(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterion: ReadonlyMap<string, Value>,
  options: CompareOptions
): ReportComparison {
  const sourceValues = source.values.get(field.name) ?? new Map<string, Value>()
  const acc = account<number>(
    criterion,
    source,
    (key, c) => {
      const s = sourceValues.get(key)
      return typeof s === 'number' && typeof c === 'number' && Number.isFinite(s) && Number.isFinite(c) ? { criterion: c, source: s } : null
    },
    (c) => (typeof c === 'number' ? c : Number.NaN)
  )
  const row = baseRow(field, source, criterionId, acc)
  const reasons = row.reasons
  const record = row as unknown as Record<string, unknown>
  const c = acc.pairs.map((p) => p.criterion)
  const s = acc.pairs.map((p) => p.source)
  put(record, reasons, 'mean_abs_diff', meanAbsoluteDifference(s, c))
  put(record, reasons, 'mean_diff', c.length === 0 ? { value: null, reason: 'no units scored by both sources' } : { value: s.reduce((t, x, i) => t + x - (c[i] as number), 0) / c.length })
  put(record, reasons, 'pearson', pearson(c, s))
  if (field.level === 'ratio') {
    const negative = [...c, ...s].some((v) => v < 0)
    put(record, reasons, 'krippendorff_alpha_ratio', negative ? { value: null, reason: 'ratio data cannot be negative' } : krippendorffAlpha([c, s], 'ratio'))
  } else {
    put(record, reasons, 'krippendorff_alpha_interval', krippendorffAlpha([c, s], 'interval'))
  }
  if (field.level === 'probability') row.outcome = 'none: the criterion gives a probability too, so probabilities are compared as numbers'
  if (options.bootstrap) {
    const sums = new Map<number, { abs: number; n: number }>()
    for (const p of acc.pairs) {
      const unit = sums.get(p.item) ?? { abs: 0, n: 0 }
      unit.abs += Math.abs(p.source - p.criterion)
      unit.n++
      sums.set(p.item, unit)
    }
    const units = [...sums.values()]
    const intervals = clusterBootstrapMany(
      units,
      (resample) => {
        let abs = 0
        let n = 0
        for (const u of resample) {
          abs += u.abs
          n += u.n
        }
        return { mean_abs_diff: n === 0 ? { value: null, reason: 'no units scored by both sources' } : ({ value: abs / n } as Estimate) }
      },
      options.bootstrap
    )
    row.ci.mean_abs_diff = bootstrapCi(intervals.mean_abs_diff)
  }
  return row
}

function compareProbabilities(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterionValues: CriterionValues,
  rule: OutcomeRule,
  options: CompareOptions
): ReportComparison {
  const probabilities = source.values.get(field.name) ?? new Map<string, Value>()
  const ruleSource = source.values.get(rule.field) ?? new Map<string, Value>()
  const acc = account<number>(
    criterionValues(rule.field),
    source,
    (key, c) => {
      const p = probabilities.get(key)
      if (typeof p !== 'number' || !(p >= 0 && p <= 1)) return null
      if (rule.kind === 'criterion_field') {
        const y = binary(c)
        return y === null ? null : { criterion: y, source: p }
      }
      const own = ruleSource.get(key)
      return own === undefined ? null : { criterion: valueKey(own) === valueKey(c) ? 1 : 0, source: p }
    },
    () => 0
  )
  const row = baseRow(field, source, criterionId, acc)
  const reasons = row.reasons
  const record = row as unknown as Record<string, unknown>
  row.outcome = describeOutcome(rule)
  const y = acc.pairs.map((p) => p.criterion)
  const p = acc.pairs.map((q) => q.source)
  put(record, reasons, 'brier', brierScore(y, p))
  put(record, reasons, 'log_loss', logLoss(y, p))
  const calibration = expectedCalibrationError(y, p, options.eceBins)
  put(record, reasons, 'ece', calibration)
  row.reliability = calibration.bins.map((b) => ({
    lower: b.lower,
    upper: b.upper,
    count: b.count,
    mean_predicted: b.meanPredicted,
    observed_frequency: b.observedFrequency
  }))
  const area = auroc(y, p)
  put(record, reasons, 'auroc', area)
  row.n_positive = area.positives
  row.n_negative = area.negatives
  if (options.bootstrap) {
    const sums = new Map<number, { sq: number; n: number }>()
    acc.pairs.forEach((pair) => {
      const unit = sums.get(pair.item) ?? { sq: 0, n: 0 }
      unit.sq += (pair.source - pair.criterion) ** 2
      unit.n++
      sums.set(pair.item, unit)
    })
    const intervals = clusterBootstrapMany(
      [...sums.values()],
      (resample) => {
        let sq = 0
        let n = 0
        for (const u of resample) {
          sq += u.sq
          n += u.n
        }
        return { brier: n === 0 ? { value: null, reason: 'no forecasts' } : ({ value: sq / n } as Estimate) }
      },
      options.bootstrap
    )
    row.ci.brier = bootstrapCi(intervals.brier)
  }
  return row
}

function binary(v: Value): 0 | 1 | null {
  if (v === true || v === 1) return 1
  if (v === false || v === 0) return 0
  return null
}
