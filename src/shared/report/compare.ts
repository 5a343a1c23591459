import type { FieldSpec } from '../instruments/types'
import {
  auroc,
  brierScore,
  cohenKappaFromCounts,
  cohenKappaFromTable,
  agreementWeights,
  cohenKappaWithSe,
  scottPiOfPositions,
  quantileCalibrationError,
  confusionMatrix,
  expectedCalibrationError,
  gwetFromTable,
  logLoss,
  majorityOfCounts,
  meanAbsoluteDifference,
  pearson,
  randomBaseline,
  spearmanOfPositions,
  type Estimate
} from '../stats'
import { tableMargins } from '../stats/table-margins'
import type { BootstrapPlan } from './bootstrap-plan'
import { asymptoticCi, bootstrapCi, exactCi, put, proportion, wilsonCi } from './intervals'
import { alphaKey, putAlphas } from './alpha-levels'
import { account, baseRow, scaleOf, sumsPerItem, type Accounting, type ItemStatusCodes } from './compare-units'
import { kendallTauBOrdinal } from './kendall-table'
import { describeOutcome, type OutcomeRule } from './outcomes'
import { sameValue, valueReader, type ResolvedSource, type Value } from './resolve'
import type { ReportComparison } from './schema'
import { NO_ANNOTATOR_BOOTSTRAP, NO_JUDGED_FOR_BASELINE } from './definitions'

export interface CompareOptions {
  level: number
  /** The report's bootstrap; null leaves intervals out (descriptive rows such as rater pairs of the ceiling). */
  plan: BootstrapPlan | null
  eceBins: number
  outcome?: OutcomeRule | undefined
  /** The source's item status by unit code, made once per source by the report (else read by item). */
  statuses?: ItemStatusCodes | undefined
}

/** The criterion's values of any field (for outcome rules that read a second field). */
export type CriterionValues = (field: string) => ReadonlyMap<string, Value>

/** Statistics first, then intervals and reasons (the interval objects stay shared with pending bootstrap entries). */
function finish(row: ReportComparison): ReportComparison {
  const { ci, reasons, ...rest } = row
  return { ...rest, ci, reasons }
}

/**
 * account over the source's own values of the field against the criterion's: a unit is paired where `usable` holds
 * for the two values (its type then being T), and a majority's tied units are left out (the ties policy).
 */
function accountField<T extends Value>(
  field: FieldSpec,
  source: ResolvedSource,
  criterion: ReadonlyMap<string, Value>,
  options: CompareOptions,
  usable: (sourceValue: Value | undefined, criterionValue: Value) => boolean,
  criterionOnly: (criterionValue: Value) => T
): Accounting<T> {
  const sourceValue = valueReader(source.values.get(field.name), criterion)
  return account<T>(
    criterion,
    source,
    (key, code, c, out) => {
      const s = sourceValue(key, code)
      if (!usable(s, c)) return false
      out.criterion = c as T
      out.source = s as T
      return true
    },
    criterionOnly,
    options.statuses,
    source.tiedUnits?.get(field.name),
    source.tieAnswers?.get(field.name)
  )
}

/** Scores one source against one criterion on one field with the statistics of the field's level. */
export function compareField(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterionValues: CriterionValues,
  options: CompareOptions
): ReportComparison {
  if (field.level === 'nominal' || field.level === 'ordinal') return finish(compareCategories(field, source, criterionId, criterionValues(field.name), options))
  if (field.level === 'probability' && options.outcome) return finish(compareProbabilities(field, source, criterionId, criterionValues, options.outcome, options))
  return finish(compareNumbers(field, source, criterionId, criterionValues(field.name), options))
}

// ---------------------------------------------------------------------------------------------------------------
// Nominal and ordinal fields

