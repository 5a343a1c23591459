import type { z } from 'zod'
import { getInstrument, isInstrumentId, type AnyInstrument } from '../../../shared/instruments'
import type { ItemKind } from '../../../shared/items/kinds'
import { getItemByExternalId } from '../../store/items'
import { asObject, Problems, text } from '../fields'
import { JUDGEMENT_COLUMN_PREFIX, LABEL_META_COLUMNS, SOURCE_KINDS, type SourceKind } from '../label-columns'
import { isRecord, type ReadResult } from '../read-records'
import { emptyParsed, type AnnotationDraft, type ImportContext, type ParsedImport } from '../types'

/**
 * Human labels or judge outputs made elsewhere (layout in label-columns.ts). Each answer is validated against its
 * instrument's judgement schema and stored in `annotations` (`origin='import'`): a human source becomes an annotator,
 * a model keeps its name as `source_name`. Rows naming a `unit` (a hypothesis of a set, a forecast) are gathered
 * per (item, instrument, source) into the instrument's unit list, e.g. `{scores: [{id: unit, ...}]}`.
 * The instrument's item checks (exact quotes, coverage of units) are reported as warnings: the answer was given
 * elsewhere and is kept as given.
 */

interface LabelRow {
  line: number
  item: string
  unit: string | undefined
  instrument: AnyInstrument
  source: string
  sourceKind: SourceKind
  /** The judgement (of the unit, when `unit` is set). */
  judgement: Record<string, unknown>
  /** CSV: each judgement path's raw cell, to fall back to where a field wants text. */
  rawCells: Map<string, string> | null
  version: number
  createdAt: string | null
  activeMs: number | null
  display: Record<string, unknown>
}

interface UnitsField {
  field: string
  idField: string
}

const META = new Set<string>(LABEL_META_COLUMNS)

export async function parseLabels(ctx: ImportContext, read: ReadResult): Promise<ParsedImport> {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const csv = read.container === 'csv' || read.container === 'tsv'
  const rows: LabelRow[] = []
  for (const rec of read.records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const parsed = readRow(row, rec.line, csv, problems)
    if (parsed) rows.push(parsed)
  }

  // Group unit rows of one answer; other rows are answers by themselves. Order follows the file.
  const groups = new Map<string, LabelRow[]>()
  const answers: LabelRow[][] = []
  for (const r of rows) {
    if (r.unit === undefined) {
      answers.push([r])
      continue
    }
    const units = unitsFieldOf(r.instrument)
    if (!units) {
      problems.error(r.line, 'unit', `instrument ${r.instrument.id} has no units; leave unit empty`)
      continue
    }
    const key = [r.item, r.instrument.id, r.sourceKind, r.source].join('\u0000')
    const group = groups.get(key)
    if (group) group.push(r)
    else {
      const fresh = [r]
      groups.set(key, fresh)
      answers.push(fresh)
    }
  }

  const itemCache = new Map<string, { id: number; payload: Record<string, unknown> } | null>()
  const bySource: Record<string, number> = {}
  const byInstrument: Record<string, number> = {}
  for (const group of answers) {
    const first = group[0]!
    const inst = first.instrument
    const item = findItem(ctx, inst.itemKind, first.item, itemCache)
    if (!item) {
      problems.error(first.line, 'item', `no ${inst.itemKind} "${first.item}" in the project`)
      continue
    }
    if (inst.accepts && !inst.accepts(item.payload as never)) {
      problems.error(first.line, 'instrument', `instrument ${inst.id} does not apply to ${first.item}`)
      continue
    }
    const judgement = validate(group, csv, problems)
    if (judgement === null) continue
    try {
      for (const issue of inst.check(judgement, item.payload as never)) problems.warn(first.line, fieldOf(issue.path, csv), issue.message)
    } catch (e) {
      problems.warn(first.line, undefined, `the ${inst.id} checks could not run on this item: ${(e as Error).message}`)
    }
    const draft: AnnotationDraft = {
      itemId: item.id,
      itemExternalId: first.item,
      instrumentId: inst.id,
      instrumentVersion: first.version,
      sourceKind: first.sourceKind,
      sourceName: first.source,
      judgement,
      display: first.display,
      activeMs: first.activeMs,
      createdAt: first.createdAt,
      line: first.line
    }
    out.annotations.push(draft)
    const who = `${first.sourceKind}:${first.source}`
    bySource[who] = (bySource[who] ?? 0) + 1
    byInstrument[inst.id] = (byInstrument[inst.id] ?? 0) + 1
  }
  out.summary = { labels: out.annotations.length, bySource, byInstrument }
  return out
}

