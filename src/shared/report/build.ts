import type { FieldSpec } from '../instruments/types'
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED, LOG_LOSS_EPSILON, RANDOM_GENERATOR } from '../stats'
import { ceilingFor, withMajorityRows } from './ceiling'
import { FIELD_UNIT, PAIRWISE_UNIT } from './definitions'
import { compareField } from './compare'
import { itemStatusCodes, type ItemStatusCodes } from './compare-units'
import { fatalFlawRow, fatalSides } from './fatal-flaws'
import { judgeFlawAuditRows } from './fatal-flaw-audits'
import { ideaOriginalitySection } from './idea-originality'
import { flawMatchingSection } from './flaw-matching'
import { CRITERION_KINDS, JUDGE_KINDS, type ReportInput, type ReportItem, type ReportSourceInput } from './input'
import type { BootstrapSettings, DrawAhead } from './intervals'
import { BootstrapPlan } from './bootstrap-plan'
import { probabilityOutcome } from './outcomes'
import { numberFieldOf } from '../instruments/derived'
import { labelTermsOf, pairCallsOf, positionRow, winnerReader } from './pairwise'
import { criterionTruth, pairwiseRow, tiedPairs, type CriterionTruth } from './pairwise-row'
import { ItemIndex } from './item-index'
import { answersField, combineSources, comparableFields, resolveSource, type ResolvedSource, type Value } from './resolve'
import { REPORT_SCHEMA_VERSION, type Report, type ReportComparison, type ReportPairwise } from './schema'
import { pairSystems, systemsOf } from './systems'
import { publishedAgreement } from './published'
import { PUBLISHED_CHANCE } from './pairwise-schema'
import { judgeVsJudgeSection } from './judge-vs-judge'
import { collectWarnings } from './warnings'
import { flaggedSources } from './source-flags'
import { sourceSummary } from './source-summary'
import { roundResidues } from './residue'
import { buildSummary } from './summary'
import { probesSection } from './probes'
import { leftOutOf } from './left-out'
import { calibrationSections, withCalibratedSources } from '../calibrate'
import { citeFitDifferences } from './cited-differences'
import { MIN_BOOTSTRAP_RESAMPLES } from './limits'
import { ReportFrame } from './frame'

export interface ReportOptions {
  /** Confidence level of every interval (default 0.95). */
  level?: number
  /** Bootstrap resamples (at least 2,000; default 2,000). */
  resamples?: number
  seed?: number
  /** Below this many items an interval is flagged as unreliable (default 30). */
  minItemsForInterval?: number
  eceBins?: number
  /** The report's timestamp (injected so that reports can be reproduced byte for byte). */
  generatedAt?: string
  /** Where the report's one bootstrap may draw its resamples ahead, on another thread (the same figures). */
  drawAhead?: DrawAhead | undefined
  /** Told when the bootstrap starts drawing its resamples (the longest step), with what it draws. */
  onResampling?: (detail: ResamplingDetail) => void
}

export interface ResamplingDetail {
  resamples: number
  items: number
  /** Statistics whose intervals the resamples give. */
  statistics: number
}

export { MIN_BOOTSTRAP_RESAMPLES }
export const DEFAULT_MIN_ITEMS_FOR_INTERVAL = 30

const AGGREGATION =
  'trials of a call, display orders and annotators behind a majority are combined per unit: nominal and ordinal ' +
  'fields by vote (an even split leaves no value, counted as a tied vote), interval, ratio and probability fields by ' +
  'their mean; a pass read from points (FrontierScience research: passed = total ≥ 7) from the combined points, so a ' +
  'source\'s pass and its total never disagree'

/** One ties policy for human majorities, applied in every table (stated in the report's settings). */
export const TIES_POLICY =
  'an even split among the annotators leaves the unit without a human-majority label: the unit is left out of every ' +
  'comparison with the human majority (counted in its n_tied_votes), never counted as a wrong answer; a tie given ' +
  'as an answer by a source is that source\'s verdict and is scored as given'

