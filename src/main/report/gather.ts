import { runStatusShown } from '../../shared/contract/run-operations'
import { AssayError } from '../../shared/errors'
import { getInstrument, hasGradedText, isInstrumentId, type AnyInstrument, unknownInstrumentMessage } from '../../shared/instruments'
import { payloadAsRead, type ItemKind, type ProposalPair, type Split } from '../../shared/items/kinds'
import { referenceLabel } from '../../shared/items/reference-label'
import { CALL_STATUSES, CallRows, OK, ReportFrame, comparableFields, sourceOfRows, type CallStatus, generatedIdeaFacts, JUDGE_KINDS, type ReportInput, type ReportItem, type ReportSourceInput, type FlawAuditInput, type GeneratedIdeaFacts, type PairFacts, type WorkedCheckCounts } from '../../shared/report'
import { addAnswer, JudgementReader, readAnswer } from './stored-calls'
import { payloadWithContext } from '../annotation/item-context'
import { companyOf } from '../providers/companies'
import type { ProviderKind } from '../providers/types'
import { currentAnswers, type AnswerRow } from '../store/annotations'
import { annotatorPseudonyms, runCallColumns, reportRunRows, currentAdjudicationRows, exposureRows, itemRowsOfKind, type ReportRunRow } from '../store/report-reads'
import type { Db } from '../store/database'
import { getMeta } from '../store/meta'
import { panelSourceInput } from './panel'
import { listFits } from '../store/calibration-fits'
import type { StoredFit } from '../../shared/calibrate'
import { countCheckProvenance } from '../checks/verify'
import { probeFacts } from '../probes/report-facts'

export interface GatherOptions {
  instrument: string
  /** Restrict to one split; all items when absent. */
  split?: Split | undefined
  /** Also read archived runs and runs of archived judges (left out by default). */
  includeArchived?: boolean | undefined
  /** Keep only these judges (source ids: `run:3`, `model:<name>`, `panel`); people and criteria always stay. */
  sources?: readonly string[] | undefined
  /** hypothesis-match: the cross-company panel's members (judge names, `run:<id>`, `model:<name>`); the sources' default otherwise. */
  panel?: readonly string[] | undefined
}

interface ScopedItem {
  row: { id: number; kind: ItemKind; external_id: string; set_name: string; split: Split }
  payload: Record<string, unknown>
}

/**
 * Reads everything the audit compares for one instrument: the items in scope, every annotator, imported model and
 * reference answers, adjudications, each judge run's calls, the items' own reference labels, the cross-company panel
 * (hypothesis-match) and, for pairwise verdicts, the human flaw audits of the same pairs. Nothing is written.
 */
export function gatherReportInput(db: Db, options: GatherOptions): ReportInput {
  if (!isInstrumentId(options.instrument)) throw new AssayError('invalid_input', unknownInstrumentMessage(options.instrument))
  // One read transaction: every table is read from one state of the project, even while a run writes calls.
  return db.transaction(() => gatherIn(db, getInstrument(options.instrument), options))()
}