function readRow(row: Record<string, unknown>, line: number, csv: boolean, problems: Problems): LabelRow | null {
  let ok = true
  const need = (key: string): string | undefined => {
    const v = text(row, key)
    if (v === undefined) {
      problems.error(line, key, `missing ${key}`)
      ok = false
    }
    return v
  }
  const item = need('item')
  const instrumentId = need('instrument')
  const source = need('source')
  const sourceKind = need('source_kind')
  let instrument: AnyInstrument | undefined
  if (instrumentId !== undefined) {
    if (isInstrumentId(instrumentId)) instrument = getInstrument(instrumentId)
    else {
      problems.error(line, 'instrument', `unknown instrument "${instrumentId}"`)
      ok = false
    }
  }
  if (sourceKind !== undefined && !(SOURCE_KINDS as ReadonlyArray<string>).includes(sourceKind)) {
    problems.error(line, 'source_kind', `source_kind must be one of ${SOURCE_KINDS.join(', ')}, found "${sourceKind}"`)
    ok = false
  }
  const version = readVersion(row, instrument, line, problems)
  const createdAt = readTimestamp(row, line, problems)
  const activeMs = readActiveMs(row, line, problems)
  const display = readDisplay(row, line, problems)
  const judgement = csv ? judgementFromColumns(row) : judgementFromJson(row, line, problems)
  if (!ok || !instrument || version === false || createdAt === false || activeMs === false || display === false || !judgement) return null
  return {
    line,
    item: item!,
    unit: text(row, 'unit'),
    instrument,
    source: source!,
    sourceKind: sourceKind as SourceKind,
    judgement: judgement.value,
    rawCells: judgement.raw,
    version,
    createdAt,
    activeMs,
    display
  }
}

function judgementFromJson(row: Record<string, unknown>, line: number, problems: Problems): { value: Record<string, unknown>; raw: null } | null {
  let j = row.judgement
  if (typeof j === 'string') {
    try {
      j = JSON.parse(j)
    } catch {
      problems.error(line, 'judgement', 'judgement is a string that is not JSON')
      return null
    }
  }
  if (!isRecord(j)) {
    problems.error(line, 'judgement', j === undefined ? 'missing judgement' : 'judgement must be an object')
    return null
  }
  return { value: j, raw: null }
}

/**
 * A CSV row's judgement: every non-provenance column, dotted names nested. Cells are coerced (numbers, true/false,
 * null, JSON lists and objects); the raw text is kept so a field that wants text gets what was written.
 */
export function judgementFromColumns(row: Record<string, unknown>): { value: Record<string, unknown>; raw: Map<string, string> } {
  const value: Record<string, unknown> = {}
  const raw = new Map<string, string>()
  for (const [column, cell] of Object.entries(row)) {
    const name = column.startsWith(JUDGEMENT_COLUMN_PREFIX) ? column.slice(JUDGEMENT_COLUMN_PREFIX.length) : column
    if (!column.startsWith(JUDGEMENT_COLUMN_PREFIX) && META.has(column)) continue
    if (typeof cell !== 'string') continue
    // An empty cell is an absent field, unless the field wants text (then it is the empty string).
    raw.set(name, cell)
    if (cell !== '') setPath(value, name.split('.'), coerceCell(cell))
  }
  return { value, raw }
}

export function coerceCell(cell: string): unknown {
  const t = cell.trim()
  if (t === 'true' || t === 'TRUE' || t === 'True') return true
  if (t === 'false' || t === 'FALSE' || t === 'False') return false
  if (t === 'null') return null
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t)
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    try {
      return JSON.parse(t)
    } catch {
      return cell
    }
  }
  return cell
}

function setPath(target: Record<string, unknown>, path: string[], v: unknown): void {
  let node = target
  path.slice(0, -1).forEach((k) => {
    if (!isRecord(node[k])) node[k] = {}
    node = node[k] as Record<string, unknown>
  })
  node[path[path.length - 1]!] = v
}

/** Assembles the answer (units gathered) and validates it; falls back to raw text where a CSV field wants text. */
function validate(group: LabelRow[], csv: boolean, problems: Problems): unknown | null {
  const first = group[0]!
  const units = first.unit !== undefined ? unitsFieldOf(first.instrument) : null
  const topLevel = units ? topLevelKeys(first.instrument, units) : new Set<string>()
  // Fields of the whole answer (e.g. a protocol name) sit on every unit row; the first row's are used.
  const assemble = (rows: LabelRow[]): Record<string, unknown> => {
    if (!units) return { ...rows[0]!.judgement }
    const whole: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(rows[0]!.judgement)) if (topLevel.has(k)) whole[k] = v
    whole[units.field] = rows.map((r) => ({
      ...Object.fromEntries(Object.entries(r.judgement).filter(([k]) => !topLevel.has(k))),
      [units.idField]: r.unit
    }))
    return whole
  }
  const schema = first.instrument.judgement as z.ZodType
  let candidate = assemble(group)
  let result = schema.safeParse(candidate)
  if (!result.success && csv) {
    const retyped = group.map((r) => ({ ...r, judgement: structuredClone(r.judgement) }))
    let changed = false
    for (const issue of result.error.issues) {
      if (issue.code !== 'invalid_type' || issue.expected !== 'string') continue
      const at = locate(issue.path, units, retyped)
      const rawText = at?.row.rawCells?.get(at.path.join('.'))
      if (at && rawText !== undefined) {
        setPath(at.row.judgement, at.path, rawText)
        changed = true
      }
    }
    if (changed) {
      candidate = assemble(retyped)
      result = schema.safeParse(candidate)
    }
  }
  if (result.success) return result.data
  for (const issue of result.error.issues) {
    const at = locate(issue.path, units, group)
    const line = at?.row.line ?? first.line
    const path = at ? at.path.join('.') : issue.path.map(String).join('.')
    problems.error(line, csv ? path || undefined : ['judgement', path].filter(Boolean).join('.'), issue.message)
  }
  return null
}

