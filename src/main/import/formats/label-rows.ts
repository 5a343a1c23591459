import { nameSchema } from '../../../shared/contract/annotation-schemas'
import { getInstrument, isInstrumentId, type AnyInstrument } from '../../../shared/instruments'
import { MAJORITY_OUTCOMES } from '../../adjudication/majority'
import { Problems, text } from '../fields'
import { numberCell } from '../numbers'
import { isCalendarTime } from '../timestamps'
import {
  FINAL_FROM,
  FINAL_SOURCE_KIND,
  JUDGEMENT_COLUMN_PREFIX,
  LABEL_META_COLUMNS,
  LABEL_SOURCE_KINDS,
  type FinalFromColumn,
  type LabelSourceKind
} from '../label-columns'
import { parseJsonChecked } from '../json-scan'
import { isRecord } from '../read-records'

// One line (JSONL) or row (CSV) of a labels file, read into a LabelRow: provenance checked, the judgement taken from
// the `judgement` object or from the judgement columns.

export interface LabelRow {
  line: number
  item: string
  unit: string | undefined
  instrument: AnyInstrument
  source: string
  sourceKind: LabelSourceKind
  /** The judgement (of the unit, when `unit` is set); null only for a final label without one (a tied majority). */
  judgement: Record<string, unknown> | null
  /** CSV: each judgement path's raw cell, to fall back to where a field wants text. */
  rawCells: Map<string, string> | null
  version: number
  createdAt: string | null
  activeMs: number | null
  display: Record<string, unknown>
  annotationId: string | undefined
  final: FinalColumns | null
}

/** What a final label's row says about where it came from. */
export interface FinalColumns {
  from: FinalFromColumn
  majority: string | undefined
  majorityValues: unknown
  nAnswers: number | null | undefined
  nAgreeing: number | null | undefined
  nAbstained: number | null | undefined
  basedOn: string[]
  adjudicationId: string | undefined
  curator: string | undefined
  reason: string | undefined
}

const META = new Set<string>(LABEL_META_COLUMNS)

export function readRow(row: Record<string, unknown>, line: number, csv: boolean, problems: Problems): LabelRow | null {
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
  if (sourceKind !== undefined && !(LABEL_SOURCE_KINDS as ReadonlyArray<string>).includes(sourceKind)) {
    problems.error(line, 'source_kind', `source_kind must be one of ${LABEL_SOURCE_KINDS.join(', ')}, found "${sourceKind}"`)
    ok = false
  }
  // A source becomes an annotator's or a judge's name: held to the rule every door holds names to.
  const named = source === undefined ? null : nameSchema.safeParse(source)
  if (named && !named.success) {
    problems.error(line, 'source', named.error.issues[0]?.message ?? 'not a name')
    ok = false
  }
  const isFinal = sourceKind === FINAL_SOURCE_KIND
  const final = isFinal ? readFinalColumns(row, line, csv, problems) : null
  const version = readVersion(row, instrument, line, problems)
  const createdAt = readTimestamp(row, line, problems)
  const activeMs = readActiveMs(row, line, problems)
  const display = readDisplay(row, line, problems)
  const judgement = csv ? judgementFromColumns(row) : judgementFromJson(row, line, problems, isFinal)
  if (!ok || !instrument || (isFinal && !final) || version === false || createdAt === false || activeMs === false || display === false || !judgement) return null
  // A final label's empty judgement (a tied majority) is no judgement.
  const value = judgement.value && (!isFinal || Object.keys(judgement.value).length) ? judgement.value : null
  if (!isFinal && !value) return null
  return {
    line,
    item: item!,
    unit: text(row, 'unit'),
    instrument,
    source: source!,
    sourceKind: sourceKind as LabelSourceKind,
    judgement: value,
    rawCells: judgement.raw,
    version,
    createdAt,
    activeMs,
    display,
    annotationId: isFinal ? undefined : text(row, 'annotation_id'),
    final
  }
}

