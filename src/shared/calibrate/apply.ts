import type { FieldSpec, Observation } from '../instruments/types'
import { originLabelFromCanonical, type CanonicalPairLabel } from '../items/kinds'
import type { ReportInput, ReportSourceInput, SourceCall } from '../report/input'
import { CALL_STATUSES, OK, callRowsOf } from '../report/call-rows'
import { callsByItem, orderedVerdicts, unansweredPairStatus } from './raw-calls'
import { itemOfUnitKey, unitOfUnitKey, valueKey, type Value } from '../report/resolve'
import { aggregateBothOrders, sideOf } from './both-orders'
import { numericScores } from './data'
import { fitHoldOut } from './held-out'
import { isotonicPredict } from './isotonic'
import { plattProbability } from './platt'
import type { FitParameters, StoredFit, TargetSpec } from './types'

export const CALIBRATED_SOURCE_PREFIX = 'fit:'

export function calibratedSourceId(fitId: number): string {
  return `${CALIBRATED_SOURCE_PREFIX}${fitId}`
}

/**
 * A fit's output for one score: the probability of the target event (when it has one), the decision whether the event
 * holds (a fit of an event), and a value of the target field (where the decision is one of its categories).
 */
export function applyFit(
  parameters: FitParameters,
  score: number,
  target: TargetSpec,
  field: FieldSpec | undefined
): { probability: number | null; decision: boolean | null; value: Value | null } {
  if (parameters.kind === 'both-orders' || parameters.kind === 'few-shot') return { probability: null, decision: null, value: null }
  if (parameters.kind === 'isotonic' && parameters.output === 'scale') {
    const raw = isotonicPredict(parameters, score)
    return { probability: null, decision: null, value: nearestCategory(raw, field) }
  }
  const probability =
    parameters.kind === 'platt' ? plattProbability(parameters, score) : parameters.kind === 'isotonic' ? isotonicPredict(parameters, score) : null
  const positive = parameters.kind === 'threshold' ? score >= parameters.threshold : (probability as number) >= 0.5
  return { probability, decision: positive, value: decisionValue(positive, target, field) }
}

/** A fitted number on an ordinal field with numeric categories is reported as the nearest category. */
function nearestCategory(value: number, field: FieldSpec | undefined): Value {
  const numeric = field?.categories?.filter((c): c is number => typeof c === 'number') ?? []
  if (field?.level !== 'ordinal' || numeric.length === 0) return value
  return numeric.reduce((best, c) => (Math.abs(c - value) < Math.abs(best - value) ? c : best), numeric[0] as number)
}

/** The target field's value of a binary decision, where the field has two categories and the event is one of them. */
export function decisionValue(positive: boolean, target: TargetSpec, field: FieldSpec | undefined): Value | null {
  const categories = field?.categories
  if (!categories || categories.length !== 2) return null
  const wanted = target.positive === null ? true : target.positive
  if (typeof wanted === 'object') return null
  const index = categories.findIndex((c) => valueKey(c) === valueKey(wanted))
  if (index < 0) return null
  return positive ? (categories[index] as Value) : (categories[1 - index] as Value)
}

/**
 * The report's sources with each fit added as a source of its own: the raw judge's answers transformed by the fit,
 * on the fit's eval split only (items of other splits are left out, never evaluated on), without the items it learned
 * from; a fit whose items a later split moved answers nothing.
 */
export function calibratedSources(input: ReportInput, fits: readonly StoredFit[]): ReportSourceInput[] {
  const out: ReportSourceInput[] = []
  const splitOf = new Map(input.items.map((i) => [i.id, i.split]))
  for (const fit of fits) {
    const raw = input.sources.find((s) => s.id === fit.spec.source)
    // A few-shot fit is a judge run of its own, already a source of the report.
    if (!raw || fit.parameters.kind === 'few-shot') continue
    // Never on an item the fit learned from (or made from the same original), and nowhere once a later split moved them.
    const holdOut = fitHoldOut(fit)
    const onEval = (itemId: number) => holdOut.notHeldOut === null && splitOf.get(itemId) === fit.spec.eval_split && !holdOut.excluded.has(itemId)
    const calls = fit.parameters.kind === 'both-orders' ? bothOrderCalls(input, raw, fit.parameters.rule, onEval) : scoreCalls(input, raw, fit, onEval)
    out.push({
      id: calibratedSourceId(fit.id),
      kind: 'calibrated',
      // The fit id tells apart fits of one method refitted later (on more labels, another target).
      name: `${raw.name} · ${fitLabel(fit)} · fit ${fit.id}`,
      detail: {
        fit_id: fit.id,
        method: fit.spec.method,
        raw_source: raw.id,
        criterion: fit.spec.criterion,
        score_field: fit.spec.score_field,
        target_field: fit.spec.target.field,
        fit_split: fit.spec.fit_split,
        eval_split: fit.spec.eval_split,
        held_out: holdOut.notHeldOut === null,
        fitted_at: fit.createdAt
      },
      calls
    })
  }
  return out
}

export function fitLabel(fit: Pick<StoredFit, 'parameters' | 'spec'>): string {
  const p = fit.parameters
  if (p.kind === 'both-orders') return `both orders (${p.rule === 'conservative' ? 'MT-Bench conservative' : 'averaged'})`
  if (p.kind === 'threshold') return `threshold ≥ ${+p.threshold.toFixed(4)}`
  if (p.kind === 'platt') return 'Platt scaling'
  // Examples come from the fit split: dev, or items of no split where the fit was made before any split.
  if (p.kind === 'few-shot') return `few-shot (${p.k} ${fit.spec.fit_split === 'none' ? 'unsplit' : fit.spec.fit_split} examples, ${p.template})`
  return p.output === 'scale' ? 'isotonic (to the human scale)' : 'isotonic (probability)'
}