/** Maps a path in the assembled answer back to the row (for unit lists) and the path within that row. */
function locate(path: ReadonlyArray<PropertyKey>, units: UnitsField | null, rows: LabelRow[]): { row: LabelRow; path: string[] } | null {
  const parts = path.map(String)
  if (!units) return rows[0] ? { row: rows[0], path: parts } : null
  if (parts[0] !== units.field || parts.length < 2) return rows[0] ? { row: rows[0], path: parts } : null
  const row = rows[Number(parts[1])]
  return row ? { row, path: parts.slice(2) } : null
}

/** Top-level fields of an instrument's answer other than its unit list, read from the zod object shape. */
function topLevelKeys(inst: AnyInstrument, units: UnitsField): Set<string> {
  const shape = (inst.judgement as unknown as { shape?: Record<string, unknown> }).shape
  return new Set(shape ? Object.keys(shape).filter((k) => k !== units.field) : [])
}

export function unitsFieldOf(inst: AnyInstrument): UnitsField | null {
  for (const w of inst.form.widgets) if (w.kind === 'units') return { field: w.field, idField: w.unitIdField }
  return null
}

function findItem(
  ctx: ImportContext,
  kind: ItemKind,
  externalId: string,
  cache: Map<string, { id: number; payload: Record<string, unknown> } | null>
): { id: number; payload: Record<string, unknown> } | null {
  const key = `${kind}\u0000${externalId}`
  if (!cache.has(key)) {
    const row = getItemByExternalId(ctx.db, kind, externalId)
    cache.set(key, row ? { id: row.id, payload: JSON.parse(row.payload) as Record<string, unknown> } : null)
  }
  return cache.get(key)!
}

function fieldOf(path: string, csv: boolean): string {
  return csv ? path : path ? `judgement.${path}` : 'judgement'
}

function readVersion(row: Record<string, unknown>, inst: AnyInstrument | undefined, line: number, problems: Problems): number | false {
  const current = inst?.version ?? 1
  const raw = row.instrument_version
  if (raw === undefined || raw === null || raw === '') return current
  const v = Number(raw)
  if (!Number.isInteger(v) || v < 1) {
    problems.error(line, 'instrument_version', `instrument_version must be a whole number ≥ 1, found ${JSON.stringify(raw)}`)
    return false
  }
  if (v > current) {
    problems.error(line, 'instrument_version', `answered version ${v} of ${inst?.id}, newer than this Assay's version ${current}`)
    return false
  }
  if (v < current) problems.warn(line, 'instrument_version', `answered version ${v} of ${inst?.id} (current ${current}); the answer keeps version ${v}`)
  return v
}

function readTimestamp(row: Record<string, unknown>, line: number, problems: Problems): string | null | false {
  const raw = text(row, 'created_at')
  if (raw === undefined) return null
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) || Number.isNaN(Date.parse(raw))) {
    problems.error(line, 'created_at', `created_at must be an ISO 8601 time, found "${raw}"`)
    return false
  }
  return raw
}

function readActiveMs(row: Record<string, unknown>, line: number, problems: Problems): number | null | false {
  const raw = row.active_ms
  if (raw === undefined || raw === null || raw === '') return null
  const v = Number(raw)
  if (!Number.isInteger(v) || v < 0) {
    problems.error(line, 'active_ms', `active_ms must be a whole number of milliseconds, found ${JSON.stringify(raw)}`)
    return false
  }
  return v
}

function readDisplay(row: Record<string, unknown>, line: number, problems: Problems): Record<string, unknown> | false {
  let raw = row.display
  if (raw === undefined || raw === null || raw === '') return {}
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw)
    } catch {
      raw = undefined
    }
  }
  if (!isRecord(raw)) {
    problems.error(line, 'display', 'display must be a JSON object')
    return false
  }
  return raw
}
