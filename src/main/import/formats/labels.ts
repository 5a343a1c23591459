import type { z } from 'zod'
import { getInstrument, isInstrumentId, type AnyInstrument } from '../../../shared/instruments'
import type { ItemKind } from '../../../shared/items/kinds'
import {
  currentHumanAnswers,
  instrumentPayload,
  majorityFieldsOf,
  majorityLabel,
  MAJORITY_OUTCOMES,
  type CountedAnswer
} from '../../adjudication/labels'
import type { AdjudicationRow } from '../../adjudication/store'
import { getItemByExternalId } from '../../store/items'
import { asObject, Problems, text } from '../fields'
import {
  FINAL_FROM,
  FINAL_SOURCE_KIND,
  JUDGEMENT_COLUMN_PREFIX,
  LABEL_META_COLUMNS,
  LABEL_SOURCE_KINDS,
  type FinalFromColumn,
  type LabelSourceKind,
  type SourceKind
} from '../label-columns'
import { isRecord, type ReadResult } from '../read-records'
import { emptyParsed, type AdjudicationDraft, type ImportContext, type ParsedImport } from '../types'
import type { ImportedAnnotationDraft } from '../write'

/**
 * Human labels or judge outputs made elsewhere (layout in label-columns.ts). Each answer is validated against its
 * instrument's judgement schema and stored in `annotations` (`origin='import'`): a human source becomes an annotator,
 * a model keeps its name as `source_name`. Rows naming a `unit` (a hypothesis of a set, a forecast) are gathered
 * per (item, instrument, source) into the instrument's unit list, e.g. `{scores: [{id: unit, ...}]}`.
 * The instrument's item checks (exact quotes, coverage of units) are reported as warnings: the answer was given
 * elsewhere and is kept as given. An answer keeps its `annotation_id` where the project does not know it yet; one the
 * project already holds unchanged is left out, so importing an export twice adds nothing.
 *
 * Final labels (`source_kind: 'final'`, as the labels export writes them): one from an adjudication is stored as an
 * adjudication (its id, curator, reason and the answers it rests on kept); one from the human majority is recomputed
 * from the answers the project will hold after the import and only checked: a difference is a warning on its line.
 */

interface LabelRow {
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
interface FinalColumns {
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

interface UnitsField {
  field: string
  idField: string
}

interface ImportItem {
  id: number
  kind: string
  /** As stored: what the instrument's checks read. */
  payload: Record<string, unknown>
  payloadText: string
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

  const itemCache = new Map<string, ImportItem | null>()
  const known = new KnownAnswers(ctx)
  const bySource: Record<string, number> = {}
  const byInstrument: Record<string, number> = {}
  const finals: Array<{ group: LabelRow[]; item: ImportItem }> = []
  let unchanged = 0
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
    // Final labels rest on the answers: they are read once every answer of the file is.
    if (first.final) {
      finals.push({ group, item })
      continue
    }
    const judgement = checkedJudgement(group, item, csv, problems)
    if (judgement === null) continue
    const sourceKind = first.sourceKind as SourceKind
    const id = known.idFor(first, item.id, judgement, problems)
    if (id === 'unchanged') {
      unchanged++
      continue
    }
    const draft: ImportedAnnotationDraft = {
      itemId: item.id,
      itemExternalId: first.item,
      instrumentId: inst.id,
      instrumentVersion: first.version,
      sourceKind,
      sourceName: first.source,
      judgement,
      display: first.display,
      activeMs: first.activeMs,
      createdAt: first.createdAt,
      line: first.line,
      ...(id ? { annotationId: id } : {})
    }
    out.annotations.push(draft)
    const who = `${sourceKind}:${first.source}`
    bySource[who] = (bySource[who] ?? 0) + 1
    byInstrument[inst.id] = (byInstrument[inst.id] ?? 0) + 1
  }

