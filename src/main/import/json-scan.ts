import { jsonKey } from './json-key'
import { heldByDouble, unusualNumbers } from './numbers'

// JSON.parse keeps the last of two equal keys without a word, turns a `__proto__` key into something spreading and
// assigning silently drop, and nothing after it survives a thousand levels of nesting (JSON.stringify and schema
// checks recurse). One pass over the text finds all three, with the line, before anything is parsed.

/** Deeper than any data Assay reads; deep enough to be far from the stack limit of every later recursive step. */
export const MAX_JSON_DEPTH = 64

/** Keys that would reach an object's prototype machinery instead of being data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

export interface JsonScanProblem {
  /** 1-based line within the scanned text, offset by `firstLine`. */
  line: number
  /** The key (dotted path of keys) the problem is about, where there is one. */
  field?: string
  message: string
}

const STRING_STOP = /["\\\n]/g

interface Frame {
  array: boolean
  keys: Set<string> | null
  /** The key path of this container, for messages. */
  path: string
  /** Object: the next string is a key. */
  expectingKey: boolean
  lastKey: string | null
}

/**
 * Scans JSON text (assumed well-formed or not: malformed text is left to JSON.parse to report) for nesting deeper
 * than `maxDepth`, a key that appears twice in one object, and forbidden keys. Returns the first problem or null.
 */
export function scanJson(text: string, firstLine = 1, maxDepth = MAX_JSON_DEPTH): JsonScanProblem | null {
  const stack: Frame[] = []
  let line = firstLine
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) {
      line++
      continue
    }
    if (c === 34) {
      // A string: find its end, count newlines (only malformed JSON has raw ones), decode it only when a key.
      let j = i + 1
      let escaped = false
      // Jump from one quote, backslash or newline to the next: most of a data file is the inside of strings.
      for (;;) {
        STRING_STOP.lastIndex = j
        const stop = STRING_STOP.exec(text)
        if (!stop) {
          j = text.length
          break
        }
        j = stop.index
        const d = text.charCodeAt(j)
        if (d === 92) {
          escaped = true
          j += 2
          continue
        }
        if (d === 34) break
        line++
        j++
      }
      const top = stack[stack.length - 1]
      if (top && !top.array && top.expectingKey) {
        const key = jsonKey(text.slice(i + 1, j), escaped)
        const where = top.path ? `${top.path}.${key}` : key
        if (FORBIDDEN_KEYS.has(key)) return { line, field: where, message: `the key "${key}" is not accepted as data (rename it)` }
        if (top.keys!.has(key)) return { line, field: where, message: `the key "${key}" appears twice in one object` }
        top.keys!.add(key)
        top.lastKey = key
        top.expectingKey = false
      }
      i = j
      continue
    }
    if (c === 123 || c === 91) {
      if (stack.length >= maxDepth) return { line, message: `nested deeper than ${maxDepth} levels` }
      const top = stack[stack.length - 1]
      const path = top ? (top.array ? top.path : top.path ? `${top.path}.${top.lastKey ?? ''}` : (top.lastKey ?? '')) : ''
      stack.push({ array: c === 91, keys: c === 123 ? new Set() : null, path, expectingKey: c === 123, lastKey: null })
      continue
    }
    if (c === 125 || c === 93) {
      stack.pop()
      continue
    }
    if (c === 44) {
      const top = stack[stack.length - 1]
      if (top && !top.array) top.expectingKey = true
    }
  }
  return null
}

/**
 * JSON.parse after the scan: the value, or the first problem (malformed JSON included, and a number a double cannot
 * hold, which JSON.parse would round) with its message.
 */
export function parseJsonChecked(text: string, firstLine = 1): { ok: true; value: unknown } | { ok: false; problem: JsonScanProblem } {
  const problem = scanJson(text, firstLine)
  if (problem) return { ok: false, problem }
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch (e) {
    return { ok: false, problem: { line: firstLine, message: `not valid JSON: ${(e as Error).message}` } }
  }
  const lost = unusualNumbers(text, firstLine).find((n) => !heldByDouble(n.token))
  if (lost) return { ok: false, problem: { line: lost.line, ...(lost.path.length ? { field: lost.path.join('.') } : {}), message: `the number ${lost.token} cannot be read exactly (a double would change it)` } }
  return { ok: true, value }
}

/**
 * Whether JSON text nests containers deeper than `maxDepth` (strings skipped, nothing else checked): for request
 * bodies, whose keys are the contract's and need no duplicate or key check, only a bound on what recursion meets.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 92) i++
        else if (d === 34) break
      }
    } else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

