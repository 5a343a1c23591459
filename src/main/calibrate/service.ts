import {
  calibrationSection,
  fitCalibration,
  namedSource,
  resolveInput,
  type BothOrderRule,
  type CalibrationMethod,
  type CalibrationRow,
  type FitResult,
  type FitSpec,
  type StoredFit,
  type TargetSpec,
  type ThresholdMetric
} from '../../shared/calibrate'
import { AssayError } from '../../shared/errors'
import type { FieldSpec } from '../../shared/instruments/types'
import type { Split } from '../../shared/items/kinds'
import { outcomeRuleFor, type ReportInput } from '../../shared/report'
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED } from '../../shared/stats'
import { gatherReportInput } from '../report/gather'
import type { Project } from '../store/project'
import { DEFAULT_THRESHOLD_METRIC } from '../../shared/calibrate/threshold'
import { insertFit, listFits } from '../store/calibration-fits'

export interface CalibrateOptions {
  instrument: string
  /** `run:<id>`, a run id, `model:<name>`, or a judge's name (its latest run). */
  source: string
  method: CalibrationMethod
  criterion?: string | undefined
  scoreField?: string | undefined
  targetField?: string | undefined
  /** The positive outcome: a category, `true`/`false`, or `>=k`. */
  positive?: string | undefined
  rule?: BothOrderRule | undefined
  metric?: ThresholdMetric | undefined
  fitSplit?: Split | undefined
  evalSplit?: Split | undefined
  level?: number
  resamples?: number
  seed?: number
}

export interface CalibrateResult {
  fits: CalibrationRow[]
  /** Fits already stored with the same specification, fit items and parameters: shown again, not stored twice. */
  already_stored: number[]
}

/**
 * Fits a recalibration of one judge on the fit split, stores it (method, parameters, fit items, time) in one
 * transaction, and evaluates it on the eval split against the raw judge. Both-orders without a rule stores one fit
 * per rule (MT-Bench conservative and averaging), so the two can be compared.
 */
export function calibrate(project: Project, options: CalibrateOptions): CalibrateResult {
  if (options.method === 'few-shot') throw new AssayError('internal', 'few-shot runs a judge: use calibrateFewShot')
  const input = gatherReportInput(project.db, { instrument: options.instrument })
  const resolved = resolveInput(input)
  const source = resolveSourceId(input, options.source)
  const fitSplit = options.fitSplit ?? 'dev'
  const evalSplit = options.evalSplit ?? 'test'
  const { scoreField, target } = fieldsFor(input, options)
  const criterion = options.criterion !== undefined ? resolveCriterionId(resolved, options.criterion) : defaultCriterion(resolved, target.field)
  const rules: Array<BothOrderRule | undefined> = options.method === 'both-orders' ? (options.rule ? [options.rule] : ['conservative', 'average']) : [undefined]
  const specs: FitSpec[] = rules.map((rule) => ({
    method: options.method,
    instrument: options.instrument,
    source,
    criterion,
    score_field: scoreField,
    target,
    fit_split: fitSplit,
    eval_split: evalSplit,
    ...(rule ? { rule } : {}),
    // What a threshold maximises: the only method that reads it, so no other method's spec carries one.
    ...(options.method === 'threshold' ? { metric: options.metric ?? DEFAULT_THRESHOLD_METRIC } : {})
  }))
  // Fit everything first: nothing is stored unless every fit succeeds.
  const fitted = specs.map((spec) => ({ spec, result: fitCalibration(input, spec, resolved) }))
  refuseEmptyFits(input, fitted)
  // The same command run again fits the same thing: it is not stored a second time (a second source in every report).
  const existing = input.fits ?? []
  const same = fitted.map(({ spec, result }) => existing.find((f) => sameFit(f, spec, result)))
  const ids = project.write((db) =>
    fitted.map(({ spec, result }, i) => same[i]?.id ?? insertFit(db, spec, result.parameters, result.fitItems, result.nFitUnits))
  )
  const stored = listFits(project.db, options.instrument).filter((f) => ids.includes(f.id))
  const rows = calibrationSection({ ...input, fits: stored }, stored, {
    level: options.level ?? 0.95,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    eceBins: 10
  })
  return { fits: rows, already_stored: same.flatMap((f) => (f ? [f.id] : [])) }
}

/** A stored fit of the same specification, learned from the same items into the same parameters. */
function sameFit(stored: StoredFit, spec: FitSpec, result: FitResult): boolean {
  return (
    canonicalSpec(stored.spec) === canonicalSpec(spec) &&
    JSON.stringify(stored.parameters) === JSON.stringify(result.parameters) &&
    stored.fitItems.length === result.fitItems.length &&
    [...result.fitItems].sort((a, b) => a - b).every((id, i) => id === stored.fitItems[i])
  )
}

