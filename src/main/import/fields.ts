import type { ErrorLocation } from '../../shared/errors'
import { numberCell } from './numbers'
import { isRecord } from './read-records'
import type { ImportContext, ParsedImport, SourceRecord } from './types'

// Small helpers every format parser uses: reading fields of JSON or CSV rows and recording problems by line.

/** Records problems of one file against line and field. */
export class Problems {
  constructor(
    private readonly ctx: ImportContext,
    private readonly out: ParsedImport
  ) {}

  error(line: number | undefined, field: string | undefined, message: string): void {
    this.out.errors.push(this.at(line, field, message))
  }

  warn(line: number | undefined, field: string | undefined, message: string): void {
    this.out.warnings.push(this.at(line, field, message))
  }

  private at(line: number | undefined, field: string | undefined, message: string): ErrorLocation {
    return { file: this.ctx.file, ...(line !== undefined ? { line } : {}), ...(field ? { field } : {}), message }
  }
}

/** The record as an object, or an error naming its line. */
export function asObject(rec: SourceRecord, problems: Problems): Record<string, unknown> | null {
  if (isRecord(rec.value)) return rec.value
  problems.error(rec.line, undefined, `expected an object, found ${describe(rec.value)}`)
  return null
}

export function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'string' ? 'a string' : `a ${typeof v}`
}

/** A non-empty string field (numbers are accepted as ids), else undefined. */
export function text(row: Record<string, unknown>, key: string): string | undefined {
  const v = row[key]
  if (typeof v === 'string') return v.trim() === '' ? undefined : v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return undefined
}

/** The first present of several alternative field names. */
export function firstText(row: Record<string, unknown>, keys: ReadonlyArray<string>): { key: string; value: string } | undefined {
  for (const key of keys) {
    const value = text(row, key)
    if (value !== undefined) return { key, value }
  }
  return undefined
}

/**
 * A CSV cell as a number where it is one and a double holds it ("3", "2.5", "-1e3"); other strings unchanged, so a
 * number a double would round (an id of 20 digits, `1e400`) stays as written. JSON values pass through.
 */
export function cellNumber(v: unknown): unknown {
  if (typeof v !== 'string') return v
  return numberCell(v.trim()) ?? v
}

/** CSV cells are strings; empty cells mean "absent". JSON rows are returned unchanged. */
export function dropEmptyCells(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) if (!(typeof v === 'string' && v.trim() === '')) out[k] = v
  return out
}

/** A file-wide running counter giving duplicates stable keys: `id`, `id#2`, `id#3`… in file order. */
export class KeyDeduper {
  private readonly seen = new Map<string, { count: number; line: number }>()

  /** Returns the key to use and, for a repeat, the line of the first occurrence. */
  key(base: string, line: number): { key: string; firstLine?: number } {
    const prior = this.seen.get(base)
    if (!prior) {
      this.seen.set(base, { count: 1, line })
      return { key: base }
    }
    prior.count++
    return { key: `${base}#${prior.count}`, firstLine: prior.line }
  }
}

/**
 * A yes/no field: a JSON boolean, or a CSV cell `true`/`false`, `yes`/`no`, `1`/`0` (any case). Undefined when
 * absent or empty; null when it is there but none of these, so the caller can name the field.
 */
export function yesNo(row: Record<string, unknown>, key: string): boolean | undefined | null {
  const v = row[key]
  if (v === undefined || v === null) return undefined
  if (typeof v === 'boolean') return v
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null
  if (typeof v !== 'string') return null
  const t = v.trim().toLowerCase()
  if (t === '') return undefined
  if (t === 'true' || t === 'yes' || t === '1') return true
  if (t === 'false' || t === 'no' || t === '0') return false
  return null
}

/**
 * A list of short texts: a JSON array of strings, or one text whose items are separated by semicolons (a CSV cell,
 * as the prompts join key points). Undefined when absent; null when it is neither.
 */
export function textList(row: Record<string, unknown>, key: string): string[] | undefined | null {
  const v = row[key]
  if (v === undefined || v === null) return undefined
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? (v as string[]) : null
  if (typeof v !== 'string') return null
  const t = v.trim()
  if (t.startsWith('[') && t.endsWith(']')) {
    try {
      const parsed = JSON.parse(t) as unknown
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return parsed as string[]
    } catch {
      // Not a JSON list: read as semicolon-separated text below.
    }
  }
  return t.split(';').map((s) => s.trim()).filter(Boolean)
}