/** Builds the audit report of one instrument from gathered sources. Pure: the same input gives the same report. */
export function buildReport(gathered: ReportInput, options: ReportOptions = {}): Report {
  // One frame below every section, the fits' included: the gathered one, or one made here for an input built by hand.
  const frame = gathered.frame ?? ReportFrame.of(gathered.sources, comparableFields(gathered.instrument.fields))
  // Stored recalibrations are sources of their own, beside the raw judge.
  const input = withCalibratedSources(gathered.frame ? gathered : { ...gathered, frame })
  const level = options.level ?? 0.95
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES
  if (!(Number.isInteger(resamples) && resamples >= MIN_BOOTSTRAP_RESAMPLES)) {
    throw new RangeError(`a report draws at least ${MIN_BOOTSTRAP_RESAMPLES} bootstrap resamples (${resamples})`)
  }
  const bootstrap: BootstrapSettings = { resamples, seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED, level, drawAhead: options.drawAhead }
  const eceBins = options.eceBins ?? 10
  const minItems = options.minItemsForInterval ?? DEFAULT_MIN_ITEMS_FOR_INTERVAL
  const fields = comparableFields(input.instrument.fields)
  const items = new Map(input.items.map((i) => [i.id, i]))
  const inScope = new Set(items.keys())

  const everySource = input.sources.map((s) => resolveSource(s, fields, inScope, frame))
  // Failed and empty runs are listed with why, and compared with nothing.
  const leftOut = new Map(everySource.flatMap((s) => { const why = leftOutOf(s); return why ? [[s.id, why] as const] : [] }))
  // Judges the source filter left out, read only for a chosen fit made from them.
  for (const [id, reason] of Object.entries(gathered.notChosen ?? {})) leftOut.set(id, { status: 'not_chosen', reason })
  const resolved = everySource.filter((s) => !leftOut.has(s.id))
  const annotators = resolved.filter((s) => s.input.kind === 'annotator')
  const derived: ResolvedSource[] = []
  if (annotators.length > 0) derived.push(combineSources(annotators, fields, majorityInput(annotators.length)))
  const all = [...resolved, ...derived]
  const criteria = order(all.filter((s) => CRITERION_KINDS.has(s.input.kind) && hasAnyValue(s)))

  const plan = new BootstrapPlan(inScope)
  // Each source's item status by unit code, made once and read by all of its comparisons.
  const statuses = new Map(all.map((s) => [s.id, itemStatusCodes(s, frame.units)]))
  const fieldSections = fields.map((field) => ({
    name: field.name,
    label: field.label,
    level: field.level,
    categories: field.categories ? [...field.categories] : null,
    unit: FIELD_UNIT,
    comparisons: comparisonsFor(field, all, criteria, annotators, input.instrument.id, { level, plan, eceBins, statuses, fields })
  }))

  const pairwise = input.items.some((i) => i.pair) && fields.some((f) => f.name === 'winner')
    ? pairwiseSection(input, all, criteria, items, { level, plan })
    : null

  const judges = order(all.filter((s) => JUDGE_KINDS.has(s.input.kind)))
  const ceiling = ceilingSection(fields, annotators, judges, { level, eceBins }, statuses, input.instrument.id)
  const judgeVsJudgeRows = judgeVsJudgeSection(fields, criteria, judges, plan, input.instrument.id)

  // Every interval above is filled in by this one bootstrap over the items in scope. Its resamples are drawn and
  // summed on the draw thread (where there is one) while the sections that need none of its intervals are built.
  options.onResampling?.({ resamples, items: inScope.size, statistics: plan.size })
  plan.start(bootstrap)
  let beside: ReturnType<typeof sectionsBesidePlan>
  try {
    beside = sectionsBesidePlan(gathered, input, leftOut, { level, resamples, seed: bootstrap.seed, eceBins, drawAhead: bootstrap.drawAhead })
  } catch (error) {
    plan.abandon()
    throw error
  }
  plan.finish()
  const { fitSections, originality, flawMatching, probes } = beside

  // Residues only in computed figures: settings such as the log-loss ε are tiny on purpose.
  roundResidues([fieldSections, pairwise, ceiling, judgeVsJudgeRows])
  // The ceiling cites the field tables' rows against the human majority, and the cards cite the ceiling.
  const majorityId = derived.find((s) => s.input.kind === 'human_majority')?.id ?? null
  const citedCeiling = withMajorityRows(ceiling, fieldSections, majorityId, new Set(annotators.map((a) => a.id)))

  const listed = order([...everySource, ...derived]).map((s) => {
    const why = leftOut.get(s.id)
    return why ? { ...sourceSummary(s), left_out: why } : sourceSummary(s)
  })
  // Each source's flags, from every table that scores it.
  const sources = flaggedSources(listed, [...fieldSections.flatMap((f) => f.comparisons), ...(pairwise?.rows ?? [])], minItems)
  const testItems = input.items.filter((i) => i.split === 'test')
  const exposedTest = testItems.filter((i) => i.exposures.length > 0)
  const exposureKinds: Record<string, number> = {}
  for (const item of exposedTest) for (const kind of new Set(item.exposures)) exposureKinds[kind] = (exposureKinds[kind] ?? 0) + 1

  // Every section, probes and fits included, is in place before the summary and the warnings read the report.
  const sections: Report = {
    schema: REPORT_SCHEMA_VERSION,
    generated_at: options.generatedAt ?? new Date().toISOString(),
    project: input.project,
    instrument: { id: input.instrument.id, title: input.instrument.title, item_kind: input.instrument.itemKind, versions: input.instrument.versions },
    scope: {
      split: input.split,
      n_items: input.items.length,
      n_test_items: testItems.length,
      n_exposed_test_items: exposedTest.length,
      exposure_kinds: exposureKinds,
      sets: [...new Set(input.items.map((i) => i.set))].sort()
    },
    settings: {
      level,
      bootstrap: { resamples, seed: bootstrap.seed, generator: RANDOM_GENERATOR, method: 'cluster bootstrap over items, percentile interval (type 7)', resampling_unit: 'item' },
      min_items_for_interval: minItems,
      ece_bins: eceBins,
      log_loss_epsilon: LOG_LOSS_EPSILON,
      aggregation: AGGREGATION,
      ties_policy: TIES_POLICY,
      panel_rule: input.panelRule ?? null
    },
    summary: [],
    sources,
    criteria: criteria.map((c) => c.id),
    fields: fieldSections,
    pairwise,
    ceiling: citedCeiling,
    // A fit beside its raw judge on the same units cites its recalibration section's interval: one difference, one interval.
    judge_vs_judge: citeFitDifferences(judgeVsJudgeRows, fitSections.calibration),
    warnings: [],
    ...fitSections,
    ...(originality ? { idea_originality: originality } : {}),
    ...(flawMatching ? { flaw_matching: flawMatching } : {}),
    ...(probes ? { probes } : {})
  }
  const summary = buildSummary(sections)
  const warnings = collectWarnings({ ...sections, summary }, { minItems, invalidStored: invalidStoredCounts(input.sources), workedChecks: input.workedChecks ?? null })
  return { ...sections, summary, warnings }
}

