import Papa from 'papaparse'
import type { ErrorLocation } from '../../shared/errors'
import { FORBIDDEN_KEYS, scanJson } from './json-scan'
import { unusualNumbers, type SourceNumber } from './numbers'
import type { SourceRecord } from './types'

export type Container = 'json' | 'jsonl' | 'csv' | 'tsv'

export interface ReadResult {
  container: Container
  records: SourceRecord[]
  /** A JSON file's top-level value when it is an object (manifests carry metadata beside their rows). */
  root: Record<string, unknown> | null
  /** CSV header, as written (empty and pandas index columns removed). */
  columns: string[]
  errors: ErrorLocation[]
}

/** Decides the container from the extension, else from the first characters. */
export function detectContainer(path: string, text: string): Container {
  const lower = path.toLowerCase()
  if (lower.endsWith('.csv')) return 'csv'
  if (lower.endsWith('.tsv') || lower.endsWith('.tab')) return 'tsv'
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl'
  if (lower.endsWith('.json')) return 'json'
  const start = text.trimStart()
  if (start.startsWith('[')) return 'json'
  if (start.startsWith('{')) {
    // One object over many lines is JSON; one object per line is JSONL.
    try {
      JSON.parse(text)
      return 'json'
    } catch {
      return 'jsonl'
    }
  }
  return 'csv'
}

/**
 * Reads a JSON array (or an object holding one under `arrayKeys`), JSONL or CSV into records that remember
 * where they start, so every later error can name its line.
 */
export function readRecords(file: string, path: string, rawText: string, arrayKeys: ReadonlyArray<string> = []): ReadResult {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText
  const container = detectContainer(path, text)
  switch (container) {
    case 'jsonl':
      return readJsonl(file, text)
    case 'json':
      return readJson(file, text, arrayKeys)
    case 'csv':
    case 'tsv':
      return readCsv(file, text, container)
  }
}

function readJsonl(file: string, text: string): ReadResult {
  const records: SourceRecord[] = []
  const errors: ErrorLocation[] = []
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (!line) return
    const problem = scanJson(line, i + 1)
    if (problem) {
      errors.push({ file, line: i + 1, ...(problem.field ? { field: problem.field } : {}), message: problem.message })
      return
    }
    try {
      const value: unknown = JSON.parse(line)
      const numbers = unusualNumbers(line, i + 1)
      records.push(numbers.length ? { line: i + 1, value, numbers } : { line: i + 1, value })
    } catch (e) {
      errors.push({ file, line: i + 1, message: `not valid JSON: ${jsonMessage(e)}` })
    }
  })
  return { container: 'jsonl', records, root: null, columns: [], errors }
}

