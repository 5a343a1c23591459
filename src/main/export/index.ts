import { basename, resolve } from 'node:path'
import { getInstrument, isInstrumentId } from '../../shared/instruments'
import { unitsFieldOf } from '../import/formats/labels'
import { LABEL_META_COLUMNS } from '../import/label-columns'
import { logExposure } from '../store/exposures'
import type { Project } from '../store/project'
import { buildCard } from './card'
import { exposuresOf, readJudgements, readLabels, type CardRow, type ExportFilter, type JudgementRecord, type LabelRecord } from './rows'
import { cardPathFor, flattenForCsv, toCsv, toJsonl, writeFileAtomic, type ExportFormat } from './table'

export type { ExportFormat, ExportFilter, LabelRecord, JudgementRecord }
export const EXPORT_KINDS = ['labels', 'judgements'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

export interface ExportOptions extends ExportFilter {
  out: string
  /** Default: csv when `out` ends in .csv, else jsonl. */
  format?: ExportFormat
  /** Human sources as annotator pseudonyms (A01…) instead of names. */
  pseudonymise?: boolean
}

export interface ExportResult {
  what: ExportKind
  path: string
  cardPath: string
  format: ExportFormat
  /** Records written (CSV label files may hold one line per unit; this counts answers). */
  rows: number
  items: number
}

/**
 * Writes labels (current human and imported answers) or judgements (finished model calls) with a dataset card
 * beside them. Test-split items in the export are logged as exposed (`exported`), after the card has listed the
 * exposures that came before.
 */
export function exportData(project: Project, what: ExportKind, opts: ExportOptions): ExportResult {
  const path = resolve(opts.out)
  const format: ExportFormat = opts.format ?? (path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl')
  const filter: ExportFilter = { set: opts.set, split: opts.split, instrument: opts.instrument }
  const pseudonymise = opts.pseudonymise ?? false
  const read = what === 'labels' ? readLabels(project.db, filter, pseudonymise) : readJudgements(project.db, filter)
  const content =
    format === 'jsonl'
      ? toJsonl(read.records)
      : what === 'labels'
        ? labelsCsv(read.records as LabelRecord[])
        : judgementsCsv(read.records as JudgementRecord[])
  const card: CardRow[] = read.card
  const itemIds = new Set(card.map((r) => r.itemId))
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
    exposures
  })
  writeFileAtomic(path, content)
  const cardPath = cardPathFor(path)
  writeFileAtomic(cardPath, cardText)
  const testItems = [...new Set(card.filter((r) => r.split === 'test').map((r) => r.itemId))]
  if (testItems.length) {
    project.write(() => {
      for (const id of testItems) logExposure(project.db, id, 'exported', 'export', JSON.stringify({ what, file: basename(path) }))
    })
  }
  return { what, path, cardPath, format, rows: read.records.length, items: itemIds.size }
}

const LABEL_LEADING = ['item', 'unit', 'instrument', 'source', 'source_kind'] as const

/**
 * One CSV line per answer, or per unit for instruments that answer per unit (a hypothesis, a forecast): the
 * unit's fields plus the answer's other fields. Provenance columns come first; `labels` import reads it back.
 */
export function labelsCsv(records: ReadonlyArray<LabelRecord>): string {
  const meta = new Set<string>(LABEL_META_COLUMNS)
  const lines: Record<string, string>[] = []
  for (const r of records) {
    const base: Record<string, string> = {
      item: r.item,
      unit: '',
      instrument: r.instrument,
      source: r.source,
      source_kind: r.source_kind,
      item_kind: r.item_kind,
      set: r.set,
      split: r.split,
      instrument_version: String(r.instrument_version),
      created_at: r.created_at,
      active_ms: r.active_ms === null ? '' : String(r.active_ms),
      revision: String(r.revision),
      origin: r.origin,
      annotation_id: r.annotation_id,
      canonical_label: r.canonical_label ?? '',
      display: JSON.stringify(r.display ?? {})
    }
    const judgement = (r.judgement ?? {}) as Record<string, unknown>
    const units = isInstrumentId(r.instrument) ? unitsFieldOf(getInstrument(r.instrument)) : null
    const list = units ? judgement[units.field] : undefined
    if (units && Array.isArray(list) && list.length) {
      const { [units.field]: _units, ...whole } = judgement
      for (const u of list as Record<string, unknown>[]) {
        const { [units.idField]: unitId, ...fields } = u
        lines.push({ ...base, unit: String(unitId), ...columns({ ...whole, ...fields }, meta) })
      }
    } else {
      lines.push({ ...base, ...columns(judgement, meta) })
    }
  }
  return toCsv(lines, LABEL_LEADING)
}

/** Judgement fields as columns; one that shares a name with a provenance column is written `judgement.<name>`. */
function columns(judgement: Record<string, unknown>, meta: ReadonlySet<string>): Record<string, string> {
  const flat = flattenForCsv(judgement)
  return Object.fromEntries(Object.entries(flat).map(([k, v]) => [meta.has(k.split('.')[0]!) ? `judgement.${k}` : k, v]))
}

const JUDGEMENT_LEADING = ['item', 'instrument', 'judge', 'run', 'trial', 'order_index', 'status'] as const

/** One CSV line per model call; the parsed judgement flattened into `judgement.<field>` columns. */
export function judgementsCsv(records: ReadonlyArray<JudgementRecord>): string {
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
  return toCsv(lines, JUDGEMENT_LEADING)
}
