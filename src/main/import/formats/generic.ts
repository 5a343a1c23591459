import { GENERIC_ROLES, type GenericMapping, type GenericRole } from '../../../shared/items/generic-mapping'
import { asObject, describe, Problems, text } from '../fields'
import { isRecord, type ReadResult } from '../read-records'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'
import { canonicalLabel } from './pairs'

/**
 * A team's own single texts or pairs, JSONL or CSV, read through a column mapping (never detected: the mapping says
 * what the columns mean). Single texts become `idea` items, pairs `proposal-pair` items, so the instruments made for
 * those kinds annotate them; origins and labels stay in main, where every pair's blinding is applied. Columns no role
 * names are kept as written under `$extra`. Problems name the file's own columns, never Assay's field names.
 */
export function parseGeneric(ctx: ImportContext, read: ReadResult): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const mapping = ctx.mapping
  if (!mapping) {
    problems.error(undefined, 'mapping', `the generic format needs a column mapping (--as texts|pairs and --map id=…,text=…)`)
    return out
  }
  if (!checkMapping(mapping, read, problems)) return out
  const columns = mapping.columns
  const mapped = new Set(Object.values(columns))
  for (const rec of read.records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const before = out.errors.length
    const id = required(row, columns.id!, rec, problems, 'an id')
    const extra: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(row)) if (!mapped.has(k)) Object.defineProperty(extra, k, { value: v, enumerable: true, writable: true, configurable: true })
    const title = optionalText(row, columns.title, rec.line, problems)
    const idField = columns.id!
    if (mapping.as === 'texts') {
      const body = required(row, columns.text!, rec, problems, 'the text')
      const origin = optionalText(row, columns.origin, rec.line, problems)
      if (out.errors.length > before || !id || !body) continue
      const payload: Record<string, unknown> = { idea: body, ...(title ? { title } : {}), ...(origin ? { origin } : {}) }
      out.items.push({ kind: 'idea', externalId: id, payload, line: rec.line, extra, idField })
      continue
    }
    const a = required(row, columns.a_text!, rec, problems, 'text A')
    const b = required(row, columns.b_text!, rec, problems, 'text B')
    const aOrigin = origin(row, columns.a_origin, rec.line, problems)
    const bOrigin = origin(row, columns.b_origin, rec.line, problems)
    if (out.errors.length > before || !id || !a || !b) continue
    const payload: Record<string, unknown> = {
      pair_id: id,
      ...(title ? { topic: title } : {}),
      a: { markdown: a, ...(aOrigin ? { origin: aOrigin } : {}) },
      b: { markdown: b, ...(bOrigin ? { origin: bOrigin } : {}) }
    }
    const label = pairLabel(ctx, row, payload, mapping, rec.line, out)
    if (label === false) continue
    if (label) payload.label = label
    out.items.push({ kind: 'proposal-pair', externalId: id, payload, line: rec.line, extra, idField })
  }
  const labelled = out.items.filter((i) => i.payload.label).length
  out.summary = { as: mapping.as, rows: read.records.length, ...(mapping.as === 'pairs' ? { labelled } : {}) }
  return out
}

/** The roles this shape needs are mapped, no role of the other shape is, and every mapped column is in the file. */
function checkMapping(mapping: GenericMapping, read: ReadResult, problems: Problems): boolean {
  let ok = true
  const roles = GENERIC_ROLES[mapping.as]
  for (const r of roles) {
    if (r.required && !mapping.columns[r.role as GenericRole]) {
      problems.error(undefined, `mapping.${r.role}`, `importing ${mapping.as} needs a column for ${r.role} (${r.to})`)
      ok = false
    }
  }
  const known = new Set(roles.map((r) => r.role))
  const seen = new Map<string, string>()
  for (const [role, column] of Object.entries(mapping.columns)) {
    if (!known.has(role)) {
      problems.error(undefined, `mapping.${role}`, `${role} is not a role of ${mapping.as}; the roles are ${[...known].join(', ')}`)
      ok = false
    }
    const other = seen.get(column)
    if (other) {
      problems.error(undefined, `mapping.${role}`, `column "${column}" is mapped to both ${other} and ${role}`)
      ok = false
    }
    seen.set(column, role)
  }
  const { names, line, where } = headerOf(read)
  for (const [role, column] of Object.entries(mapping.columns)) {
    if (!names.has(column)) {
      problems.error(line, column, `the mapping's column "${column}" (for ${role}) is not in ${where}; its columns are ${[...names].map((n) => `"${n}"`).join(', ')}`)
      ok = false
    }
  }
  return ok
}

/** A CSV's header line, or for JSON the fields any record has (with the first record's line). */
export function headerOf(read: ReadResult): { names: Set<string>; line: number | undefined; where: string } {
  if (read.container === 'csv' || read.container === 'tsv') return { names: new Set(read.columns), line: 1, where: 'the header (line 1)' }
  const names = new Set<string>()
  for (const r of read.records) if (isRecord(r.value)) for (const k of Object.keys(r.value)) names.add(k)
  const line = read.records[0]?.line
  return { names, line, where: 'any record of the file' }
}

function required(row: Record<string, unknown>, column: string, rec: SourceRecord, problems: Problems, what: string): string | undefined {
  const v = row[column]
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
    problems.error(rec.line, column, `missing ${what} (column "${column}")`)
    return undefined
  }
  const t = text(row, column)
  if (t === undefined) problems.error(rec.line, column, `${what} must be text, found ${describe(v)}`)
  return t
}

function optionalText(row: Record<string, unknown>, column: string | undefined, line: number, problems: Problems): string | undefined {
  if (!column) return undefined
  const v = row[column]
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return undefined
  const t = text(row, column)
  if (t === undefined) problems.error(line, column, `must be text, found ${describe(v)}`)
  return t?.trim()
}

function origin(row: Record<string, unknown>, column: string | undefined, line: number, problems: Problems): 'human' | 'ai' | undefined {
  const t = optionalText(row, column, line, problems)?.toLowerCase()
  if (t === undefined) return undefined
  if (t === 'human' || t === 'ai') return t
  problems.error(line, column, `origin must be human or ai, found "${t}"`)
  return undefined
}

/** The pair's label through the pairs format's own rules, its problems told against the file's columns. */
function pairLabel(ctx: ImportContext, row: Record<string, unknown>, payload: Record<string, unknown>, mapping: GenericMapping, line: number, out: ParsedImport) {
  const c = mapping.columns
  if (!c.label) return null
  const local = emptyParsed()
  const label = canonicalLabel({ label: row[c.label] }, payload, line, new Problems(ctx, local))
  const names: Record<string, string | undefined> = { label: c.label, 'a.origin': c.a_origin ?? 'a_origin', 'b.origin': c.b_origin ?? 'b_origin' }
  out.errors.push(...local.errors.map((e) => ({ ...e, ...(e.field ? { field: names[e.field] ?? e.field } : {}) })))
  return label
}
