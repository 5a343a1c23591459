import type { Report, ReportWarning } from './schema'
import type { WorkedCheckCounts } from './input'
import { fitName } from './calibration-lines'
import { alwaysLabel } from './format'

const pct = (x: number | null | undefined): string => (typeof x === 'number' ? `${(100 * x).toFixed(1)}%` : 'n/a')

/** The warnings a reader must see before trusting a figure of the report. */
export function collectWarnings(
  report: Report,
  context: { minItems: number; invalidStored: ReadonlyMap<string, number>; workedChecks?: WorkedCheckCounts | null }
): ReportWarning[] {
  const warnings: ReportWarning[] = []
  const checks = context.workedChecks
  if (checks && checks.mismatch + checks.unverified > 0) {
    warnings.push({
      code: 'unverified_checks',
      message:
        `Worked checks in the flaw audits: ${checks.verified} verified by re-running them on submit, ${checks.mismatch} whose re-run differed from what the annotator saw (the re-run's output is stored), ` +
        `${checks.unverified} not re-run (stored as the annotator's client sent them), ${checks.unrecorded} imported or stored without a re-run.`
    })
  }
  const roleOf = new Map(report.sources.map((s) => [s.id, s.role]))
  const nameOf = new Map(report.sources.map((s) => [s.id, s.name]))
  const name = (id: string) => nameOf.get(id) ?? id
  const isJudge = (id: string) => roleOf.get(id) === 'judge'

  if (report.scope.n_exposed_test_items > 0) {
    const kinds = Object.entries(report.scope.exposure_kinds).map(([k, n]) => `${k.replace(/_/g, ' ')}: ${n}`).join(', ')
    warnings.push({
      code: 'exposed_test_items',
      message: `${report.scope.n_exposed_test_items} of ${report.scope.n_test_items} test items were exposed (${kinds}); they are no longer unbiased test items.`
    })
  }
  if (report.instrument.versions.length > 1) {
    warnings.push({ code: 'mixed_instrument_versions', message: `Answers were given under instrument versions ${report.instrument.versions.join(', ')}.` })
  }
  if (report.criteria.length === 0) {
    warnings.push({ code: 'no_criterion', message: 'No reference labels, adjudications or human annotations: nothing to score the judges against.' })
  }
  const annotators = report.sources.filter((s) => s.kind === 'annotator').length
  if (annotators < 2 && report.sources.some((s) => s.role === 'judge')) {
    warnings.push({
      code: 'no_human_ceiling',
      message: `${annotators === 0 ? 'No annotator' : 'Only one annotator'} answered this instrument: there is no human–human agreement to set beside the judges'.`
    })
  }
  for (const source of report.sources) {
    // A judge not chosen by the filter is the reader's own choice, listed in the sources with why: no warning.
    if (source.left_out && source.left_out.status !== 'not_chosen') {
      warnings.push({ code: 'left_out_source', source: source.id, message: `${source.name} is left out of every comparison (${source.left_out.status}): ${source.left_out.reason}.` })
      continue
    }
    if (source.n_pending > 0) {
      warnings.push({ code: 'incomplete_run', source: source.id, message: `${source.name} has ${source.n_pending} calls still pending; its figures cover the finished ones.` })
    }
    const invalid = context.invalidStored.get(source.id)
    if (invalid) {
      warnings.push({
        code: 'invalid_stored_answers',
        source: source.id,
        message: `${invalid} stored answers of ${source.name} do not parse under the instrument's schema; they are counted as unparseable.`
      })
    }
  }

  // A recalibration's own warnings (a reversed judge, a confidence read as a probability) reach the list its card is
  // read beside, not only its section.
  for (const fit of report.calibration ?? []) {
    // Named as the fit is named in its section (a few-shot fit's source is its run, which has a card of its own).
    for (const w of fit.warnings) warnings.push({ code: 'fit_warning', source: fit.source, message: `${fitName(fit, name)}: ${w}.` })
  }

  // Below the majority baseline: the pairwise accuracy, and nominal fields (on a finer ordinal scale exact
  // agreement below the commonest category is flagged in the tables, where the weighted statistics sit beside it).
  const below = new Map<string, string[]>()
  const flag = (source: string, text: string) => below.set(source, [...(below.get(source) ?? []), text])
  const pairwiseCovered = new Set<string>()
  for (const row of report.pairwise?.rows ?? []) {
    pairwiseCovered.add(`${row.source}\u0000${row.criterion}`)
    if (isJudge(row.source) && row.below_majority_baseline) {
      flag(row.source, `against ${name(row.criterion)}: ${row.correct}/${row.n_judged} = ${pct(row.accuracy)} < ${pct(row.majority_baseline)} (always "${alwaysLabel(row.majority_label)}")`)
    }
  }
  for (const section of report.fields) {
    if (section.level !== 'nominal') continue
    for (const row of section.comparisons) {
      if (!isJudge(row.source) || !row.below_majority_baseline) continue
      if (section.name === 'winner' && pairwiseCovered.has(`${row.source}\u0000${row.criterion}`)) continue
      flag(row.source, `${row.field} against ${name(row.criterion)}: ${pct(row.accuracy)} < ${pct(row.majority_baseline)}`)
    }
  }
  for (const [source, texts] of below) {
    warnings.push({ code: 'below_majority_baseline', source, message: `${name(source)} is below the majority baseline ${texts.join('; ')}.` })
  }

  // Too few items: per judge, the item count behind its headline figure against each criterion (the pairwise
  // accuracy where there is one, else its widest field comparison).
  const headline = new Map<string, Map<string, number>>()
  const consider = (source: string, criterion: string, items: number, replace: boolean) => {
    if (!isJudge(source)) return
    const perCriterion = headline.get(source) ?? new Map<string, number>()
    const held = perCriterion.get(criterion)
    perCriterion.set(criterion, held === undefined || replace ? items : Math.max(held, items))
    headline.set(source, perCriterion)
  }
  for (const section of report.fields) for (const row of section.comparisons) if (row.n > 0) consider(row.source, row.criterion, row.n_items, false)
  for (const row of report.pairwise?.rows ?? []) consider(row.source, row.criterion, row.n_items, true)
  for (const [source, perCriterion] of headline) {
    const few = [...perCriterion].filter(([, items]) => items < context.minItems)
    if (few.length === 0) continue
    warnings.push({
      code: 'too_few_items',
      source,
      message: `${name(source)} rests on few items (fewer than ${context.minItems}): ${few.map(([c, n]) => `${n} against ${name(c)}`).join(', ')}; its intervals are wide and bootstrap intervals unreliable.`
    })
  }
  return warnings
}