/** The provenance columns of a final label; lists and objects may be JSON text (CSV). */
function readFinalColumns(row: Record<string, unknown>, line: number, csv: boolean, problems: Problems): FinalColumns | null {
  const from = text(row, 'final_from')
  if (!from || !(FINAL_FROM as ReadonlyArray<string>).includes(from)) {
    problems.error(line, 'final_from', `a final label needs final_from: ${FINAL_FROM.join(' or ')}${from ? `, found "${from}"` : ''}`)
    return null
  }
  let ok = true
  const majority = text(row, 'majority')
  if (majority !== undefined && !(MAJORITY_OUTCOMES as ReadonlyArray<string>).includes(majority)) {
    problems.error(line, 'majority', `majority must be one of ${MAJORITY_OUTCOMES.join(', ')}, found "${majority}"`)
    ok = false
  }
  const count = (key: string): number | null | undefined => {
    const raw = row[key]
    if (raw === undefined || raw === '') return undefined
    if (raw === null || raw === 'null') return null
    const v = Number(raw)
    if (!Number.isInteger(v) || v < 0) {
      problems.error(line, key, `${key} must be a whole number, found ${JSON.stringify(raw)}`)
      ok = false
      return undefined
    }
    return v
  }
  const basedOn = jsonCell(row.based_on)
  if (basedOn !== undefined && basedOn !== null && !(Array.isArray(basedOn) && basedOn.every((x) => typeof x === 'string'))) {
    problems.error(line, 'based_on', 'based_on must be a list of answer ids')
    ok = false
  }
  const values = jsonCell(row.majority_values)
  const result: FinalColumns = {
    from: from as FinalFromColumn,
    majority,
    majorityValues: values === '' ? undefined : values,
    nAnswers: count('n_answers'),
    nAgreeing: count('n_agreeing'),
    nAbstained: count('n_abstained'),
    basedOn: Array.isArray(basedOn) ? (basedOn as string[]) : [],
    adjudicationId: text(row, 'adjudication_id'),
    curator: text(row, 'curator'),
    reason: text(row, 'adjudication_reason') ?? (csv ? undefined : text(row, 'reason'))
  }
  return ok ? result : null
}

/** A JSON value, or JSON text in a CSV cell; undefined when absent or empty. */
function jsonCell(raw: unknown): unknown {
  if (raw === undefined || raw === '') return undefined
  if (typeof raw !== 'string') return raw
  const parsed = parseJsonChecked(raw)
  return parsed.ok ? parsed.value : raw
}

function judgementFromJson(row: Record<string, unknown>, line: number, problems: Problems, nullable: boolean): { value: Record<string, unknown> | null; raw: null } | null {
  let j = row.judgement
  if (nullable && (j === null || j === undefined)) return { value: null, raw: null }
  if (typeof j === 'string') {
    const parsed = parseJsonChecked(j)
    if (!parsed.ok) {
      problems.error(line, parsed.problem.field ? `judgement.${parsed.problem.field}` : 'judgement', `judgement is a string that is not acceptable JSON: ${parsed.problem.message}`)
      return null
    }
    j = parsed.value
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
  const n = numberCell(t)
  if (n !== undefined) return n
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    // Too deep, a repeated or forbidden key: kept as the text written, which the judgement's schema then refuses.
    const parsed = parseJsonChecked(t)
    return parsed.ok ? parsed.value : cell
  }
  return cell
}

export function setPath(target: Record<string, unknown>, path: string[], v: unknown): void {
  let node = target
  path.slice(0, -1).forEach((k) => {
    if (!isRecord(node[k])) node[k] = {}
    node = node[k] as Record<string, unknown>
  })
  node[path[path.length - 1]!] = v
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
  if (typeof row.created_at !== 'string' || !isCalendarTime(raw)) {
    problems.error(line, 'created_at', `created_at must be an ISO 8601 time of a real day, found ${JSON.stringify(row.created_at)}`)
    return false
  }
  return raw
}

function readActiveMs(row: Record<string, unknown>, line: number, problems: Problems): number | null | false {
  const raw = row.active_ms
  if (raw === undefined || raw === null || raw === '') return null
  // A number, or the digits of a CSV cell: `true` is not a duration, nor is a count a double has rounded.
  const v = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(v) || v < 0) {
    problems.error(line, 'active_ms', `active_ms must be a whole number of milliseconds, found ${JSON.stringify(raw)}`)
    return false
  }
  return v
}

function readDisplay(row: Record<string, unknown>, line: number, problems: Problems): Record<string, unknown> | false {
  let raw = row.display
  if (raw === undefined || raw === null || raw === '') return {}
  let why = ''
  if (typeof raw === 'string') {
    const parsed = parseJsonChecked(raw)
    raw = parsed.ok ? parsed.value : undefined
    if (!parsed.ok) why = `: ${parsed.problem.message}`
  }
  if (!isRecord(raw)) {
    problems.error(line, 'display', `display must be a JSON object${why}`)
    return false
  }
  return raw
}