function gatherIn(db: Db, instrument: AnyInstrument, options: GatherOptions): ReportInput {
  const scoped = scopedItems(db, instrument, options.split)
  const exposures = exposuresByItem(db)
  const items: ReportItem[] = scoped.map(({ row, payload }) => ({
    id: row.id,
    externalId: row.external_id,
    set: row.set_name,
    split: row.split,
    exposures: exposures.get(row.id) ?? [],
    ...(row.kind === 'proposal-pair' ? { pair: pairFacts(payload as ProposalPair) } : {}),
    ...generatedIdeaOf(row.kind, payload)
  }))
  const payloads = new Map(scoped.map((s) => [s.row.id, s.payload]))
  const versions = new Set<number>()

  const sources: ReportSourceInput[] = []
  const probes = probeFacts(db)
  // A probe's expected verdict is a label only once its check verified the planted change, as the probes section counts.
  const unverifiedProbes = new Set(probes.filter((p) => p.status !== 'verified').map((p) => p.itemId))
  sources.push(...itemLabelSources(instrument, scoped, unverifiedProbes))
  sources.push(...annotationSources(db, instrument, payloads, versions))
  const adjudicated = adjudicationSource(db, instrument, payloads)
  if (adjudicated) sources.push(adjudicated)
  sources.push(...runSources(db, instrument, payloads, options.includeArchived ?? false))
  const panel = instrument.id === 'hypothesis-match' ? panelSourceInput(sources, payloads, options.panel) : null
  if (panel?.source) sources.push(panel.source)
  const allFits = listFits(db, instrument.id)
  const chosen = options.sources ? keepJudges(sources, allFits, options.sources) : { fits: allFits, notChosen: {} }

  const flawAudits = instrument.itemKind === 'proposal-pair' && instrument.id !== 'flaw-audit' ? humanFlawAudits(db, payloads) : []
  // Judges asked the flaw audit itself on the same pairs, shown beside the verdicts' fatal-flaw recall.
  const judgeFlawAudits = flawAudits.length
    ? runSources(db, getInstrument('flaw-audit'), payloads, options.includeArchived ?? false).flatMap((s) =>
        s.calls.map((c) => ({ sourceId: s.id, name: s.name, itemId: c.itemId, observations: c.status === 'ok' ? c.observations : [], status: c.status }))
      )
    : []
  return {
    project: { name: getMeta(db, 'name') ?? '', id: getMeta(db, 'project_id') ?? '' },
    instrument: { id: instrument.id, title: instrument.title, itemKind: instrument.itemKind, versions: [...versions].sort((a, b) => a - b), fields: instrument.fields },
    split: options.split ?? 'all',
    items,
    sources,
    flawAudits,
    ...(judgeFlawAudits.length ? { judgeFlawAudits } : {}),
    panelRule: panel?.rule ?? null,
    fits: chosen.fits,
    ...(Object.keys(chosen.notChosen).length ? { notChosen: chosen.notChosen } : {}),
    workedChecks: instrument.id === 'flaw-audit' || flawAudits.length > 0 ? workedCheckCounts(db, payloads) : null,
    probes,
    // The answers in columns, below the report and the calibration alike.
    frame: ReportFrame.of(sources, comparableFields(instrument.fields))
  }
}

/** Provenance of the worked checks in the current flaw audits of the items in scope (see checks/verify.ts). */
function workedCheckCounts(db: Db, payloads: ReadonlyMap<number, unknown>): WorkedCheckCounts | null {
  const judgements = currentAnswers(db, 'flaw-audit')
    .filter((a) => payloads.has(a.item_id))
    .map((a) => JSON.parse(a.judgement) as unknown)
  const counts = countCheckProvenance(judgements)
  return counts.verified + counts.mismatch + counts.unverified + counts.unrecorded > 0 ? counts : null
}

function scopedItems(db: Db, instrument: AnyInstrument, split: Split | undefined): ScopedItem[] {
  const rows = itemRowsOfKind(db, instrument.itemKind, split)
  const out: ScopedItem[] = []
  for (const row of rows) {
    // With the kind's defaults the instruments rely on; the attached task survives (loose objects).
    const payload = payloadAsRead(row.kind, payloadWithContext(db, row))
    if (instrument.accepts && !instrument.accepts(payload as never)) continue
    // A grader is asked only of items carrying a response: a problem without one is nothing it could grade.
    if (instrument.grades && !hasGradedText(payload, instrument.grades)) continue
    out.push({ row: { id: row.id, kind: row.kind, external_id: row.external_id, set_name: row.set_name, split: row.split }, payload })
  }
  return out
}

function exposuresByItem(db: Db): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const r of exposureRows(db)) {
    const list = out.get(r.item_id)
    if (list) list.push(r.kind)
    else out.set(r.item_id, [r.kind])
  }
  return out
}

function generatedIdeaOf(kind: string, payload: Record<string, unknown>): { generatedIdea?: GeneratedIdeaFacts } {
  const facts = kind === 'idea' ? generatedIdeaFacts(payload) : null
  return facts ? { generatedIdea: facts } : {}
}

