import type { FieldSpec } from '../instruments/types'
import type { ReportInput } from '../report/input'
import { valueKey, valueOfUnit, type ItemStatus, type Value } from '../report/resolve'
import { brierScore, expectedCalibrationError, groupRowsIntoUnits, logLoss, pairedBootstrapDifference, type BootstrapOptions, type DrawAhead, type Estimate } from '../stats'
import { applyFit, fitLabel } from './apply'
import { bothOrderChanges, aggregateBothOrders, sideOf, type OrderedVerdicts } from './both-orders'
import { callRowsOf } from '../report/call-rows'
import { callsByItem, orderedVerdicts, unansweredPairStatus } from './raw-calls'
import { decisionBlock, differenceOf, madOf } from './before-after'
import { eventOf, isEventTarget, numericScores, resolveInput, scoredUnits, type ResolvedInput, type ScoredUnit } from './data'
import type { CalibrationRow } from './schema'
import type { StoredFit, TargetSpec } from './types'
import { calibratedSourceId } from './apply'
import { outcomeRuleFor } from '../report/outcomes'
import { fitTarget } from '../report/calibration-lines'
import { fitHoldOut } from './held-out'

export interface CalibrationSectionOptions {
  level: number
  resamples: number
  seed: number
  eceBins: number
  /** The report's thread for bootstrap draws, if it has one (the same figures either way). */
  drawAhead?: DrawAhead | undefined
}

/**
 * Each fit evaluated on its eval split against the raw judge on the same units: probability scores (Brier, log loss,
 * ECE) before and after with a paired bootstrap of the Brier difference, decisions with the exact McNemar test, and
 * values on the human scale with a paired bootstrap of the mean absolute difference.
 */
export function calibrationSection(
  input: ReportInput,
  fits: readonly StoredFit[],
  options: CalibrationSectionOptions,
  resolved: ResolvedInput = resolveInput(input)
): CalibrationRow[] {
  return fits.filter((f) => input.sources.some((s) => s.id === f.spec.source)).map((fit) => calibrationRow(input, resolved, fit, options))
}