/**
 * The sections with bootstraps of their own (fits, originality, probes) and flaw matching: built from the input alone,
 * none reads the report's plan, so they are built while its resamples are drawn.
 */
function sectionsBesidePlan(
  gathered: ReportInput,
  input: ReportInput,
  leftOut: ReadonlyMap<string, unknown>,
  settings: { level: number; resamples: number; seed: number; eceBins: number; drawAhead: BootstrapSettings['drawAhead'] }
) {
  const { level, resamples, seed } = settings
  const fitSections = calibrationSections(input, settings)
  // The fit rows keep a failed run in view (its units are missing there, and counted); the other sections compare
  // only sources with answers.
  const compared = leftOut.size ? { ...input, sources: input.sources.filter((s) => !leftOut.has(s.id)) } : input
  const originality = ideaOriginalitySection(compared, { level, resamples, seed })
  const flawMatching = flawMatchingSection(compared, level)
  const probes = gathered.probes?.length ? probesSection(compared, gathered.probes, { level, resamples, seed }) : null
  return { fitSections, originality, flawMatching, probes }
}

function majorityInput(annotatorCount: number): ReportSourceInput {
  return {
    id: 'human-majority',
    kind: 'human_majority',
    name: 'Human majority',
    detail: { annotators: annotatorCount, rule: 'vote per unit (mean for numbers); an even split leaves no value' },
    calls: []
  }
}

function hasAnyValue(source: ResolvedSource): boolean {
  for (const values of source.values.values()) if (values.size > 0) return true
  return false
}