function pairFacts(pair: ProposalPair): PairFacts {
  const side = (p: ProposalPair['a']) => ({
    origin: p.origin ?? null,
    system: p.generator ?? (p.origin === 'human' ? 'human' : null)
  })
  return {
    unit: pair.pair_id,
    label: pair.label ?? null,
    labelSource: pair.label_source ?? null,
    a: side(pair.a),
    b: side(pair.b),
    cohort: pair.cohort ?? null,
    probe: pair.probe ?? null
  }
}

/** A source being read: its facts, its calls written as rows, and how many stored answers no longer validate. */
interface SourceBeingRead {
  head: Omit<ReportSourceInput, 'calls'>
  rows: CallRows
  invalid: number
}

function beingRead(head: Omit<ReportSourceInput, 'calls'>): SourceBeingRead {
  return { head, rows: new CallRows(), invalid: 0 }
}

/** The sources read, each with its count of stored answers that no longer validate (where `counted`). */
function sourcesRead(read: Iterable<SourceBeingRead>, counted: boolean): ReportSourceInput[] {
  const out: ReportSourceInput[] = []
  for (const { head, rows, invalid } of read) out.push(sourceOfRows(counted ? { ...head, detail: { ...head.detail, n_invalid_stored: invalid } } : head, rows))
  return out
}

/** The items' own reference labels (see referenceLabel: a proposal pair's `label`), one source per label source. */
function itemLabelSources(instrument: AnyInstrument, scoped: readonly ScopedItem[], unverifiedProbes: ReadonlySet<number>): ReportSourceInput[] {
  if (instrument.id === 'preprint-same-study') return sameStudyLabelSources(scoped)
  if (instrument.itemKind !== 'proposal-pair' || !instrument.fields.some((f) => f.name === 'verdict')) return []
  const bySource = new Map<string, SourceBeingRead>()
  const reader = new JudgementReader(instrument)
  for (const { row, payload } of scoped) {
    const label = referenceLabel(row.kind, payload)
    if (typeof label !== 'string' || unverifiedProbes.has(row.id)) continue
    addAnswer(labelSourceOf(bySource, payload).rows, instrument, row.id, payload, JSON.stringify({ verdict: label }), null, 'ok', 0, 0, reader)
  }
  return sourcesRead(bySource.values(), false)
}

/** The reference-label source of an item's payload (one per `label_source`), made on first use. */
function labelSourceOf(bySource: Map<string, SourceBeingRead>, payload: Record<string, unknown>): SourceBeingRead {
  const labelSource = typeof payload.label_source === 'string' && payload.label_source ? payload.label_source : null
  const key = labelSource ?? ''
  let source = bySource.get(key)
  if (!source) {
    source = beingRead({
      id: labelSource ? `label:${labelSource}` : 'label',
      kind: 'item_label',
      name: labelSource ? `Reference label (${labelSource})` : 'Reference label',
      detail: { label_source: labelSource }
    })
    bySource.set(key, source)
  }
  return source
}

/**
 * A preprint pair's reference label, its own `same_study` (imported with the pairs): the criterion the check's
 * verdicts and probabilities are scored on. It answers only that question, so it is observed directly rather than as
 * a whole judgement.
 */
function sameStudyLabelSources(scoped: readonly ScopedItem[]): ReportSourceInput[] {
  const bySource = new Map<string, SourceBeingRead>()
  for (const { row, payload } of scoped) {
    const sameStudy = referenceLabel(row.kind, payload)
    if (typeof sameStudy !== 'boolean') continue
    labelSourceOf(bySource, payload).rows.add(row.id, 0, 0, 0, OK, [{ unit: 'pair', values: { same_study: sameStudy } }])
  }
  return sourcesRead(bySource.values(), false)
}