function compareCategories(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterion: ReadonlyMap<string, Value>,
  options: CompareOptions
): ReportComparison {
  const raw = accountField<Value>(field, source, criterion, options, (s) => s !== undefined, (c) => c)
  const { categories, outside } = scaleOf(field, raw)
  const position = new Map<Value, number>(categories.map((c, i) => [c, i]))
  // Units repeat a few categories in long runs: the last lookup is kept (NaN never matches, and is looked up).
  let lastValue: Value | undefined
  let lastPosition = 0
  const at = (v: Value): number => {
    if (v !== lastValue) {
      lastValue = v
      lastPosition = position.get(v) as number
    }
    return lastPosition
  }
  const c = raw.criterion.map(at)
  const s = raw.source.map(at)
  const judgedWrongLabels = raw.judgedWrongCriterion.map(at)

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
  row.ci.accuracy_exact = exactCi(correct, row.n_judged, options.level, 'no judged units')
  const ofAll = proportion(correct, row.n_in_scope, options.level, 'no units in scope')
  put(record, reasons, 'accuracy_of_all', ofAll)
  row.ci.accuracy_of_all = wilsonCi(ofAll)

  // One table serves every coefficient below (each would otherwise count the units again).
  const table = confusionMatrix(c, s, scale).counts
  const { rows: criterionCounts, columns: sourceCounts } = tableMargins(table)
  // The majority among judged units' criterion labels, by position (labels given as their positions' strings).
  const judgedCounts: Record<string, number> = {}
  criterionCounts.forEach((n, k) => {
    if (n > 0) judgedCounts[String(k)] = n
  })
  for (const u of judgedWrongLabels) judgedCounts[String(u)] = (judgedCounts[String(u)] ?? 0) + 1
  const counted = majorityOfCounts(judgedCounts)
  // Scored on the judged units: with none there is nothing to count, whatever the criterion labels.
  const baseline = counted.total === 0 ? { ...counted, value: null, reason: NO_JUDGED_FOR_BASELINE } : counted
  put(record, reasons, 'majority_baseline', baseline)
  row.majority_label = baseline.majority.map((k) => categories[Number(k)] as Value)
  put(record, reasons, 'random_baseline', q > 0 ? randomBaseline(q) : { value: null, reason: 'no categories' })
  row.below_majority_baseline = accuracy.value !== null && baseline.value !== null ? accuracy.value < baseline.value : null

  put(record, reasons, 'cohen_kappa', cohenKappaFromTable(table))
  const kappaSe = cohenKappaWithSe(table, 'identity', options.level)
  put(record, reasons, 'cohen_kappa_se', kappaSe.se === null ? { value: null, reason: kappaSe.reason ?? 'kappa is undefined' } : { value: kappaSe.se })
  row.ci.cohen_kappa_asymptotic = asymptoticCi(kappaSe)
  if (field.level === 'nominal') {
    put(record, reasons, 'scott_pi', scottPiOfPositions(c, s, q))
    put(record, reasons, 'gwet_ac1', gwetFromTable(table, 'identity'))
  } else {
    put(record, reasons, 'weighted_kappa_linear', cohenKappaFromTable(table, 'linear'))
    put(record, reasons, 'weighted_kappa_quadratic', cohenKappaFromTable(table, 'quadratic'))
    const quadraticSe = cohenKappaWithSe(table, 'quadratic', options.level)
    put(record, reasons, 'weighted_kappa_quadratic_se', quadraticSe.se === null ? { value: null, reason: quadraticSe.reason ?? 'kappa is undefined' } : { value: quadraticSe.se })
    row.ci.weighted_kappa_quadratic_asymptotic = asymptoticCi(quadraticSe)
    put(record, reasons, 'spearman', criterionFirst(spearmanOfPositions(c, s, criterionCounts, sourceCounts)))
    const tau = kendallTauBOrdinal(c, s, q)
    put(record, reasons, 'kendall_tau_b', criterionFirst(tau))
    row.kendall_p = tau.pValue
    // A null p says why under its own name, as every null statistic does (tau-b's reason: its p is undefined with it).
    if (tau.pValue === null) reasons.kendall_p = reasons.kendall_tau_b ?? tau.reason ?? 'Kendall tau-b is undefined'
  }
  putAlphas(record, reasons, [c, s], field.level, scale)
  row.confusion = { categories, counts: table }
  row.per_label = categories.map((label, k) => {
    const n = judgedCounts[String(k)] ?? 0
    const right = (table[k] as number[])[k] as number
    const share = proportion(right, n, options.level)
    return { label, n, correct: right, accuracy: share.value, ci_low: share.lower, ci_high: share.upper }
  })

  if (!options.plan && row.accuracy !== null && row.accuracy !== undefined) reasons.accuracy_bootstrap = NO_ANNOTATOR_BOOTSTRAP
  if (options.plan) {
    const plan = options.plan
    const agreement = field.level === 'ordinal' ? 'weighted_kappa_quadratic' : 'cohen_kappa'
    const weights = agreementWeights(q, field.level === 'ordinal' ? 'quadratic' : 'identity')
    // Per item: its cells of the q×q table (criterion × source) and its unparseable units (the last slot); one
    // pass gives both the accuracy (diagonal over judged) and the agreement coefficient of a resample.
    const cells = q * q
    const contributions = plan.sumColumns(raw.items.length + raw.judgedWrongItems.length)
    raw.items.forEach((item, i) => contributions.push(item, (c[i] as number) * q + (s[i] as number), 1))
    for (const item of raw.judgedWrongItems) contributions.push(item, cells, 1)
    plan.addSums(
      cells + 1,
      contributions,
      2,
      (sums) => {
        const flat = sums.subarray(0, cells)
        let total = sums[cells] as number
        let diagonal = 0
        for (let k = 0; k < flat.length; k++) total += flat[k] as number
        for (let k = 0; k < q; k++) diagonal += flat[k * q + k] as number
        return [total === 0 ? { value: null, reason: 'no judged units' } : { value: diagonal / total }, cohenKappaFromCounts(flat, q, weights)]
      },
      ([accuracyInterval, agreementInterval]) => {
        if (accuracyInterval) row.ci.accuracy_bootstrap = bootstrapCi(accuracyInterval)
        if (agreementInterval) row.ci[agreement] = bootstrapCi(agreementInterval)
      }
    )
  }
  return row
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
  const acc = accountField<number>(
    field,
    source,
    criterion,
    options,
    (s, c) => typeof s === 'number' && typeof c === 'number' && Number.isFinite(s) && Number.isFinite(c),
    (c) => (typeof c === 'number' ? c : Number.NaN)
  )
  const row = baseRow(field, source, criterionId, acc)
  const reasons = row.reasons
  const record = row as unknown as Record<string, unknown>
  const c = acc.criterion
  const s = acc.source
  put(record, reasons, 'mean_abs_diff', meanAbsoluteDifference(s, c))
  put(record, reasons, 'mean_diff', c.length === 0 ? { value: null, reason: 'no units scored by both sources' } : { value: s.reduce((t, x, i) => t + x - (c[i] as number), 0) / c.length })
  put(record, reasons, 'pearson', criterionFirst(pearson(c, s)))
  putAlphas(record, reasons, [c, s], field.level)
  if (field.level === 'probability') row.outcome = 'none: the criterion gives a probability too, so probabilities are compared as numbers'
  if (options.plan) {
    const perItem = sumsPerItem(acc.items, (i) => Math.abs((s[i] as number) - (c[i] as number)))
    options.plan.addRatio(perItem, 'no units scored by both sources', (interval) => (row.ci.mean_abs_diff = bootstrapCi(interval)))
    if (field.level !== 'ratio') addIntervalAlpha(options.plan, acc.items, s, c, row)
  }
  return row
}