function calibrationRow(input: ReportInput, resolved: ResolvedInput, fit: StoredFit, options: CalibrationSectionOptions): CalibrationRow {
  const field = input.instrument.fields.find((f) => f.name === fit.spec.target.field)
  const itemsById = new Map(input.items.map((i) => [i.id, i]))
  const reasons: Record<string, string> = {}
  const bootstrap: BootstrapOptions = { resamples: options.resamples, seed: options.seed, level: options.level, drawAhead: options.drawAhead }
  // Never scored on an item it learned from (or one made from the same original), whatever the splits say now.
  const holdOut = fitHoldOut(fit)
  const kept = (itemId: number) => !holdOut.excluded.has(itemId)
  const base = {
    fit_id: fit.id,
    source: calibratedSourceId(fit.id),
    raw_source: fit.spec.source,
    method: fit.spec.method,
    label: fitLabel(fit),
    criterion: fit.spec.criterion,
    score_field: fit.spec.score_field,
    target_field: fit.spec.target.field,
    positive: positiveText(fit.spec.target),
    fit_split: fit.spec.fit_split,
    eval_split: fit.spec.eval_split,
    parameters: fit.parameters as Record<string, unknown>,
    fitted_at: fit.createdAt,
    n_fit_items: fit.fitItems.length,
    n_fit_units: fit.nFitUnits,
    held_out: holdOut.notHeldOut === null,
    n_excluded_eval_items: input.items.filter((i) => i.split === fit.spec.eval_split && holdOut.excluded.has(i.id)).length
  }
  const warnings: string[] = []
  const rule = outcomeRuleFor(input.instrument.id, fit.spec.score_field)
  if (rule?.kind === 'correctness') {
    // Stored before `assay calibrate` refused such a fit: its figures are kept, with what they are not.
    const readAs = fit.spec.target.field === fit.spec.score_field ? "a number on people's confidences in their own answers" : `a score for ${fit.spec.target.field} = true`
    warnings.push(
      `"${fit.spec.score_field}" is the judge's confidence in its own "${rule.field}", scored in the field table against whether that answer ` +
        `is right; this fit reads it as ${readAs}, so its figures are not those of the field table`
    )
  }
  if (fit.parameters.kind === 'platt' && fit.parameters.a < 0) {
    warnings.push(
      `the fit's slope is negative (a = ${fit.parameters.a.toPrecision(3)}): a higher ${fit.spec.score_field} gives a lower probability, so the fit ` +
        "turns the judge's scores around, and its decisions are the judge's reversed where they cross 0.5"
    )
  }
  // A row with no held-out figure, and the reason why.
  const unevaluated = (): CalibrationRow => {
    const source = fit.parameters.kind === 'few-shot' ? `run:${fit.parameters.run_id}` : base.source
    return { ...base, source, n_eval_items: 0, n_eval_units: 0, n_exposed_eval_items: 0, warnings, reasons }
  }
  if (holdOut.notHeldOut !== null) {
    reasons.held_out = holdOut.notHeldOut
    warnings.push('Not held out: a split made after this fit moved items it learned from, so no held-out figure is given (reasons.held_out)')
    return unevaluated()
  }
  // A report restricted to another split holds none of the fit's eval items: said so, rather than as missing labels.
  if (input.split !== 'all' && input.split !== fit.spec.eval_split) {
    reasons.eval = `this report covers the ${input.split} split only; the fit is evaluated on ${fit.spec.eval_split} (its figures are in a report on all items or on ${fit.spec.eval_split})`
    return unevaluated()
  }
  if (base.n_excluded_eval_items > 0) {
    warnings.push(`${base.n_excluded_eval_items} ${fit.spec.eval_split} item(s) are left out: the fit learned from them or from the items they were made from`)
  }
  const exposedOf = (itemIds: Iterable<number>) => {
    const exposed = [...new Set(itemIds)].filter((id) => (itemsById.get(id)?.exposures.length ?? 0) > 0)
    if (exposed.length > 0) {
      warnings.push(
        `${exposed.length} ${fit.spec.eval_split} item(s) this fit is evaluated on had their labels or judge outputs exposed (exposure log): the held-out figures may be optimistic`
      )
    }
    return exposed.length
  }

  if (fit.parameters.kind === 'few-shot') {
    // The few-shot template's run against the original judge on the same eval units the criterion labels.
    const runId = `run:${fit.parameters.run_id}`
    const fewShot = resolved.sources.get(runId)
    const truth = resolved.sources.get(fit.spec.criterion)?.values.get(fit.spec.target.field) ?? new Map<string, Value>()
    const rawValues = resolved.sources.get(fit.spec.source)?.values.get(fit.spec.target.field) ?? new Map<string, Value>()
    const newValues = fewShot?.values.get(fit.spec.target.field) ?? new Map<string, Value>()
    const keys = [...truth.keys()].filter((key) => {
      const itemId = Number(key.slice(0, key.indexOf('\u0000')))
      return resolved.splitOf.get(itemId) === fit.spec.eval_split && kept(itemId) && fewShot?.itemStatus.has(itemId)
    })
    const itemOf = (key: string) => Number(key.slice(0, key.indexOf('\u0000')))
    const { answered, unanswered } = answeredUnits(keys, itemOf, fewShot?.itemStatus, resolved.sources.get(fit.spec.source)?.itemStatus)
    const numeric = answered.length > 0 && answered.every((k) => typeof truth.get(k) === 'number')
    // Evaluated on the units both runs answered, as a both-orders fit is; the others are counted beside them.
    const row: CalibrationRow = {
      ...base,
      source: runId,
      n_eval_items: new Set(answered.map(itemOf)).size,
      n_eval_units: answered.length,
      n_unanswered_eval_units: unanswered.length,
      n_exposed_eval_items: exposedOf(answered.map(itemOf)),
      warnings,
      reasons
    }
    if (!fewShot) reasons.run = `the few-shot run ${runId} is not in this report (archived, or filtered out)`
    if (unanswered.length > 0) warnings.push(unansweredWarning(unanswered.length, keys.length, runId, fit.spec.source))
    if (numeric) {
      type Row = { itemId: number; before: number; after: number }
      const rows: Row[] = answered.flatMap((k) => {
        const t = truth.get(k) as number, b = rawValues.get(k), a = newValues.get(k)
        return typeof b === 'number' && typeof a === 'number' ? [{ itemId: itemOf(k), before: Math.abs(b - t), after: Math.abs(a - t) }] : []
      })
      const difference = pairedBootstrapDifference(groupRowsIntoUnits(rows, (r) => String(r.itemId)), madOf<Row>('after'), madOf<Row>('before'), bootstrap)
      row.scale = { n: rows.length, before_mad: difference.second.value, after_mad: difference.first.value, mad_difference: differenceOf(difference) }
    } else {
      const same = (v: Value | undefined, t: Value) => v !== undefined && valueKey(v) === valueKey(t)
      row.decision = decisionBlock(
        answered.map((k) => ({ itemId: itemOf(k), before: same(rawValues.get(k), truth.get(k) as Value), after: same(newValues.get(k), truth.get(k) as Value) })),
        `the original template's run (${fit.spec.source}) on the same items, its value as its field table gives it (a split vote, a unit without a value there, counted here as not correct)`,
        reasons,
        bootstrap,
        false,
        unanswered.length
      )
    }
    return row
  }

  if (fit.parameters.kind === 'both-orders') {
    const rule = fit.parameters.rule
    const criterion = resolved.sources.get(fit.spec.criterion)
    const raw = resolved.sources.get(fit.spec.source)
    const rawInput = input.sources.find((s) => s.id === fit.spec.source)
    const perItem = new Map<number, OrderedVerdicts & { unit: string; calls: number[] }>()
    // The raw run's calls by item, read once from its rows (a scan of every call per item grows with items × calls).
    const rawRows = rawInput ? callRowsOf(rawInput) : null
    const callsOf = rawRows ? callsByItem(rawRows, () => true) : new Map<number, number[]>()
    for (const item of input.items) {
      if (item.split !== fit.spec.eval_split || !item.pair || !kept(item.id)) continue
      const calls = callsOf.get(item.id) ?? []
      const verdicts = rawRows ? orderedVerdicts(rawRows, calls, item.pair.unit) : { first: [], second: [] }
      perItem.set(item.id, { ...verdicts, unit: item.pair.unit, calls })
    }
    const truth = criterion?.values.get('winner')
    const rawWinner = raw?.values.get('winner')
    const rows: Array<{ itemId: number; before: boolean; after: boolean }> = []
    // The pairs the criterion labels: the changes are counted on them, the pairs the decision and the fit's pairwise row judge.
    const labelled: OrderedVerdicts[] = []
    let unanswered = 0
    for (const [itemId, v] of perItem) {
      const t = valueOfUnit(truth, itemId, v.unit)
      if (t === undefined) continue
      labelled.push(v)
      const aggregated = aggregateBothOrders(v, rule)
      // Before: the raw judge's value on the unit, as its field table has it (its orders' vote; an order that could
      // not be read casts none), and as every other fit's "before" reads it.
      const before = valueOfUnit(rawWinner, itemId, v.unit)
      const rawRight = before !== undefined && valueKey(before) === valueKey(t)
      if (aggregated === null) {
        // A pair without a verdict in both orders has no aggregate. As the pairwise table counts the fit's pair, an
        // unparseable answer makes it judged and wrong. A failed, abstained or missing order leaves the pair out,
        // counted.
        if (rawRows && unansweredPairStatus(rawRows, v.calls) === 'unparseable') rows.push({ itemId, before: rawRight, after: false })
        else unanswered++
        continue
      }
      const after = sideOf(aggregated)
      rows.push({ itemId, before: rawRight, after: after !== null && after === t })
    }
    if (unanswered > 0) {
      warnings.push(`${unanswered} of ${rows.length + unanswered} labelled eval pair(s) lack an answer in a display order of ${fit.spec.source} (failed, still pending or abstained): no aggregate, left out of the comparison, not counted wrong`)
    }
    return {
      ...base,
      n_eval_items: rows.length,
      n_eval_units: rows.length,
      ...(unanswered > 0 ? { n_unanswered_eval_units: unanswered } : {}),
      n_exposed_eval_items: exposedOf(rows.map((r) => r.itemId)),
      changes: bothOrderChanges(labelled, rule),
      decision: decisionBlock(rows, "the raw judge's vote over both orders, read as its field table reads it (an order that could not be read casts no vote), except that a split vote, a unit without a value there, is counted here as not correct", reasons, bootstrap, false, unanswered),
      warnings,
      reasons
    }
  }

  const units = scoredUnits(input, resolved, fit.spec.source, fit.spec.score_field, fit.spec.criterion, fit.spec.target.field).filter((u) => u.split === fit.spec.eval_split && kept(u.itemId))
  const unscored = unscoredEvalUnits(resolved, fit, units, kept)
  const row: CalibrationRow = {
    ...base,
    n_eval_items: new Set(units.map((u) => u.itemId)).size,
    n_eval_units: units.length,
    ...(unscored.total > 0 ? { n_unscored_eval_units: unscored.total, unscored_by_status: unscored.byStatus } : {}),
    n_exposed_eval_items: exposedOf(units.map((u) => u.itemId)),
    warnings,
    reasons
  }
  if (units.length === 0) reasons.eval = `no ${fit.spec.eval_split} unit has both a score from ${fit.spec.source} and a label from ${fit.spec.criterion}`
  const outputs = units.map((u) => applyFit(fit.parameters, u.score, fit.spec.target, field))

  const hasProbability = fit.parameters.kind === 'platt' || (fit.parameters.kind === 'isotonic' && fit.parameters.output === 'probability')
  if (hasProbability && units.length > 0) {
    const rescale = beforeMapping(input, fit, field)
    type Row = { itemId: number; y: number; before: number; after: number }
    const rows: Row[] = units.map((u, i) => ({ itemId: u.itemId, y: eventOf(fit.spec.target, u.label) ?? 0, before: rescale.map(u.score), after: outputs[i]?.probability ?? 0 }))
    const scores = (list: readonly Row[], which: 'before' | 'after') => ({
      brier: brierScore(list.map((r) => r.y), list.map((r) => r[which])).value,
      log_loss: logLoss(list.map((r) => r.y), list.map((r) => r[which])).value,
      ece: expectedCalibrationError(list.map((r) => r.y), list.map((r) => r[which]), options.eceBins).value
    })
    const brierOf = (which: 'before' | 'after') => (resample: readonly { rows: Row[] }[]): Estimate => {
      const flat = resample.flatMap((u) => u.rows)
      return brierScore(flat.map((r) => r.y), flat.map((r) => r[which]))
    }
    const difference = pairedBootstrapDifference(groupRowsIntoUnits(rows, (r) => String(r.itemId)), brierOf('after'), brierOf('before'), bootstrap)
    row.probability = {
      n: rows.length,
      before_mapping: rescale.description,
      before: scores(rows, 'before'),
      after: scores(rows, 'after'),
      ece_bins: options.eceBins,
      brier_difference: differenceOf(difference)
    }
  }

  if (fit.parameters.kind !== 'isotonic' || fit.parameters.output === 'probability') {
    const rawValues = resolved.sources.get(fit.spec.source)?.values.get(fit.spec.target.field)
    const withDecision = units.map((u, i) => ({ u, after: outputs[i]?.value ?? null })).filter((r) => r.after !== null)
    if (withDecision.length > 0) {
      const rows = withDecision.map(({ u, after }) => {
        const before = rawValues?.get(u.key)
        return { itemId: u.itemId, before: before !== undefined && valueKey(before) === valueKey(u.label), after: valueKey(after as Value) === valueKey(u.label) }
      })
      if (!rawValues || rawValues.size === 0) reasons.decision_before = `the raw judge gives no "${fit.spec.target.field}" of its own`
      row.decision = decisionBlock(rows, `the raw judge's own "${fit.spec.target.field}"`, reasons, bootstrap, !rawValues || rawValues.size === 0)
    } else if (units.length > 0 && isEventTarget(fit.spec.target, field)) {
      // An event that is no category of the field (score >= k): the decision is scored as whether the event holds.
      const event = fitTarget({ target_field: fit.spec.target.field, positive: positiveText(fit.spec.target) ?? 'true' })
      const rows = units.flatMap((u, i) => {
        const after = outputs[i]?.decision
        const truth = eventOf(fit.spec.target, u.label)
        if (after === null || after === undefined || truth === null) return []
        const raw = rawValues?.get(u.key)
        const before = raw === undefined ? null : eventOf(fit.spec.target, raw)
        return [{ itemId: u.itemId, before: before !== null && before === truth, after: (after ? 1 : 0) === truth }]
      })
      if (rows.length > 0) {
        if (!rawValues || rawValues.size === 0) reasons.decision_before = `the raw judge gives no "${fit.spec.target.field}" of its own`
        row.decision = decisionBlock(rows, `whether the raw judge's own "${fit.spec.target.field}" has ${event}; accuracy is of the event ${event}`, reasons, bootstrap, !rawValues || rawValues.size === 0)
      }
    }
  }

  if (fit.parameters.kind === 'isotonic' && fit.parameters.output === 'scale' && units.length > 0) {
    type Row = { itemId: number; before: number; after: number }
    const rows: Row[] = units.flatMap((u, i) => {
      const after = outputs[i]?.value
      return typeof u.label === 'number' && typeof after === 'number' ? [{ itemId: u.itemId, before: Math.abs(u.score - u.label), after: Math.abs(after - u.label) }] : []
    })
    const grouped = groupRowsIntoUnits(rows, (r) => String(r.itemId))
    const difference = pairedBootstrapDifference(grouped, madOf<Row>('after'), madOf<Row>('before'), bootstrap)
    row.scale = { n: rows.length, before_mad: difference.second.value, after_mad: difference.first.value, mad_difference: differenceOf(difference) }
  }
  if (units.length > 0 && !row.decision && !row.probability && !row.scale && !reasons.eval) {
    reasons.eval = `the fit gives neither a probability nor a decision on "${fit.spec.target.field}" to compare with ${fit.spec.criterion}`
  }
  return row
}