function readJson(file: string, text: string, arrayKeys: ReadonlyArray<string>): ReadResult {
  const problem = scanJson(text)
  if (problem) {
    return { container: 'json', records: [], root: null, columns: [], errors: [{ file, line: problem.line, ...(problem.field ? { field: problem.field } : {}), message: problem.message }] }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const position = /position (\d+)/.exec(String((e as Error).message))
    const line = position ? lineAt(text, Number(position[1])) : firstBadElementLine(text)
    return { container: 'json', records: [], root: null, columns: [], errors: [{ file, ...(line ? { line } : {}), message: `not valid JSON: ${jsonMessage(e)}` }] }
  }
  const numbers = unusualNumbers(text)
  /** The unusual numbers inside each element of the array at `prefix`, by element, their paths from the element. */
  const byElement = (prefix: ReadonlyArray<string | number>): Map<number, SourceNumber[]> => {
    const out = new Map<number, SourceNumber[]>()
    for (const n of numbers) {
      const i = n.path[prefix.length]
      if (typeof i !== 'number' || !prefix.every((p, k) => n.path[k] === p)) continue
      const list = out.get(i) ?? []
      list.push({ ...n, path: n.path.slice(prefix.length + 1) })
      out.set(i, list)
    }
    return out
  }
  const within = (found: Map<number, SourceNumber[]>, i: number): { numbers?: SourceNumber[] } => (found.has(i) ? { numbers: found.get(i)! } : {})
  if (Array.isArray(value)) {
    const starts = topLevelElementLines(text, null)
    const found = byElement([])
    return { container: 'json', records: value.map((v, i) => ({ line: starts[i] ?? 1, value: v, ...within(found, i) })), root: null, columns: [], errors: [] }
  }
  if (value && typeof value === 'object') {
    const root = value as Record<string, unknown>
    const key = arrayKeys.find((k) => Array.isArray(root[k]))
    if (key) {
      const starts = topLevelElementLines(text, key)
      const rows = root[key] as unknown[]
      const found = byElement([key])
      return { container: 'json', records: rows.map((v, i) => ({ line: starts[i] ?? 1, value: v, ...within(found, i) })), root, columns: [], errors: [] }
    }
    // A single object is one record (a run file, one manifest entry).
    return { container: 'json', records: [{ line: 1, value: root, ...(numbers.length ? { numbers } : {}) }], root, columns: [], errors: [] }
  }
  return { container: 'json', records: [], root: null, columns: [], errors: [{ file, line: 1, message: 'expected a JSON array or object' }] }
}

/**
 * Lines on which the elements of the top-level array start (or of the array under `key` of the top-level
 * object). A small scanner over strings and nesting; the text is already known to be valid JSON.
 */
export function topLevelElementLines(text: string, key: string | null): number[] {
  interface Frame {
    array: boolean
    /** The key this container sits under in its parent object. */
    key: string | null
    /** Object: the next string is a key. Array: the next value starts an element. */
    expecting: boolean
  }
  const starts: number[] = []
  const stack: Frame[] = []
  let line = 1
  let keyOfNext: string | null = null
  const isTarget = (f: Frame | undefined): boolean =>
    f !== undefined && f.array && (key === null ? stack.length === 1 : stack.length === 2 && f.key === key && !stack[0]!.array)
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\n') {
      line++
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r') continue
    const top = stack[stack.length - 1]
    if (top?.array && top.expecting && c !== ']') {
      top.expecting = false
      if (isTarget(top)) starts.push(line)
    }
    if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') j++
        else if (text[j] === '\n') line++
        j++
      }
      if (top && !top.array && top.expecting) {
        keyOfNext = text.slice(i + 1, j)
        top.expecting = false
      }
      i = j
      continue
    }
    if (c === '[' || c === '{') {
      stack.push({ array: c === '[', key: top && !top.array ? keyOfNext : null, expecting: true })
      continue
    }
    if (c === ']' || c === '}') {
      stack.pop()
      continue
    }
    if (c === ',' && top) top.expecting = true
  }
  return starts
}

/**
 * The delimiter, guessed from the header line alone: guessed over the rows, semicolons inside quoted cells (authors,
 * key points) outvoted the commas between them. A header of one column is read with commas.
 */
function headerDelimiter(text: string): string {
  const end = text.search(/\r?\n/)
  const guessed = Papa.parse<string[]>(end < 0 ? text : text.slice(0, end), { header: false, preview: 1 }).meta.delimiter
  return guessed || ','
}