/**
 * The bootstrap interval of interval α between the source and the criterion: with two values on every unit, α is a
 * function of four sums (Krippendorff 2011): α = 1 − (N − 1)·Σ(a − b)² / (N·Σv² − (Σv)²) over the N = 2n values, so
 * each resample sums the units' terms in their order. Ratio α compares every pair of values, and gets no interval.
 */
function addIntervalAlpha(plan: BootstrapPlan, items: readonly number[], s: readonly number[], c: readonly number[], row: ReportComparison): void {
  const index = Int32Array.from(items, (item) => plan.index(item))
  const squaredDifference = Float64Array.from(s, (a, i) => (a - (c[i] as number)) ** 2)
  const total = Float64Array.from(s, (a, i) => a + (c[i] as number))
  const squares = Float64Array.from(s, (a, i) => a * a + (c[i] as number) ** 2)
  const values = new Float64Array(items.length).fill(2)
  plan.addOrderedSums(
    index,
    [squaredDifference, total, squares, values],
    ([d, t, q, n]) => intervalAlphaOfSums(d as number, t as number, q as number, n as number),
    (interval) => (row.ci[alphaKey('interval')] = bootstrapCi(interval))
  )
}

/** Interval α of two observers from its sums (see addIntervalAlpha), undefined as krippendorffAlpha leaves it. */
export function intervalAlphaOfSums(squaredDifference: number, total: number, squares: number, values: number): Estimate {
  if (values === 0) return { value: null, reason: 'no unit has values from at least 2 observers' }
  const spread = values * squares - total * total
  // Equal values give a spread of 0 up to rounding: relative to the squares, not in absolute terms.
  if (!(spread > 1e-12 * values * squares)) return { value: null, reason: 'all pairable values are the same: expected disagreement is 0' }
  return { value: 1 - ((values - 1) * squaredDifference) / spread }
}

