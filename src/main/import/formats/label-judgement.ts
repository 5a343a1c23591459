import type { z } from 'zod'
import type { AnyInstrument } from '../../../shared/instruments'
import type { Problems } from '../fields'
import { isRecord } from '../read-records'
import { setPath, type LabelRow } from './label-rows'

// Assembling an answer from its rows (unit rows gathered into the instrument's unit list) and validating it.

export interface UnitsField {
  field: string
  idField: string
}

export interface ImportItem {
  id: number
  kind: string
  /** As stored: what the instrument's checks read. */
  payload: Record<string, unknown>
  payloadText: string
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
export function checkedJudgement(group: LabelRow[], item: ImportItem, csv: boolean, problems: Problems): unknown | null {
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

function fieldOf(path: string, csv: boolean): string {
  return csv ? path : path ? `judgement.${path}` : 'judgement'
}

/** JSON with object keys sorted, to compare judgements whatever order their fields were written in. */
export function stableJson(v: unknown): string {
  return JSON.stringify(v === undefined ? null : v, (_k, x: unknown) =>
    isRecord(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x
  )
}