  const checked = readFinals(ctx, finals, out.annotations as ImportedAnnotationDraft[], csv, problems)
  out.adjudications = checked.adjudications
  out.summary = {
    labels: out.annotations.length,
    bySource,
    byInstrument,
    ...(unchanged ? { unchanged } : {}),
    ...(finals.length
      ? {
          adjudications: checked.adjudications.length,
          adjudicationsUnchanged: checked.adjudicationsUnchanged,
          majoritiesChecked: checked.majoritiesChecked,
          majoritiesDiffering: checked.majoritiesDiffering
        }
      : {})
  }
  return out
}

/**
 * Answer ids of the project and of this file. An answer keeps the id it was exported with unless the project (or
 * an earlier row) already uses it; the same answer already in the project is not imported again.
 */
class KnownAnswers {
  private readonly used = new Set<string>()
  private readonly stored

  constructor(private readonly ctx: ImportContext) {
    this.stored = ctx.db.prepare(`SELECT item_id, instrument_id, source_kind, source_name, judgement FROM annotations WHERE id = ?`)
  }

  idFor(row: LabelRow, itemId: number, judgement: unknown, problems: Problems): string | 'unchanged' | null {
    const id = row.annotationId
    if (id === undefined) return null
    if (this.used.has(id)) {
      problems.warn(row.line, 'annotation_id', `annotation_id ${id} appears on an earlier answer of the file; this one gets a new id`)
      return null
    }
    this.used.add(id)
    const prior = this.stored.get(id) as { item_id: number; instrument_id: string; source_kind: string; source_name: string; judgement: string } | undefined
    if (!prior) return id
    const same =
      prior.item_id === itemId &&
      prior.instrument_id === row.instrument.id &&
      prior.source_kind === row.sourceKind &&
      prior.source_name === row.source &&
      stableJson(JSON.parse(prior.judgement)) === stableJson(judgement)
    if (same) return 'unchanged'
    problems.warn(row.line, 'annotation_id', `annotation_id ${id} is already in the project for another answer; this one is stored as a new revision with a new id`)
    return null
  }
}

interface FinalsRead {
  adjudications: AdjudicationDraft[]
  adjudicationsUnchanged: number
  majoritiesChecked: number
  majoritiesDiffering: number
}

/**
 * Adjudication-based final labels become adjudication drafts; majority-based ones are compared with the majority
 * of the human answers the project will hold once this file's answers are written.
 */
function readFinals(
  ctx: ImportContext,
  finals: ReadonlyArray<{ group: LabelRow[]; item: ImportItem }>,
  drafts: ReadonlyArray<ImportedAnnotationDraft>,
  csv: boolean,
  problems: Problems
): FinalsRead {
  const result: FinalsRead = { adjudications: [], adjudicationsUnchanged: 0, majoritiesChecked: 0, majoritiesDiffering: 0 }
  if (!finals.length) return result
  const prospective = new ProspectiveAnswers(ctx, drafts)
  const storedAdjudication = ctx.db.prepare(`SELECT * FROM adjudications WHERE id = ?`)
  const seenIds = new Set<string>()
  for (const { group, item } of finals) {
    const first = group[0]!
    const final = first.final!
    const inst = first.instrument
    const payload = instrumentPayload(ctx.db, { kind: item.kind, payload: item.payloadText })
    const answers = prospective.of(item.id, inst.id)
    if (final.from === 'majority') {
      result.majoritiesChecked++
      if (!checkMajority(first, group, inst, answers, payload, problems)) result.majoritiesDiffering++
      continue
    }
    const judgement = checkedJudgement(group, item, csv, problems)
    if (judgement === null) continue
    if (!final.curator || !final.reason) {
      if (!final.curator) problems.error(first.line, 'curator', 'an adjudicated final label needs its curator')
      if (!final.reason) problems.error(first.line, csv ? 'adjudication_reason' : 'reason', 'an adjudicated final label needs its reason')
      continue
    }
    const id = final.adjudicationId
    if (id !== undefined) {
      if (seenIds.has(id)) {
        problems.error(first.line, 'adjudication_id', `adjudication ${id} appears twice in the file`)
        continue
      }
      seenIds.add(id)
      const prior = storedAdjudication.get(id) as AdjudicationRow | undefined
      if (prior) {
        if (prior.item_id === item.id && prior.instrument_id === inst.id && stableJson(JSON.parse(prior.judgement)) === stableJson(judgement)) {
          result.adjudicationsUnchanged++
        } else {
          problems.error(first.line, 'adjudication_id', `adjudication ${id} is already in the project with another item or judgement`)
        }
        continue
      }
    }
    const draft: AdjudicationDraft = {
      id: id ?? null,
      itemId: item.id,
      instrumentId: inst.id,
      judgement,
      reason: final.reason,
      curator: final.curator,
      basedOn: final.basedOn,
      createdAt: first.createdAt,
      line: first.line
    }
    const unknown = final.basedOn.filter((b) => !prospective.isAnswerOf(b, item.id, inst.id))
    if (unknown.length) {
      problems.warn(first.line, 'based_on', `the adjudication rests on answers the project will not hold (${unknown.join(', ')})`)
    }
    // An answer without a kept id gets a new one, which no adjudication can rest on yet.
    const basis = new Set(final.basedOn)
    if (answers.some((a) => a.id === null || !basis.has(a.id))) {
      problems.warn(first.line, 'based_on', 'the adjudication does not rest on every current answer of the item: it will read as stale and the human majority will stand')
    }
    result.adjudications.push(draft)
  }
  return result
}

/** Compares a majority-based final label with the majority recomputed here; false (and a warning) on a difference. */
function checkMajority(
  first: LabelRow,
  group: ReadonlyArray<LabelRow>,
  inst: AnyInstrument,
  answers: ReadonlyArray<CountedAnswer>,
  payload: Record<string, unknown>,
  problems: Problems
): boolean {
  const final = first.final!
  if (group.length > 1) problems.warn(first.line, 'unit', 'a majority-based final label is one row; unit rows after the first are not read')
  const recomputed = majorityFieldsOf(majorityLabel(inst, answers, payload))
  let stated: Record<string, unknown> | null = first.judgement
  if (stated) {
    const parsed = (inst.judgement as z.ZodType).safeParse(stated)
    if (parsed.success) stated = parsed.data as Record<string, unknown>
  }
  const differences: string[] = []
  const compare = (name: string, file: unknown, here: unknown) => {
    if (stableJson(file) !== stableJson(here)) differences.push(`${name} ${show(file)} in the file, ${show(here)} recomputed`)
  }
  if (final.majority !== undefined) compare('majority', final.majority, recomputed.majority)
  compare('judgement', stated, recomputed.judgement)
  if (final.majorityValues !== undefined) compare('majority_values', final.majorityValues, recomputed.majority_values)
  if (final.nAnswers !== undefined) compare('n_answers', final.nAnswers, recomputed.n_answers)
  if (final.nAgreeing !== undefined) compare('n_agreeing', final.nAgreeing, recomputed.n_agreeing)
  if (final.nAbstained !== undefined) compare('n_abstained', final.nAbstained, recomputed.n_abstained)
  if (!differences.length) return true
  problems.warn(
    first.line,
    undefined,
    `the human majority of ${first.item} (${inst.id}) recomputed from the answers differs from this line: ${differences.join('; ')}. The project keeps its own majority.`
  )
  return false
}

function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v)
}

