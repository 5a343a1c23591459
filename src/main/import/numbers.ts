import { EXTRA_KEY } from './extra-fields'
import { jsonKey } from './json-key'
import type { ParsedImport, SourceNumber, SourceRecord } from './types'

export type { SourceNumber } from './types'

// JSON.parse turns every number into a double without a word: 9007199254740993 becomes …992, 1e400 becomes Infinity
// (written back as null), 1.10 is written back as 1.1. An import finds each number whose text a double would not give
// back, and either keeps that text (a field Assay does not read, under $extra) or refuses the file with its place.

/** The key of a number kept as the text it was written in: `{ "$number": "1.10" }`. */
export const SOURCE_NUMBER_KEY = '$number'

const NUMBER = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/** Sign, significant digits and exponent of a decimal literal, for comparing values rather than spellings. */
function decimal(token: string): string | null {
  const m = NUMBER.exec(token)
  if (!m) return null
  let digits = `${m[2]}${m[3] ?? ''}`.replace(/^0+/, '')
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0)
  if (!digits) return '0'
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1)
    exp++
  }
  return `${m[1] ?? ''}${digits}e${exp}`
}

/** Whether a double gives back this number's text exactly (the common case: nothing to keep). */
export function writtenAsDouble(token: string): boolean {
  return String(Number(token)) === token
}

/**
 * Whether a double holds the value this number's text means (`1.10`, `1e3` and `-0` are held; `9007199254740993`,
 * `1e400` and digits beyond a double's precision are not).
 */
export function heldByDouble(token: string): boolean {
  const n = Number(token)
  if (!Number.isFinite(n)) return false
  // Every spelling of zero is zero (`-0` included: a double holds it).
  if (n === 0) return true
  return decimal(token) === decimal(String(n))
}

interface Frame {
  array: boolean
  index: number
  key: string | null
  expectingKey: boolean
}

const TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/**
 * Every number in JSON text (assumed valid) whose text a double would not give back, with its path and line. The
 * scan is one pass; a file of canonical numbers yields nothing.
 */
export function unusualNumbers(text: string, firstLine = 1): SourceNumber[] {
  const found: SourceNumber[] = []
  const stack: Frame[] = []
  let line = firstLine
  const path = (): Array<string | number> => stack.map((f) => (f.array ? f.index : (f.key ?? '')))
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) {
      line++
      continue
    }
    const top = stack[stack.length - 1]
    if (c === 34) {
      let j = i + 1
      let escaped = false
      while (j < text.length && text.charCodeAt(j) !== 34) {
        if (text.charCodeAt(j) === 92) {
          escaped = true
          j++
        }
        j++
      }
      if (top && !top.array && top.expectingKey) {
        const key = jsonKey(text.slice(i + 1, j), escaped)
        top.key = key
        top.expectingKey = false
      }
      i = j
      continue
    }
    if (c === 123 || c === 91) {
      stack.push({ array: c === 91, index: 0, key: null, expectingKey: c === 123 })
      continue
    }
    if (c === 125 || c === 93) {
      stack.pop()
      continue
    }
    if (c === 44) {
      if (top?.array) top.index++
      else if (top) top.expectingKey = true
      continue
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      TOKEN.lastIndex = i
      const m = TOKEN.exec(text)
      if (!m) continue
      if (!writtenAsDouble(m[0])) found.push({ path: path(), token: m[0], line })
      i += m[0].length - 1
    }
  }
  return found
}

/** A CSV cell as a number where it is one and a double holds it ("3", "2.5", "1.10"); any other text unchanged. */
export function numberCell(t: string): number | undefined {
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t)) return undefined
  const plain = t.replace(/^\+/, '').replace(/^(-?)\./, '$10.').replace(/\.(?=$|[eE])/, '')
  return heldByDouble(plain) ? Number(t) : undefined
}

/**
 * Keeps, under each item's `$extra`, every unusual number as the text it was written in (`{ "$number": "1.10" }`), so
 * a field Assay does not read round-trips exactly; refuses, with its line and field, a number a double cannot hold
 * anywhere else (a field Assay reads, a label's answer). A number whose value a double holds (`1.10` in a score) is
 * read as that value.
 */
export function keepWrittenNumbers(file: string, records: ReadonlyArray<SourceRecord>, parsed: ParsedImport): void {
  const byLine = new Map<number, SourceNumber[]>()
  for (const r of records) if (r.numbers) byLine.set(r.line, [...(byLine.get(r.line) ?? []), ...r.numbers])
  if (byLine.size === 0) return
  const kept = new Set<SourceNumber>()
  for (const item of parsed.items) {
    const extra = item.payload[EXTRA_KEY]
    if (!extra || typeof extra !== 'object' || Array.isArray(extra)) continue
    for (const n of byLine.get(item.line) ?? []) {
      const top = n.path[0]
      if (typeof top === 'string' && Object.hasOwn(extra, top) && keepAt(extra as Record<string, unknown>, n.path, n.token)) kept.add(n)
    }
  }
  for (const numbers of byLine.values()) {
    for (const n of numbers) {
      if (kept.has(n) || heldByDouble(n.token)) continue
      const read = Number(n.token)
      parsed.errors.push({
        file,
        line: n.line,
        field: n.path.join('.') || '(value)',
        message: `the number ${n.token} cannot be read exactly (it would become ${Number.isFinite(read) ? String(read) : 'infinite, written back as null'}); write it as a string if it is an id or a code`
      })
    }
  }
  parsed.errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

/** Replaces the number at path with its written text, when the value there is still that number. */
function keepAt(root: Record<string, unknown>, path: ReadonlyArray<string | number>, token: string): boolean {
  let node: unknown = root
  for (const step of path.slice(0, -1)) {
    if (!node || typeof node !== 'object') return false
    node = (node as Record<string | number, unknown>)[step]
  }
  const last = path[path.length - 1]!
  if (!node || typeof node !== 'object' || typeof (node as Record<string | number, unknown>)[last] !== 'number') return false
  ;(node as Record<string | number, unknown>)[last] = { [SOURCE_NUMBER_KEY]: token }
  return true
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** A number kept as the text it was written in, as `keepWrittenNumbers` stores it. */
function writtenNumber(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const keys = Object.keys(v)
  const t = (v as Record<string, unknown>)[SOURCE_NUMBER_KEY]
  return keys.length === 1 && typeof t === 'string' && NUMBER_TEXT.test(t) ? t : null
}

/**
 * JSON text of a value with every number kept as written put back as that number's text, so a file Assay writes in
 * an import format (probes in the pairs format) says what the imported file said.
 */
export function jsonWithWrittenNumbers(value: unknown): string {
  const texts: string[] = []
  const mark = `\u0000n${Math.random().toString(36).slice(2)}:`
  const json = JSON.stringify(value, (_key, v: unknown) => {
    const t = writtenNumber(v)
    if (t === null) return v
    texts.push(t)
    return `${mark}${texts.length - 1}`
  })
  if (!texts.length) return json
  const escaped = JSON.stringify(mark).slice(1, -1)
  return json.replace(new RegExp(`"${escaped.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(\\d+)"`, 'g'), (_m, i: string) => texts[Number(i)]!)
}