function annotationSources(db: Db, instrument: AnyInstrument, payloads: ReadonlyMap<number, Record<string, unknown>>, versions: Set<number>): ReportSourceInput[] {
  const pseudonyms = annotatorPseudonyms(db)
  const bySource = new Map<string, SourceBeingRead>()
  const trials = new Map<string, number>()
  const reader = new JudgementReader(instrument)
  for (const a of currentAnswers(db, instrument.id)) {
    const payload = payloads.get(a.item_id)
    if (!payload) continue
    versions.add(a.instrument_version)
    const { id, kind, name } = annotationSourceOf(a, pseudonyms)
    let source = bySource.get(id)
    if (!source) bySource.set(id, (source = beingRead({ id, kind, name, detail: { source_kind: a.source_kind, origin: a.origin } })))
    // Several current answers of one source on one item (imports of repeated runs) are its trials.
    const trialKey = `${id}\u0000${a.item_id}`
    const trial = trials.get(trialKey) ?? 0
    trials.set(trialKey, trial + 1)
    if (addAnswer(source.rows, instrument, a.item_id, payload, a.judgement, a.display, 'ok', trial, 0, reader)) source.invalid++
  }
  return sourcesRead(bySource.values(), true)
}

function annotationSourceOf(a: AnswerRow, pseudonyms: ReadonlyMap<number, string>): Pick<ReportSourceInput, 'id' | 'kind' | 'name'> {
  if (a.source_kind === 'human') {
    // Reports name annotators by pseudonym: tables and plots end up in papers.
    const name = (a.annotator_id !== null ? pseudonyms.get(a.annotator_id) : undefined) ?? a.source_name
    return { id: `annotator:${name}`, kind: 'annotator', name }
  }
  if (a.source_kind === 'model') return { id: `model:${a.source_name}`, kind: 'model_import', name: a.source_name }
  return { id: `reference:${a.source_name}`, kind: 'reference_import', name: `Reference (${a.source_name})` }
}

/** The latest adjudication of each item: the head of its revision chain. */
function adjudicationSource(db: Db, instrument: AnyInstrument, payloads: ReadonlyMap<number, Record<string, unknown>>): ReportSourceInput | null {
  const rows = currentAdjudicationRows(db, instrument.id)
  const source = beingRead({ id: 'adjudicated', kind: 'adjudicated', name: 'Adjudicated label', detail: {} })
  const reader = new JudgementReader(instrument)
  const seen = new Set<number>()
  for (const r of rows) {
    const payload = payloads.get(r.item_id)
    if (!payload || seen.has(r.item_id)) continue
    seen.add(r.item_id)
    if (addAnswer(source.rows, instrument, r.item_id, payload, r.judgement, null, 'ok', 0, 0, reader)) source.invalid++
  }
  return source.rows.length ? (sourcesRead([source], true)[0] as ReportSourceInput) : null
}

/**
 * The source filter: judges not listed are dropped, people and criteria stay (they are what a judge is scored
 * against). A fit is chosen by its id (`fit:<id>`; a few-shot fit by its run); a chosen fit keeps the judge it is made
 * from, which is read for it and listed as not chosen when it is not chosen itself. An id that names no judge or fit
 * of this report is an error, so a typo does not silently empty the report.
 */
function keepJudges(sources: ReportSourceInput[], fits: readonly StoredFit[], keep: readonly string[]): { fits: StoredFit[]; notChosen: Record<string, string> } {
  const fitId = (f: StoredFit) => (f.parameters.kind === 'few-shot' ? `run:${f.parameters.run_id}` : `fit:${f.id}`)
  const judgeIds = new Set([...sources.filter((s) => JUDGE_KINDS.has(s.kind)).map((s) => s.id), ...fits.map(fitId)])
  const unknown = keep.filter((id) => !judgeIds.has(id))
  if (unknown.length) {
    throw new AssayError('invalid_input', `No judge source ${unknown.map((id) => `"${id}"`).join(', ')} in this report; judges: ${[...judgeIds].join(', ') || 'none'}`)
  }
  const wanted = new Set(keep)
  const keptFits = fits.filter((f) => wanted.has(fitId(f)))
  const notChosen: Record<string, string> = {}
  for (const f of keptFits) {
    if (wanted.has(f.spec.source)) continue
    notChosen[f.spec.source] = `not among the judges chosen; read only as the raw judge of ${fitId(f) === `fit:${f.id}` ? `fit ${f.id}` : `the few-shot fit ${f.id}`}`
  }
  for (let i = sources.length - 1; i >= 0; i--) {
    const s = sources[i] as ReportSourceInput
    // The panel stays: its members are chosen on their own (`panel`), and it is the benchmark's outcome.
    if (JUDGE_KINDS.has(s.kind) && s.kind !== 'panel' && !wanted.has(s.id) && !(s.id in notChosen)) sources.splice(i, 1)
  }
  return { fits: keptFits, notChosen }
}