const KIND_ORDER = ['item_label', 'reference_import', 'adjudicated', 'human_majority', 'panel', 'judge_run', 'model_import', 'calibrated', 'annotator']

/** Criteria first, then judges, then annotators; stable within a kind. */
function order<T extends ResolvedSource>(sources: readonly T[]): T[] {
  return [...sources].sort((a, b) => KIND_ORDER.indexOf(a.input.kind) - KIND_ORDER.indexOf(b.input.kind))
}

function comparisonsFor(
  field: FieldSpec,
  all: readonly ResolvedSource[],
  criteria: readonly ResolvedSource[],
  annotators: readonly ResolvedSource[],
  instrumentId: string,
  options: { level: number; plan: BootstrapPlan; eceBins: number; statuses: ReadonlyMap<string, ItemStatusCodes | null>; fields: readonly FieldSpec[] }
): ReportComparison[] {
  const outcome = probabilityOutcome(instrumentId, field)
  const keyField = outcome?.field ?? field.name
  const rows: ReportComparison[] = []
  criteria.forEach((criterion, criterionIndex) => {
    if ((criterion.values.get(keyField)?.size ?? 0) === 0) return
    for (const source of order(all)) {
      if (source.id === criterion.id || comparedTheOtherWay(source, criterionIndex, criteria)) continue
      // A source that answers items but never gives this field (a panel, a judge not asked for fatal flaws).
      if (source.counts.answered > 0 && !answersField(source, field.name)) continue
      let values = (name: string): ReadonlyMap<string, Value> => criterion.values.get(name) ?? new Map()
      const againstOthers = criterion.input.kind === 'human_majority' && source.input.kind === 'annotator'
      if (againstOthers) {
        // An annotator is scored against the majority of the others, never against a majority it is part of.
        const others = annotators.filter((a) => a.id !== source.id)
        if (others.length === 0) continue
        const leaveOneOut = combineSources(others, [field, ...numberFields(field, options.fields), ...outcomeFieldSpec(field, outcome?.field)], majorityInput(others.length))
        values = (name) => leaveOneOut.values.get(name) ?? new Map()
      }
      // Individual annotators carry Wilson intervals; the bootstrap is spent on judges, criteria and the majority.
      const plan = source.input.kind === 'annotator' ? null : options.plan
      const { level, eceBins } = options
      const row = compareField(field, source, criterion.id, values, { level, eceBins, plan, outcome, statuses: options.statuses.get(source.id) ?? undefined })
      if (!againstOthers) rows.push(row)
      else {
        const { ci, reasons, ...figures } = row
        rows.push({ ...figures, criterion_form: 'majority_of_others', ci, reasons })
      }
    }
  })
  return rows
}

/** Two criteria are compared once: the later one as a source against the earlier one. */
function comparedTheOtherWay(source: ResolvedSource, criterionIndex: number, criteria: readonly ResolvedSource[]): boolean {
  const sourceIndex = criteria.indexOf(source)
  return sourceIndex >= 0 && sourceIndex < criterionIndex
}

/** The number a field is read from (passed: total), so the leave-one-out majority reads it as the majority does. */
function numberFields(field: FieldSpec, fields: readonly FieldSpec[]): FieldSpec[] {
  const from = numberFieldOf(field, fields)
  return from ? [from] : []
}

/** The field an outcome rule reads, as a field spec (for the leave-one-out majority). */
function outcomeFieldSpec(field: FieldSpec, outcomeField: string | undefined): FieldSpec[] {
  if (!outcomeField || outcomeField === field.name) return []
  return [{ name: outcomeField, label: outcomeField, level: 'nominal' }]
}