function compareProbabilities(
  field: FieldSpec,
  source: ResolvedSource,
  criterionId: string,
  criterionValues: CriterionValues,
  rule: OutcomeRule,
  options: CompareOptions
): ReportComparison {
  const criterion = criterionValues(rule.field)
  const probability = valueReader(source.values.get(field.name), criterion)
  const ruleValue = valueReader(source.values.get(rule.field), criterion)
  const acc = account<number>(
    criterion,
    source,
    (key, code, c, out) => {
      const p = probability(key, code)
      if (typeof p !== 'number' || !(p >= 0 && p <= 1)) return false
      let y: number | null
      if (rule.kind === 'criterion_field') y = binary(c)
      else {
        const own = ruleValue(key, code)
        y = own === undefined ? null : sameValue(own, c) ? 1 : 0
      }
      if (y === null) return false
      out.criterion = y
      out.source = p
      return true
    },
    () => 0,
    options.statuses,
    // A majority's own rule field split evenly leaves the unit without an outcome: left out (the ties policy).
    rule.kind === 'criterion_field' ? undefined : source.tiedUnits?.get(rule.field)
  )
  const row = baseRow(field, source, criterionId, acc)
  const reasons = row.reasons
  const record = row as unknown as Record<string, unknown>
  row.outcome = describeOutcome(rule)
  const y = acc.criterion
  const p = acc.source
  put(record, reasons, 'brier', brierScore(y, p))
  put(record, reasons, 'log_loss', logLoss(y, p))
  const calibration = expectedCalibrationError(y, p, options.eceBins)
  put(record, reasons, 'ece', calibration)
  put(record, reasons, 'ece_quantile', quantileCalibrationError(y, p, options.eceBins))
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
  if (options.plan) {
    const perItem = sumsPerItem(acc.items, (i) => ((p[i] as number) - (y[i] as number)) ** 2)
    options.plan.addRatio(perItem, 'no forecasts', (interval) => (row.ci.brier = bootstrapCi(interval)))
  }
  return row
}

/**
 * A correlation of (criterion, source) whose reason names its arguments "the first source" and "the second source":
 * named as the table names them, the criterion and the source.
 */
function criterionFirst<E extends Estimate>(estimate: E): E {
  if (estimate.value !== null) return estimate
  return { ...estimate, reason: estimate.reason.replace('the first source', 'the criterion').replace('the second source', 'the source') }
}

function binary(v: Value): 0 | 1 | null {
  if (v === true || v === 1) return 1
  if (v === false || v === 0) return 0
  return null
}