/**
 * Eval units both runs answered, and those one of them never answered (calls failed, pending after a stop, an
 * abstention): an unanswered unit is missing, counted apart, never scored as a wrong answer of either template.
 */
function answeredUnits(
  keys: readonly string[],
  itemOf: (key: string) => number,
  fewShot: ReadonlyMap<number, ItemStatus> | undefined,
  original: ReadonlyMap<number, ItemStatus> | undefined
): { answered: string[]; unanswered: string[] } {
  const answered: string[] = []
  const unanswered: string[] = []
  // As the pairwise table counts: an unreadable answer or one whose votes split evenly is judged (not correct);
  // a failed, pending or abstained call is no answer.
  const judged = (status: ItemStatus | undefined) => status === 'answered' || status === 'unparseable'
  for (const key of keys) (judged(fewShot?.get(itemOf(key))) && judged(original?.get(itemOf(key))) ? answered : unanswered).push(key)
  return { answered, unanswered }
}

function unansweredWarning(missing: number, of: number, runId: string, rawId: string): string {
  return `${missing} of ${of} eval unit(s) have no answer from the few-shot run ${runId} or the original ${rawId} (failed, still pending or abstained): they are left out of the comparison, not counted wrong`
}

function positiveText(target: TargetSpec): string | null {
  if (target.positive === null) return null
  return typeof target.positive === 'object' ? `>= ${target.positive.at_least}` : String(target.positive)
}

