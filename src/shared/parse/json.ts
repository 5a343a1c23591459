import { failed, parsed, type ParseResult } from './result'

// Models wrap JSON in fences, put prose before or after it, or stop mid-object. The parser tries, in turn: the
// whole answer; ```json (or unlabelled) fenced blocks; balanced {...} spans found by a scan that respects strings.
// It never repairs JSON (no trailing-comma or quote fixing): an answer that needs repair is reported unparseable.

export type JsonObject = Record<string, unknown>

export interface JsonParseOptions {
  /** Which object to take when several parse: the final answer is usually the last (default). */
  prefer?: 'first' | 'last'
}

function asObject(text: string): ParseResult<JsonObject> {
  try {
    const value: unknown = JSON.parse(text)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return parsed(value as JsonObject)
    return failed(`expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`)
  } catch (err) {
    return failed((err as Error).message)
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const FENCED = /```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g
const JSON_FENCE_LANGS = new Set(['', 'json', 'jsonc', 'json5'])

function fencedBlocks(text: string): string[] {
  const blocks: string[] = []
  for (const m of text.matchAll(FENCED)) {
    if (JSON_FENCE_LANGS.has((m[1] ?? '').toLowerCase())) blocks.push((m[2] ?? '').trim())
  }
  return blocks
}

/** The index just past the "}" closing the object that opens at `start`, or -1 when the text ends first. */
function objectEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

interface Scan {
  spans: string[]
  /** An object that opens like JSON ('{' then '"' or '}') and never closes: a cut-off answer. */
  truncated: boolean
}

/** Top-level brace-balanced spans, left to right. */
function scanObjects(text: string): Scan {
  const spans: string[] = []
  let i = text.indexOf('{')
  while (i >= 0) {
    const end = objectEnd(text, i)
    if (end < 0) {
      // Everything after an unclosed brace lies inside it; a lone brace in prose ("{x") is skipped.
      if (/^\{\s*["}]/.test(text.slice(i))) return { spans, truncated: true }
      i = text.indexOf('{', i + 1)
      continue
    }
    spans.push(text.slice(i, end))
    i = text.indexOf('{', end)
  }
  return { spans, truncated: false }
}

function pick<T>(items: readonly T[], prefer: 'first' | 'last'): T | undefined {
  return prefer === 'first' ? items[0] : items[items.length - 1]
}

function objectsOf(results: ReadonlyArray<ParseResult<JsonObject>>): JsonObject[] {
  return results.flatMap((r) => (r.ok ? [r.value] : []))
}

/** Finds the JSON object in a model's answer. */
export function parseJsonObject(text: string, options: JsonParseOptions = {}): ParseResult<JsonObject> {
  if (typeof text !== 'string') return failed('the answer is not text')
  const prefer = options.prefer ?? 'last'
  const body = text.replace(/^\uFEFF/, '').trim()
  if (body === '') return failed('empty answer')

  const whole = asObject(body)
  if (whole.ok) return whole
  // The whole answer is valid JSON of another type: that is the answer, and it is wrong.
  if (isJson(body)) return whole

  const fromFence = pick(objectsOf(fencedBlocks(body).map(asObject)), prefer)
  if (fromFence !== undefined) return parsed(fromFence)

  const scan = scanObjects(body)
  // A cut-off final object outranks earlier complete ones: they are drafts or examples, not the answer.
  if (scan.truncated) return failed('the answer ends inside a JSON object (cut off?)')
  const results = scan.spans.map(asObject)
  const found = pick(objectsOf(results), prefer)
  if (found !== undefined) return parsed(found)
  const lastError = results.at(-1)
  if (lastError !== undefined && !lastError.ok) {
    return failed(`no valid JSON object: ${results.length} brace-delimited span(s), the last fails with: ${lastError.error}`)
  }
  return failed('no JSON object in the answer')
}