/**
 * A spec as text that is the same for the same fit however it was asked for: keys in one order, and the threshold's
 * metric stated (its default where none was given) for a threshold and dropped for every other method, which never
 * reads it (specs stored by the command line before carried its default for every method).
 */
export function canonicalSpec(spec: FitSpec): string {
  const { metric, ...rest } = spec
  const stated: Record<string, unknown> = spec.method === 'threshold' ? { ...rest, metric: metric ?? DEFAULT_THRESHOLD_METRIC } : rest
  return JSON.stringify(stated, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value
  )
}

/**
 * A fit with nothing to learn from or nothing to be evaluated on is refused before anything is stored: it would
 * show as a judge of the report with no figures behind it. Both-orders learns nothing from labels by design, so
 * only its evaluation units count.
 */
function refuseEmptyFits(input: ReportInput, fitted: ReadonlyArray<{ spec: FitSpec; result: FitResult }>): void {
  for (const { spec, result } of fitted) {
    if (spec.method !== 'both-orders' && result.fitItems.length === 0) {
      throw new AssayError('bad_data', `Nothing to fit: no ${spec.fit_split} item gives ${namedSource(input, spec.source)}'s "${spec.score_field}" beside ${namedSource(input, spec.criterion)}'s "${spec.target.field}"; nothing was stored`, [
        { field: 'fit_split', message: 'no fit items' }
      ])
    }
    const provisional: StoredFit = { id: 0, spec, parameters: result.parameters, fitItems: result.fitItems, nFitUnits: result.nFitUnits, createdAt: '' }
    const units = evalUnitCount({ ...input, fits: [provisional] }, provisional)
    if (units === 0) {
      const [source, criterion] = [namedSource(input, spec.source), namedSource(input, spec.criterion)]
      const what = spec.method === 'both-orders' ? `pair answered by ${source} in a display order and labelled by ${criterion}` : `unit with ${source}'s "${spec.score_field}" and ${criterion}'s "${spec.target.field}"`
      throw new AssayError('bad_data', `Nothing to evaluate: no ${spec.eval_split} ${what}; nothing was stored`, [{ field: 'eval_split', message: 'no eval units' }])
    }
  }
}

/** Eval units of a fit as the calibration section counts them (one short bootstrap: only the count is read). */
function evalUnitCount(input: ReportInput, fit: StoredFit): number {
  const [row] = calibrationSection(input, [fit], { level: 0.95, resamples: 2, seed: 1, eceBins: 10 })
  return row?.n_eval_units ?? 0
}

/** A source named the ways people name judges: its report id, a run id, a model import, or a judge's latest run. */
export function resolveSourceId(input: ReportInput, given: string): string {
  const judges = input.sources.filter((s) => s.kind === 'judge_run' || s.kind === 'model_import')
  if (judges.some((s) => s.id === given)) return given
  if (/^\d+$/.test(given) && judges.some((s) => s.id === `run:${given}`)) return `run:${given}`
  if (judges.some((s) => s.id === `model:${given}`)) return `model:${given}`
  const runs = judges.filter((s) => s.kind === 'judge_run' && s.detail.judge === given).sort((a, b) => Number(b.detail.run_id) - Number(a.detail.run_id))
  if (runs[0]) return runs[0].id
  throw new AssayError(
    'not_found',
    `No judge "${given}" answers ${input.instrument.id}; sources: ${judges.map((s) => s.id).join(', ') || 'none'}`,
    [{ field: 'source', message: 'unknown judge or run' }]
  )
}

function isNumericField(f: FieldSpec): boolean {
  if (f.level === 'interval' || f.level === 'ratio' || f.level === 'probability') return true
  return f.level === 'ordinal' && !!f.categories?.length && f.categories.every((c) => typeof c === 'number')
}

const isBooleanField = (f: FieldSpec) => !!f.categories?.length && f.categories.every((c) => typeof c === 'boolean')