/** Each judge run is a source of its own: its calls, one per item, trial and display order. */
function runSources(db: Db, instrument: AnyInstrument, payloads: ReadonlyMap<number, Record<string, unknown>>, includeArchived: boolean): ReportSourceInput[] {
  const runs = reportRunRows(db, instrument.id, includeArchived).sort((a, b) => a.run_id - b.run_id)
  // The run's facts are read once above; its calls come as columns and are written straight into its rows.
  const out: SourceBeingRead[] = []
  const reader = new JudgementReader(instrument)
  for (const run of runs) {
    const source = beingRead(runHead(run))
    for (const calls of runCallColumns(db, run.run_id)) {
      const { item, trial, order, status, display, judgement } = calls
      for (let c = 0; c < item.length; c++) {
        const itemId = item[c] as number
        const payload = payloads.get(itemId)
        if (!payload) continue
        if (addAnswer(source.rows, instrument, itemId, payload, judgement[c] as string | null, display[c] as string, status[c] as CallStatus, trial[c] as number, order[c] as number, reader)) source.invalid++
      }
    }
    // The status the runs lists show (a finished run with no answer is failed or no answer, not done), on its calls here.
    source.head.detail.run_status = runStatusShown({ status: run.run_status, active: !run.interrupted, counts: statusCounts(source.rows) }).status
    // A run with no call on the items in scope is not a source of this report.
    if (source.rows.length) out.push(source)
  }
  return sourcesRead(out, true)
}

/** Calls by status as the runs lists count them (an abstention is an answer), from the rows read. */
function statusCounts(rows: CallRows): { total: number; pending: number; ok: number; unparseable: number; failed: number } {
  const counts = { total: 0, pending: 0, ok: 0, unparseable: 0, failed: 0 }
  for (const code of rows.columns().status) {
    const status = CALL_STATUSES[code] as CallStatus
    counts.total++
    counts[status === 'abstained' ? 'ok' : status]++
  }
  return counts
}

/** A run's facts as its source tells them (its status is set once its calls are read). */
function runHead(r: ReportRunRow): Omit<ReportSourceInput, 'calls'> {
  const company = companyOf({ provider: r.provider as ProviderKind, model: r.model, ...(r.company ? { company: r.company } : {}), ...(r.base_url ? { baseUrl: r.base_url } : {}) })
  return {
    id: `run:${r.run_id}`,
    kind: 'judge_run',
    name: `${r.judge} · run ${r.run_id}`,
    detail: {
      run_id: r.run_id,
      judge: r.judge,
      provider: r.provider,
      model: r.model,
      company,
      template: `${r.template_id}@${r.template_version}`,
      trials: r.trials,
      both_orders: r.both_orders === 1,
      // Its place among the facts; the status shown is written once the calls are read (runSources).
      run_status: r.run_status,
      // Only read with includeArchived; marked so that tables and cards can say so.
      ...(r.archived ? { archived: true } : {})
    }
  }
}

/** Human flaw audits of the same pairs (current answers), for fatal-flaw recall. */
function humanFlawAudits(db: Db, payloads: ReadonlyMap<number, Record<string, unknown>>): FlawAuditInput[] {
  const flaws = getInstrument('flaw-audit')
  const out: FlawAuditInput[] = []
  for (const a of currentAnswers(db, 'flaw-audit')) {
    if (a.source_kind !== 'human') continue
    const payload = payloads.get(a.item_id)
    if (!payload) continue
    const answer = readAnswer(flaws, payload, a.judgement, 'ok')
    if (answer.status === 'ok') out.push({ sourceId: `annotator:${a.annotator_id ?? a.source_name}`, itemId: a.item_id, observations: answer.observations })
  }
  return out
}