function scoreCalls(input: ReportInput, raw: ReportSourceInput, fit: StoredFit, onEval: (itemId: number) => boolean): SourceCall[] {
  const field = input.instrument.fields.find((f) => f.name === fit.spec.target.field)
  const scores = numericScores(input, raw.id, fit.spec.score_field)
  const byItem = new Map<number, Observation[]>()
  for (const [key, score] of scores) {
    const itemId = itemOfUnitKey(key)
    if (!onEval(itemId)) continue
    const { value } = applyFit(fit.parameters, score, fit.spec.target, field)
    const list = byItem.get(itemId) ?? []
    list.push({ unit: unitOfUnitKey(key), values: value === null ? {} : { [fit.spec.target.field]: value } })
    byItem.set(itemId, list)
  }
  const calls: SourceCall[] = []
  // Items the raw judge was asked about but gave no score on keep their status (failed, unparseable, abstained).
  const statusOf = new Map<number, SourceCall['status']>()
  const rows = callRowsOf(raw)
  const { item, status: statusCode } = rows.columns()
  for (let c = 0; c < rows.length; c++) {
    const itemId = item[c] as number
    if (!onEval(itemId)) continue
    const held = statusOf.get(itemId)
    const status = CALL_STATUSES[statusCode[c] as number] as SourceCall['status']
    if (held !== 'ok') statusOf.set(itemId, status === 'ok' ? 'ok' : (held ?? status))
  }
  for (const [itemId, status] of statusOf) {
    const observations = byItem.get(itemId)
    calls.push(observations ? { itemId, trial: 0, order: 0, status: 'ok', observations } : { itemId, trial: 0, order: 0, status: status === 'ok' ? 'unparseable' : status, observations: [] })
  }
  return calls
}

/**
 * Both-order aggregation as calls the report reads like any run's: one verdict per pair, with no display order of
 * its own (the rule has already combined both), so the pairwise table judges each pair once, as the calibration
 * section does. A tie is two trials of that one call, one for each side, which the report's vote counts as a tie.
 * A pair without a verdict in both orders has no aggregate: it keeps only its calls that never answered (or is
 * pending its other order), so it is missing in the table as in the section, never judged.
 */
function bothOrderCalls(input: ReportInput, raw: ReportSourceInput, rule: 'conservative' | 'average', onEval: (itemId: number) => boolean): SourceCall[] {
  const items = new Map(input.items.map((i) => [i.id, i]))
  const rows = callRowsOf(raw)
  const { status } = rows.columns()
  const calls: SourceCall[] = []
  for (const [itemId, list] of callsByItem(rows, onEval)) {
    const pair = items.get(itemId)?.pair
    const aggregated = pair ? aggregateBothOrders(orderedVerdicts(rows, list, pair.unit), rule) : null
    if (!pair || aggregated === null) {
      // One call a pair, as the fit gives one verdict a pair: the pair's own status, read from its orders' calls (an
      // unreadable order makes it unparseable, else a failed one failed, …), so a pair failed in both orders is one
      // failed call, as in its pairwise row.
      const first = list.find((c) => status[c] !== OK)
      const pairStatus = unansweredPairStatus(rows, list)
      calls.push({ ...(first === undefined ? { itemId } : rows.callAt(first)), trial: 0, order: 0, status: pairStatus === 'answered' ? 'pending' : pairStatus, observations: [] })
      continue
    }
    const verdicts = sideOf(aggregated) === null ? ['a_better', 'b_better'] : [aggregated]
    verdicts.forEach((verdict, trial) => {
      const origin = pair.a.origin && pair.b.origin && pair.a.origin !== pair.b.origin ? originLabelFromCanonical(verdict as CanonicalPairLabel, pair.a.origin) : null
      calls.push({
        itemId,
        trial,
        order: 0,
        status: 'ok',
        observations: [{ unit: pair.unit, values: { verdict, winner: sideOf(verdict), origin_verdict: origin, abstained: false } }]
      })
    })
  }
  return calls
}

/**
 * The audit input with each stored fit added as a source (see calibratedSources), and every run of a few-shot
 * template without the items written into its prompt as examples; unchanged without fits.
 */
export function withCalibratedSources(input: ReportInput): ReportInput {
  const fits = input.fits ?? []
  if (fits.length === 0) return input
  const sources = withoutFewShotExamples(input.sources, fits)
  return { ...input, sources: [...sources, ...calibratedSources({ ...input, sources }, fits)] }
}

/**
 * A judge run of a few-shot template is never scored on the examples its prompt shows (nor on probes made from
 * them): their answers are in the prompt. Its detail counts the items left out (`n_example_items_left_out`).
 */
function withoutFewShotExamples(sources: readonly ReportSourceInput[], fits: readonly StoredFit[]): ReportSourceInput[] {
  const byTemplate = new Map<string, Set<number>>()
  for (const fit of fits) {
    if (fit.parameters.kind !== 'few-shot') continue
    const set = byTemplate.get(fit.parameters.template) ?? new Set<number>()
    for (const id of fitHoldOut(fit).excluded) set.add(id)
    byTemplate.set(fit.parameters.template, set)
  }
  if (byTemplate.size === 0) return [...sources]
  return sources.map((s) => {
    const examples = s.kind === 'judge_run' ? byTemplate.get(String(s.detail.template)) : undefined
    const left = new Set(s.calls.filter((c) => examples?.has(c.itemId)).map((c) => c.itemId)).size
    if (!examples || left === 0) return s
    return { ...s, calls: s.calls.filter((c) => !examples.has(c.itemId)), detail: { ...s.detail, n_example_items_left_out: left } }
  })
}
