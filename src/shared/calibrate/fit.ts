import { AssayError } from '../errors'
import type { ReportInput } from '../report/input'
import { callRowsOf } from '../report/call-rows'
import { eventOf, isEventTarget, namedSource, resolveInput, scoredUnits, type ResolvedInput } from './data'
import { fitIsotonic } from './isotonic'
import { fitPlatt } from './platt'
import { chooseThreshold, DEFAULT_THRESHOLD_METRIC } from './threshold'
import type { FitParameters, FitSpec } from './types'

export interface FitResult {
  parameters: FitParameters
  fitItems: number[]
  nFitUnits: number
}

/**
 * Fits one recalibration on the fit split. Test items are refused: a fit split of `test` is an error, and the
 * units used are filtered by split, so no test label ever reaches a fit.
 */
export function fitCalibration(input: ReportInput, spec: FitSpec, resolved: ResolvedInput = resolveInput(input)): FitResult {
  if (spec.fit_split === 'test') {
    throw new AssayError('invalid_input', 'A recalibration is never fitted on test items: choose --fit-split dev (or none)', [{ field: 'fit_split', message: 'test is held out for evaluation' }])
  }
  if (spec.fit_split === spec.eval_split) {
    throw new AssayError('invalid_input', `The fit split and the eval split are both "${spec.fit_split}": a fit is evaluated on items it did not see`, [{ field: 'eval_split', message: 'must differ from the fit split' }])
  }
  if (!input.sources.some((s) => s.id === spec.source)) {
    const known = input.sources.filter((s) => s.kind === 'judge_run' || s.kind === 'model_import').map((s) => s.id)
    throw new AssayError('not_found', `No source "${spec.source}" answers ${spec.instrument}${known.length ? `; judges: ${known.join(', ')}` : ''}`, [{ field: 'source', message: 'unknown source' }])
  }
  if (spec.method === 'both-orders') {
    const source = input.sources.find((s) => s.id === spec.source)
    if (!(source && callRowsOf(source).columns().order.includes(1))) {
      throw new AssayError('invalid_input', `${spec.source} was not asked in both display orders: run the judge with --both-orders`, [{ field: 'source', message: 'no second display order' }])
    }
    // Nothing is learned from labels: the rule is fixed in advance.
    return { parameters: { kind: 'both-orders', rule: spec.rule ?? 'conservative' }, fitItems: [], nFitUnits: 0 }
  }
  if (!resolved.sources.has(spec.criterion)) {
    throw new AssayError('not_found', `No criterion "${spec.criterion}"; criteria: ${resolved.criteria.map((c) => c.id).join(', ') || 'none'}`, [{ field: 'criterion', message: 'unknown criterion' }])
  }
  const field = input.instrument.fields.find((f) => f.name === spec.target.field)
  if (!field) throw new AssayError('invalid_input', `${spec.instrument} has no field "${spec.target.field}"`, [{ field: 'target', message: 'unknown field' }])
  const units = scoredUnits(input, resolved, spec.source, spec.score_field, spec.criterion, spec.target.field).filter((u) => u.split === spec.fit_split)
  if (units.some((u) => u.split === 'test')) throw new AssayError('internal', 'a test item reached a fit')
  if (units.length === 0) {
    throw new AssayError('bad_data', `No ${spec.fit_split} unit has both a numeric "${spec.score_field}" from ${namedSource(input, spec.source)} and a "${spec.target.field}" from ${namedSource(input, spec.criterion)}`, [
      { field: 'fit_split', message: 'no labelled scores to fit on' }
    ])
  }
  const fitItems = [...new Set(units.map((u) => u.itemId))].sort((a, b) => a - b)
  const scores = units.map((u) => u.score)
  const event = isEventTarget(spec.target, field)
  const outcomes = () => {
    const ys = units.map((u) => eventOf(spec.target, u.label))
    if (ys.some((y) => y === null)) throw new AssayError('invalid_input', `"${spec.target.field}" is not a binary event: give --positive (a category, or >=k)`, [{ field: 'positive', message: 'needed' }])
    const positives = ys.filter((y) => y === 1).length
    if (positives === 0 || positives === ys.length) {
      throw new AssayError('bad_data', `Every ${spec.fit_split} label is ${positives === 0 ? 'negative' : 'positive'}: a ${spec.method} fit needs both outcomes`, [{ field: 'fit_split', message: 'one class only' }])
    }
    return ys as number[]
  }
  let parameters: FitParameters
  if (spec.method === 'platt') {
    const p = fitPlatt(scores, outcomes())
    parameters = { kind: 'platt', a: p.a, b: p.b, targets: p.targets, iterations: p.iterations }
  } else if (spec.method === 'threshold') {
    const t = chooseThreshold(scores, outcomes(), spec.metric ?? DEFAULT_THRESHOLD_METRIC)
    parameters = { kind: 'threshold', threshold: t.threshold, metric: t.metric, fit_value: t.fitValue, candidates: t.candidates }
  } else {
    let ys: number[]
    if (event) ys = outcomes()
    else {
      ys = units.map((u) => u.label).map((v) => (typeof v === 'number' ? v : NaN))
      if (ys.some((y) => !Number.isFinite(y))) throw new AssayError('invalid_input', `"${spec.target.field}" is not numeric: give --positive to fit the probability of a category`, [{ field: 'target', message: 'not numeric' }])
    }
    const iso = fitIsotonic(scores, ys)
    parameters = { kind: 'isotonic', output: event ? 'probability' : 'scale', x: iso.x, y: iso.y }
  }
  return { parameters, fitItems, nFitUnits: units.length }
}