/**
 * The current human answers of an item once the import is written: the project's, each replaced by a later answer of
 * the same person in the file (which supersedes it), plus the file's answers from new people.
 */
class ProspectiveAnswers {
  private readonly byInstrument = new Map<string, Map<number, Map<string, CountedAnswer>>>()
  private readonly names: Map<number, string>
  private readonly answerOf

  constructor(
    private readonly ctx: ImportContext,
    private readonly drafts: ReadonlyArray<ImportedAnnotationDraft>
  ) {
    this.names = new Map((ctx.db.prepare(`SELECT id, name FROM annotators`).all() as { id: number; name: string }[]).map((r) => [r.id, r.name]))
    this.answerOf = ctx.db.prepare(`SELECT 1 FROM annotations WHERE id = ? AND item_id = ? AND instrument_id = ?`)
  }

  of(itemId: number, instrumentId: string): CountedAnswer[] {
    let byItem = this.byInstrument.get(instrumentId)
    if (!byItem) {
      byItem = new Map()
      for (const [item, rows] of currentHumanAnswers(this.ctx.db, instrumentId)) {
        const byPerson = new Map<string, CountedAnswer>()
        for (const r of rows) {
          const who = (r.annotator_id !== null ? this.names.get(r.annotator_id) : undefined) ?? r.source_name
          byPerson.set(who, { id: r.id, judgement: JSON.parse(r.judgement) as unknown, createdAt: r.created_at })
        }
        byItem.set(item, byPerson)
      }
      for (const d of this.drafts) {
        if (d.instrumentId !== instrumentId || d.sourceKind !== 'human') continue
        let byPerson = byItem.get(d.itemId)
        if (!byPerson) byItem.set(d.itemId, (byPerson = new Map()))
        byPerson.set(d.sourceName, { id: d.annotationId ?? null, judgement: d.judgement, createdAt: d.createdAt })
      }
      this.byInstrument.set(instrumentId, byItem)
    }
    return [...(byItem.get(itemId)?.values() ?? [])]
  }

