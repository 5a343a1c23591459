import { basename, resolve } from 'node:path'
import { AssayError } from '../../shared/errors'
import { getInstrument, isInstrumentId, unknownInstrumentMessage } from '../../shared/instruments'
import type { FinalLabelRecord } from '../adjudication/final-labels'
import { unitsFieldOf } from '../import/formats/labels'
import { LABEL_META_COLUMNS } from '../import/label-columns'
import { logExposure } from '../store/exposures'
import type { Project } from '../store/project'
import { buildCard } from './card'
import {
  exposuresOf,
  readFinals,
  readJudgements,
  readLabels,
  type CardRow,
  type ExportFilter,
  type FinalCardRow,
  type FinalRead,
  type JudgementRecord,
  type LabelRecord
} from './rows'
import { checkOutputPath, writeOutputFiles } from '../files/output-file'
import { cardPathFor, flattenForCsv, toCsv, toJsonl, type ExportFormat } from '../files/table'

export type { ExportFormat, ExportFilter, LabelRecord, JudgementRecord, FinalLabelRecord }
import { EXPORT_KINDS, type ExportKind } from './kinds'
export { EXPORT_KINDS, type ExportKind }

export interface ExportOptions extends ExportFilter {
  out: string
  /** Default: csv when `out` ends in .csv, else jsonl. */
  format?: ExportFormat
  /** Human sources as annotator pseudonyms (A01…) instead of names. */
  pseudonymise?: boolean
  /** Replace existing files at `out` and its card (never an SQLite file or the project itself). */
  force?: boolean
  /** CSV cells starting with `=`, `+`, `-`, `@`, tab or CR are written verbatim instead of escaped. */
  rawCells?: boolean
}

export interface ExportResult {
  what: ExportKind
  path: string
  cardPath: string
  format: ExportFormat
  /** Answers or model calls written (CSV label files may hold one line per unit; this counts answers). */
  rows: number
  /** Final labels written beside the answers (labels only). */
  finals: number
  items: number
}

/**
 * Writes labels (current human and imported answers, and each item's final label after its answers) or judgements
 * (finished model calls) with a dataset card beside them. Test-split items in the export are logged as exposed
 * (`exported`), after the card has listed the exposures that came before.
 */