/** The score and target fields: given, or the instrument's first numeric field and first yes/no field. */
export function fieldsFor(input: ReportInput, options: CalibrateOptions): { scoreField: string; target: TargetSpec } {
  const fields = input.instrument.fields
  const field = (name: string, flag: string) => {
    const f = fields.find((x) => x.name === name)
    if (!f) throw new AssayError('invalid_input', `${input.instrument.id} has no field "${name}"; fields: ${fields.map((x) => x.name).join(', ')}`, [{ field: flag, message: 'unknown field' }])
    return f
  }
  if (options.method === 'both-orders') {
    if (!fields.some((f) => f.name === 'verdict') || !fields.some((f) => f.name === 'winner')) {
      throw new AssayError('invalid_input', `both-orders aggregates pairwise verdicts; ${input.instrument.id} has none`, [{ field: 'method', message: 'not a pairwise instrument' }])
    }
    return { scoreField: 'verdict', target: { field: 'winner', positive: null } }
  }
  // A confidence in the judge's own answer is no score for an event, so it is never the field picked unasked.
  const score = options.scoreField ? field(options.scoreField, '--field') : fields.find((f) => isNumericField(f) && outcomeRuleFor(input.instrument.id, f.name)?.kind !== 'correctness')
  if (!score) throw new AssayError('invalid_input', `${input.instrument.id} has no numeric field to calibrate (a confidence in the judge's own answer is none); name one with --field`, [{ field: '--field', message: 'needed' }])
  let target: FieldSpec | undefined
  if (options.targetField) target = field(options.targetField, '--target')
  // A probability of an event is fitted to the event (as the report scores it), never to people's own probabilities.
  else if (options.method === 'isotonic' && options.positive === undefined) target = eventOf(input.instrument.id, score, fields) ?? score
  else target = fields.find((f) => isBooleanField(f) && f.name !== score.name && f.name !== 'abstained') ?? score
  refuseConfidenceAsScore(input.instrument.id, score.name, target.name, fields)
  return { scoreField: score.name, target: { field: target.name, positive: parsePositive(options.positive, target) } }
}

/** The event field a probability field is scored against (p_same_study: same_study), where its instrument says. */
function eventOf(instrumentId: string, score: FieldSpec, fields: readonly FieldSpec[]): FieldSpec | undefined {
  const rule = outcomeRuleFor(instrumentId, score.name)
  return rule?.kind === 'criterion_field' ? fields.find((f) => f.name === rule.field) : undefined
}

/**
 * A confidence in the judge's own answer (scored in the report against whether that answer is right) fitted to the
 * answer's field would read a confident "no" as a high probability of "yes": refused, naming the field that is a
 * probability of the event, where the instrument has one.
 */
function refuseConfidenceAsScore(instrumentId: string, score: string, target: string, fields: readonly FieldSpec[]): void {
  const rule = outcomeRuleFor(instrumentId, score)
  if (rule?.kind !== 'correctness') return
  const eventField = fields.find((f) => eventOf(instrumentId, f, fields)?.name === rule.field)
  throw new AssayError(
    'invalid_input',
    `"${score}" is the judge's confidence in its own "${rule.field}", scored against whether that answer agrees with the criterion's, ` +
      (target === score ? `not a number to bring onto people's confidences in their own answers: it cannot be fitted to them` : `not a probability of ${target} = true: it cannot be fitted to "${target}"`) +
      (eventField ? `; "${eventField.name}" is the probability of ${rule.field} (--field ${eventField.name})` : ''),
    [{ field: '--field', message: 'a confidence in its own answer' }]
  )
}

function parsePositive(given: string | undefined, field: FieldSpec): TargetSpec['positive'] {
  // Without --positive a yes/no field counts `true`, and a numeric field is its own scale.
  if (given === undefined) return null
  const bound = /^>=\s*(-?\d+(?:\.\d+)?)$/.exec(given.trim())
  if (bound) return { at_least: Number(bound[1]) }
  if (given === 'true' || given === 'false') return given === 'true'
  const numeric = Number(given)
  if (field.categories?.some((c) => c === numeric)) return numeric
  if (field.categories && !field.categories.some((c) => String(c) === given)) {
    throw new AssayError('invalid_input', `--positive "${given}" is not a category of ${field.name} (${field.categories.map(String).join(', ')})`, [{ field: '--positive', message: 'unknown category' }])
  }
  return given
}

/**
 * The criterion a `--criterion` names: its id (`human-majority`, `label`, `reference:<name>`…) or the name the
 * report prints for it (`Human majority`, `Reference label`), in any case.
 */
export function resolveCriterionId(resolved: ReturnType<typeof resolveInput>, given: string): string {
  const wanted = given.trim().toLowerCase()
  const found = resolved.criteria.find((c) => c.id.toLowerCase() === wanted) ?? resolved.criteria.find((c) => c.input.name.toLowerCase() === wanted)
  if (found) return found.id
  throw new AssayError('invalid_input', `No criterion "${given}"; criteria: ${resolved.criteria.map((c) => `${c.id} (${c.input.name})`).join(', ') || 'none'}`, [{ field: '--criterion', message: 'unknown criterion' }])
}

export function defaultCriterion(resolved: ReturnType<typeof resolveInput>, field: string): string {
  const withField = resolved.criteria.find((c) => (c.values.get(field)?.size ?? 0) > 0)
  if (!withField) throw new AssayError('bad_data', `No human label or reference gives "${field}"; nothing to calibrate against`, [{ field: '--criterion', message: 'no criterion' }])
  return withField.id
}