  isAnswerOf(id: string, itemId: number, instrumentId: string): boolean {
    if (this.drafts.some((d) => d.annotationId === id && d.itemId === itemId && d.instrumentId === instrumentId)) return true
    return this.answerOf.get(id, itemId, instrumentId) !== undefined
  }
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
  if (sourceKind !== undefined && !(LABEL_SOURCE_KINDS as ReadonlyArray<string>).includes(sourceKind)) {
    problems.error(line, 'source_kind', `source_kind must be one of ${LABEL_SOURCE_KINDS.join(', ')}, found "${sourceKind}"`)
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
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return raw
  }
}

function judgementFromJson(row: Record<string, unknown>, line: number, problems: Problems, nullable: boolean): { value: Record<string, unknown> | null; raw: null } | null {
  let j = row.judgement
  if (nullable && (j === null || j === undefined)) return { value: null, raw: null }
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

/** JSON with object keys sorted, to compare judgements whatever order their fields were written in. */
function stableJson(v: unknown): string {
  return JSON.stringify(v === undefined ? null : v, (_k, x: unknown) =>
    isRecord(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x
  )
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
    for (const [k, v] of Object.entries(rows[0]!.judgement ?? {})) if (topLevel.has(k)) whole[k] = v
    whole[units.field] = rows.map((r) => ({
      ...Object.fromEntries(Object.entries(r.judgement ?? {}).filter(([k]) => !topLevel.has(k))),
      [units.idField]: r.unit
    }))
    return whole
  }
  const schema = first.instrument.judgement as z.ZodType
  let candidate = assemble(group)
  let result = schema.safeParse(candidate)
  if (!result.success && csv) {
    const retyped = group.map((r) => ({ ...r, judgement: structuredClone(r.judgement ?? {}) }))
    let changed = false
    for (const issue of result.error.issues) {
      if (issue.code !== 'invalid_type' || issue.expected !== 'string') continue
      const at = locate(issue.path, units, retyped)
      const rawText = at?.row.rawCells?.get(at.path.join('.'))
      if (at && rawText !== undefined) {
        // Retyped rows all carry a judgement object.
        setPath(at.row.judgement!, at.path, rawText)
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

/** The group's judgement when valid, with the instrument's checks on the item reported as warnings; null when invalid. */
function checkedJudgement(group: LabelRow[], item: ImportItem, csv: boolean, problems: Problems): unknown | null {
  const judgement = validate(group, csv, problems)
  if (judgement === null) return null
  const first = group[0]!
  const inst = first.instrument
  try {
    for (const issue of inst.check(judgement, item.payload as never)) problems.warn(first.line, fieldOf(issue.path, csv), issue.message)
  } catch (e) {
    problems.warn(first.line, undefined, `the ${inst.id} checks could not run on this item: ${(e as Error).message}`)
  }
  return judgement
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

function findItem(ctx: ImportContext, kind: ItemKind, externalId: string, cache: Map<string, ImportItem | null>): ImportItem | null {
  const key = `${kind}\u0000${externalId}`
  if (!cache.has(key)) {
    const row = getItemByExternalId(ctx.db, kind, externalId)
    cache.set(key, row ? { id: row.id, kind: row.kind, payload: JSON.parse(row.payload) as Record<string, unknown>, payloadText: row.payload } : null)
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