export function exportData(project: Project, what: ExportKind, opts: ExportOptions): ExportResult {
  const path = resolve(opts.out)
  const format: ExportFormat = opts.format ?? (path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl')
  // A declared instrument's id is known only with the project open: an unknown one is a usage error, as a flag is.
  if (opts.instrument !== undefined && !isInstrumentId(opts.instrument)) throw new AssayError('invalid_input', unknownInstrumentMessage(opts.instrument))
  const filter: ExportFilter = { set: opts.set, split: opts.split, instrument: opts.instrument }
  const pseudonymise = opts.pseudonymise ?? false
  const read = what === 'labels' ? readLabels(project.db, filter, pseudonymise) : readJudgements(project.db, filter)
  const finals: FinalRead = what === 'labels' ? readFinals(project.db, filter, pseudonymise) : { records: [], card: [] }
  const card: CardRow[] = read.card
  const labelRecords = what === 'labels' ? withFinals(read.records as LabelRecord[], card, finals) : []
  const content =
    format === 'jsonl'
      ? toJsonl(what === 'labels' ? labelRecords : read.records)
      : what === 'labels'
        ? labelsCsv(labelRecords, opts.rawCells)
        : judgementsCsv(read.records as JudgementRecord[], opts.rawCells)
  const finalCard: FinalCardRow[] = finals.card
  const itemIds = new Set([...card.map((r) => r.itemId), ...finalCard.map((r) => r.itemId)])
  const exposures = exposuresOf(project.db, itemIds)
  const cardText = buildCard({
    what,
    projectName: project.meta('name') ?? basename(project.path),
    projectId: project.id,
    file: basename(path),
    format,
    filters: { set: opts.set, split: opts.split, instrument: opts.instrument },
    pseudonymised: pseudonymise,
    generatedAt: new Date().toISOString(),
    rows: card,
    finals: finalCard,
    exposures
  })
  const cardPath = cardPathFor(path)
  const testItems = [...new Set([...card, ...finalCard].filter((r) => r.split === 'test').map((r) => r.itemId))]
  if (testItems.length && project.readonly) {
    throw new AssayError(
      'conflict',
      `${project.path} is open read-only, so exporting its ${testItems.length} test-split item${testItems.length === 1 ? '' : 's'} could not be recorded in the exposure log; export with --split dev (or none), or make the file writable`
    )
  }
  const guard = { force: opts.force ?? false, protect: [project.path] }
  for (const target of [path, cardPath]) checkOutputPath(target, guard)
  // Logged before the files appear: a crash in between leaves an exposure on record rather than an unrecorded export.
  if (testItems.length) {
    project.write((db) => {
      for (const id of testItems) logExposure(db, id, 'exported', 'export', JSON.stringify({ what, file: basename(path) }))
    })
  }
  writeOutputFiles(
    [
      { path, content },
      { path: cardPath, content: cardText }
    ],
    guard
  )
  return { what, path, cardPath, format, rows: read.records.length, finals: finals.records.length, items: itemIds.size }
}

/** Answers in item and instrument order, each item's final label right after its answers to that instrument. */
function withFinals(answers: ReadonlyArray<LabelRecord>, card: ReadonlyArray<CardRow>, finals: FinalRead): Array<LabelRecord | FinalLabelRecord> {
  const out: Array<LabelRecord | FinalLabelRecord> = []
  const before = (f: FinalRead['records'][number], i: number) => {
    const c = card[i]!
    return f.itemId < c.itemId || (f.itemId === c.itemId && f.record.instrument < c.instrument)
  }
  let k = 0
  answers.forEach((a, i) => {
    while (k < finals.records.length && before(finals.records[k]!, i)) out.push(finals.records[k++]!.record)
    out.push(a)
  })
  while (k < finals.records.length) out.push(finals.records[k++]!.record)
  return out
}

const LABEL_LEADING = ['item', 'unit', 'instrument', 'source', 'source_kind'] as const

/**
 * One CSV line per answer, or per unit for instruments that answer per unit (a hypothesis, a forecast): the
 * unit's fields plus the answer's other fields. Provenance columns come first; `labels` import reads it back.
 */
export function labelsCsv(records: ReadonlyArray<LabelRecord | FinalLabelRecord>, rawCells = false): string {
  const meta = new Set<string>(LABEL_META_COLUMNS)
  const lines: Record<string, string>[] = []
  for (const r of records) {
    if (isFinal(r)) {
      lines.push(...unitLines(finalCells(r), r.instrument, r.judgement, meta))
      continue
    }
    const base: Record<string, string> = {
      ...labelIdentityCells(r),
      instrument_version: String(r.instrument_version),
      created_at: r.created_at,
      active_ms: r.active_ms === null ? '' : String(r.active_ms),
      revision: String(r.revision),
      origin: r.origin,
      annotation_id: r.annotation_id,
      canonical_label: r.canonical_label === null ? '' : String(r.canonical_label),
      display: JSON.stringify(r.display ?? {})
    }
    lines.push(...unitLines(base, r.instrument, (r.judgement ?? {}) as Record<string, unknown>, meta))
  }
  return toCsv(lines, LABEL_LEADING, rawCells)
}

/** The leading cells of every label line, answer or final: which item, instrument and source it is. */
function labelIdentityCells(r: LabelRecord | FinalLabelRecord): Record<string, string> {
  return { item: r.item, unit: '', instrument: r.instrument, source: r.source, source_kind: r.source_kind, item_kind: r.item_kind, set: r.set, split: r.split }
}

function isFinal(r: LabelRecord | FinalLabelRecord): r is FinalLabelRecord {
  return r.source_kind === 'final'
}

/** One line, or one per unit where the instrument answers per unit; null (a tied majority) is one line without fields. */
function unitLines(base: Record<string, string>, instrument: string, judgement: Record<string, unknown> | null, meta: ReadonlySet<string>): Record<string, string>[] {
  if (judgement === null) return [base]
  const units = isInstrumentId(instrument) ? unitsFieldOf(getInstrument(instrument)) : null
  const list = units ? judgement[units.field] : undefined
  if (!units || !Array.isArray(list) || !list.length) return [{ ...base, ...columns(judgement, meta) }]
  const { [units.field]: _units, ...whole } = judgement
  return (list as Record<string, unknown>[]).map((u) => {
    const { [units.idField]: unitId, ...fields } = u
    return { ...base, unit: String(unitId), ...columns({ ...whole, ...fields }, meta) }
  })
}

/** A final label's provenance cells; lists and per-field majorities as JSON, the curator's reason as `adjudication_reason`. */
function finalCells(r: FinalLabelRecord): Record<string, string> {
  const cell = (v: string | number | boolean | null) => (v === null ? '' : String(v))
  return {
    ...labelIdentityCells(r),
    created_at: cell(r.created_at),
    canonical_label: cell(r.canonical_label),
    final_from: r.final_from,
    majority: cell(r.majority),
    majority_values: r.majority_values === null ? '' : JSON.stringify(r.majority_values),
    n_answers: String(r.n_answers),
    n_agreeing: r.n_agreeing === null ? 'null' : String(r.n_agreeing),
    n_abstained: String(r.n_abstained),
    based_on: JSON.stringify(r.based_on),
    adjudication_id: cell(r.adjudication_id),
    curator: cell(r.curator),
    adjudication_reason: cell(r.reason),
    supersedes: cell(r.supersedes),
    stale_adjudication_id: cell(r.stale_adjudication_id)
  }
}

/** Judgement fields as columns; one that shares a name with a provenance column is written `judgement.<name>`. */
function columns(judgement: Record<string, unknown>, meta: ReadonlySet<string>): Record<string, string> {
  const flat = flattenForCsv(judgement)
  return Object.fromEntries(Object.entries(flat).map(([k, v]) => [meta.has(k.split('.')[0]!) ? `judgement.${k}` : k, v]))
}

const JUDGEMENT_LEADING = ['item', 'instrument', 'judge', 'run', 'trial', 'order_index', 'status'] as const

/** One CSV line per model call; the parsed judgement flattened into `judgement.<field>` columns. */
export function judgementsCsv(records: ReadonlyArray<JudgementRecord>, rawCells = false): string {
  const lines = records.map((r) => {
    const { judgement, display, ...rest } = r
    const flat: Record<string, string> = {}
    for (const [k, v] of Object.entries(rest)) flat[k] = v === null ? '' : String(v)
    flat.display = JSON.stringify(display ?? {})
    if (judgement && typeof judgement === 'object' && !Array.isArray(judgement)) {
      for (const [k, v] of Object.entries(flattenForCsv(judgement as Record<string, unknown>))) flat[`judgement.${k}`] = v
    }
    return flat
  })
  return toCsv(lines, JUDGEMENT_LEADING, rawCells)
}