function readCsv(file: string, text: string, container: 'csv' | 'tsv'): ReadResult {
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, delimiter: container === 'tsv' ? '\t' : headerDelimiter(text) })
  const errors: ErrorLocation[] = parsed.errors
    .filter((e) => e.code !== 'UndetectableDelimiter')
    .map((e) => ({ file, ...(e.row !== undefined && e.row !== null ? { line: e.row + 1 } : {}), message: `CSV: ${e.message}` }))
  const rows = parsed.data
  const header = rows[0]
  if (!header) return { container, records: [], root: null, columns: [], errors: [...errors, { file, message: 'the file is empty' }] }
  const names = header.map((h) => h.trim())
  const unnamed = names.map((n) => n === '' || /^Unnamed: \d+$/.test(n))
  const keep = unnamed.map((u) => !u)
  unnamed.forEach((u, i) => {
    if (!u) return
    const problem = unnamedColumnProblem(rows, i)
    if (problem) errors.push({ file, line: problem.line, field: names[i] || `column ${i + 1}`, message: problem.message })
  })
  const seen = new Set<string>()
  names.forEach((n, i) => {
    if (!keep[i]) return
    if (seen.has(n)) errors.push({ file, line: 1, field: n, message: `column "${n}" appears twice` })
    if (n.split('.').some((part) => FORBIDDEN_KEYS.has(part))) errors.push({ file, line: 1, field: n, message: `the column name "${n}" is not accepted as data (rename it)` })
    seen.add(n)
  })
  const records: SourceRecord[] = []
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r]!
    if (cells.length === 1 && cells[0]!.trim() === '') continue
    // A row with more or fewer cells than the header has lost or shifted a value: refused, never padded or cut.
    if (cells.length !== names.length) {
      errors.push({ file, line: r + 1, message: `row ${r + 1} has ${cells.length} cell${cells.length === 1 ? '' : 's'}; the header has ${names.length} columns` })
      continue
    }
    const value: Record<string, string> = {}
    names.forEach((n, i) => {
      if (keep[i]) value[n] = cells[i] ?? ''
    })
    records.push({ line: r + 1, value })
  }
  return { container, records, root: null, columns: names.filter((_, i) => keep[i]), errors }
}

/**
 * A column without a name (empty, or pandas' `Unnamed: N`) is left out only when it holds no data: every cell empty,
 * or pandas' index (the row numbers 0, 1, 2… in the first column). Any other such column holds values that would be
 * dropped: the file is refused, naming the first of them.
 */
function unnamedColumnProblem(rows: ReadonlyArray<ReadonlyArray<string>>, column: number): { line: number; message: string } | null {
  const cells: Array<{ line: number; cell: string }> = []
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!
    if (row.length === 1 && row[0]!.trim() === '') continue
    cells.push({ line: r + 1, cell: (row[column] ?? '').trim() })
  }
  if (cells.every((c) => c.cell === '')) return null
  if (column === 0 && cells.every((c, k) => c.cell === String(k))) return null
  const first = cells.find((c) => c.cell !== '')!
  return {
    line: first.line,
    message: `column ${column + 1} has no name but holds data (${JSON.stringify(first.cell.slice(0, 40))}); name it in the header, or remove it`
  }
}

/**
 * V8 does not always say where JSON broke. Cut a top-level array at its element starts and parse each piece:
 * the first that fails names the line of the broken record.
 */
function firstBadElementLine(text: string): number | undefined {
  const offsets = topLevelElementOffsets(text)
  const close = text.lastIndexOf(']')
  for (let k = 0; k < offsets.length; k++) {
    const piece = text.slice(offsets[k], k + 1 < offsets.length ? offsets[k + 1] : close).trim().replace(/,$/, '')
    try {
      JSON.parse(piece)
    } catch {
      return lineAt(text, offsets[k]!)
    }
  }
  return undefined
}

function topLevelElementOffsets(text: string): number[] {
  const offsets: number[] = []
  let depth = 0
  let expecting = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (/\s/.test(c)) continue
    if (depth === 1 && expecting && c !== ']') {
      offsets.push(i)
      expecting = false
    }
    if (c === '"') {
      i++
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
      continue
    }
    if (c === '[' || c === '{') {
      depth++
      if (depth === 1 && c === '[') expecting = true
    } else if (c === ']' || c === '}') depth--
    else if (c === ',' && depth === 1) expecting = true
  }
  return offsets
}

function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++
  return line
}

function jsonMessage(e: unknown): string {
  return String((e as Error).message ?? e).replace(/^JSON\.parse: /, '')
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