/**
 * The raw score as a probability for the "before" figures: a probability field as it is; otherwise rescaled
 * linearly to [0, 1] over the field's declared numeric categories, or over the judge's observed range of scores.
 */
function beforeMapping(input: ReportInput, fit: StoredFit, _target: FieldSpec | undefined): { map: (score: number) => number; description: string } {
  const scoreField = input.instrument.fields.find((f) => f.name === fit.spec.score_field)
  if (scoreField?.level === 'probability') return { map: (s) => Math.min(1, Math.max(0, s)), description: `${fit.spec.score_field} as given (a probability)` }
  const numeric = scoreField?.categories?.filter((c): c is number => typeof c === 'number') ?? []
  let lo: number, hi: number, whence: string
  if (numeric.length >= 2) {
    lo = Math.min(...numeric)
    hi = Math.max(...numeric)
    whence = 'its declared scale'
  } else {
    const all = [...numericScores(input, fit.spec.source, fit.spec.score_field).values()]
    lo = all.length ? Math.min(...all) : 0
    hi = all.length ? Math.max(...all) : 1
    whence = "the judge's observed range"
  }
  const span = hi - lo
  return {
    map: (s) => (span > 0 ? Math.min(1, Math.max(0, (s - lo) / span)) : 0.5),
    description: `${fit.spec.score_field} rescaled linearly from ${whence} [${lo}, ${hi}] to [0, 1]`
  }
}