function pairwiseSection(
  input: ReportInput,
  all: readonly ResolvedSource[],
  criteria: readonly ResolvedSource[],
  items: ReadonlyMap<number, ReportItem>,
  options: { level: number; plan: BootstrapPlan }
): ReportPairwise {
  const terms = labelTermsOf(input.items)
  const labels = terms === 'origin' ? ['human', 'ai'] : ['a', 'b']
  const withWinners = criteria.filter((c) => (c.values.get('winner')?.size ?? 0) > 0)
  const rows = []
  const callsBySource = new Map<string, ReturnType<typeof pairCallsOf>>()
  // Each criterion's winners by item, read once: the rows score against them, and the first is the published truth.
  const dense = new ItemIndex(input.items.map((i) => i.id))
  const truths = withWinners.map((criterion) => criterionTruth(dense, input.items, winnerReader(criterion)))
  for (const [criterionIndex, criterion] of withWinners.entries()) {
    const truth = truths[criterionIndex] as CriterionTruth
    for (const source of order(all)) {
      if (source.id === criterion.id || source.input.kind === 'panel' || comparedTheOtherWay(source, criterionIndex, withWinners)) continue
      if (criterion.input.kind === 'human_majority' && source.input.kind === 'annotator') continue
      let calls = callsBySource.get(source.id)
      if (!calls) callsBySource.set(source.id, (calls = pairCallsOf(source, items)))
      if (!calls.item.some((itemId) => truth.side[dense.find(itemId)] !== 0)) continue
      const plan = source.input.kind === 'annotator' ? null : options.plan
      rows.push(pairwiseRow(source.id, calls, criterion.id, truth, { ...options, plan, terms, labels, tiedVotes: tiedPairs(source, truth, dense) }))
    }
  }
  const position = order(all)
    .filter((s) => !CRITERION_KINDS.has(s.input.kind) && s.input.kind !== 'panel')
    .map((s) => positionRow(s.id, callsBySource.get(s.id) ?? pairCallsOf(s, items), options.level))
    .filter((row): row is NonNullable<typeof row> => row !== null)
  // Each pair's systems and origins, read once for every source ranked below.
  const pairs = pairSystems(input.items)
  const systems = order(all)
    .filter((s) => s.input.kind !== 'annotator' && s.input.kind !== 'panel')
    .map((s) => systemsOf(s, input.items, pairs, options.plan))
    .filter((row): row is NonNullable<typeof row> => row !== null)
  const marked = fatalSides(input.flawAudits, items)
  const fatalFlaws = marked.size === 0
    ? []
    : order(all)
        .filter((s) => s.input.kind !== 'panel' && answersField(s, 'winner'))
        .map((s) => fatalFlawRow(s, marked, items, options.level))
  const judgeAudits = marked.size ? judgeFlawAuditRows(input.judgeFlawAudits ?? [], marked, items, options.level) : []
  const annotators = all.filter((s) => s.input.kind === 'annotator')
  const judgeCalls = order(all)
    .filter((s) => JUDGE_KINDS.has(s.input.kind) && s.input.kind !== 'panel')
    .map((s) => ({ id: s.id, calls: callsBySource.get(s.id) ?? pairCallsOf(s, items) }))
  const first = withWinners[0]
  const truth = first ? { id: first.id, truth: truths[0] as CriterionTruth } : null
  return {
    label_terms: terms,
    labels,
    unit: PAIRWISE_UNIT,
    rows,
    position,
    systems,
    fatal_flaws: fatalFlaws,
    n_fatal_flaw_audits: input.flawAudits.length,
    ...(judgeAudits.length ? { judge_flaw_audits: judgeAudits } : {}),
    published_agreement: publishedAgreement(annotators, judgeCalls, input.items, truth),
    published_chance: { ...PUBLISHED_CHANCE }
  }
}

const hasField = (source: ResolvedSource, field: FieldSpec) => (source.values.get(field.name)?.size ?? 0) > 0

/** Per field the annotators answered: human–human agreement beside each judge's agreement with the same people. */
function ceilingSection(
  fields: readonly FieldSpec[],
  annotators: readonly ResolvedSource[],
  judges: readonly ResolvedSource[],
  options: { level: number; eceBins: number },
  statuses: ReadonlyMap<string, ItemStatusCodes | null>,
  instrumentId: string
): Report['ceiling'] {
  return fields
    .filter((field) => annotators.some((a) => hasField(a, field)))
    .map((field) => ceilingFor(field, annotators, judges.filter((j) => hasField(j, field)), options, statuses, probabilityOutcome(instrumentId, field)))
}

function invalidStoredCounts(sources: readonly ReportSourceInput[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const s of sources) {
    const n = s.detail.n_invalid_stored
    if (typeof n === 'number' && n > 0) out.set(s.id, n)
  }
  return out
}