export type { ScoredUnit }

/**
 * Labelled eval units of items the raw judge was asked about that have no score from it (an unreadable answer, a
 * failed or pending call, an abstention, or the score field left out): left out of before and after alike, where
 * the field tables count an unreadable answer as judged and wrong. Counted by the item's status, so the section can
 * say how its units differ from the tables'.
 */
function unscoredEvalUnits(resolved: ResolvedInput, fit: StoredFit, scored: readonly { key: string }[], kept: (itemId: number) => boolean): { total: number; byStatus: Record<string, number> } {
  const status = resolved.sources.get(fit.spec.source)?.itemStatus
  const labels = resolved.sources.get(fit.spec.criterion)?.values.get(fit.spec.target.field)
  const byStatus: Record<string, number> = {}
  if (!status || !labels) return { total: 0, byStatus }
  const withScore = new Set(scored.map((u) => u.key))
  let total = 0
  for (const key of labels.keys()) {
    if (withScore.has(key)) continue
    const itemId = Number(key.slice(0, key.indexOf('\u0000')))
    const itemStatus = status.get(itemId)
    if (itemStatus === undefined || resolved.splitOf.get(itemId) !== fit.spec.eval_split || !kept(itemId)) continue
    // An answered item without the score: the field left out of its answer.
    const why = itemStatus === 'answered' ? 'no score given' : itemStatus
    byStatus[why] = (byStatus[why] ?? 0) + 1
    total++
  }
  return { total, byStatus }
}
