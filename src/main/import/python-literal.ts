import { BadDataError } from '../../shared/errors'
import { FORBIDDEN_KEYS, MAX_JSON_DEPTH } from './json-scan'
import { numberCell } from './numbers'

/**
 * A parser for Python literals as pandas and `repr()` write them into CSV cells: dicts, lists, tuples, strings
 * (single, double or triple quotes, r/u/b prefixes, escapes, adjacent strings joined), ints, floats, True, False,
 * None. `nan`/`inf` (which `repr` writes but which are not literals) become null, since JSON has no place for them.
 * Written out rather than done by replacing quotes, which breaks on apostrophes inside strings.
 */

export class PythonLiteralError extends BadDataError {
  constructor(
    message: string,
    readonly position: number
  ) {
    super(`${message} at character ${position + 1}`)
    this.name = 'PythonLiteralError'
  }
}

export function parsePythonLiteral(text: string): unknown {
  const p = new Parser(text)
  p.skipSpace()
  const value = p.value()
  p.skipSpace()
  if (!p.done()) p.fail('unexpected text after the value')
  return value
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v'
}

class Parser {
  private i = 0
  private depth = 0
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length
  }

  fail(message: string): never {
    throw new PythonLiteralError(message, this.i)
  }

  skipSpace(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++
  }

  private peek(): string {
    return this.s[this.i] ?? ''
  }

  private expect(c: string): void {
    if (this.peek() !== c) this.fail(`expected "${c}"`)
    this.i++
  }

  value(): unknown {
    const c = this.peek()
    if (c === '{' || c === '[' || c === '(') return this.nested(c)

    if (c === '"' || c === "'") return this.strings()
    if (/[rRuUbBfF]/.test(c) && /["']/.test(this.s[this.i + 1] ?? '')) return this.strings()
    if (/[rRbB]/.test(c) && /[rRbB]/.test(this.s[this.i + 1] ?? '') && /["']/.test(this.s[this.i + 2] ?? '')) return this.strings()
    if (/[-+0-9.]/.test(c)) return this.number()
    if (/[A-Za-z_]/.test(c)) return this.name()
    if (this.done()) this.fail('unexpected end of text')
    return this.fail(`unexpected character "${c}"`)
  }

  /** Containers, bounded in depth like JSON (json-scan.ts), so a hostile cell cannot exhaust the stack. */
  private nested(c: string): unknown {
    if (this.depth >= MAX_JSON_DEPTH) this.fail(`nested deeper than ${MAX_JSON_DEPTH} levels`)
    this.depth++
    try {
      return c === '{' ? this.dictOrSet() : c === '[' ? this.sequence('[', ']') : this.sequence('(', ')')
    } finally {
      this.depth--
    }
  }

  private dictOrSet(): unknown {
    this.expect('{')
    this.skipSpace()
    if (this.peek() === '}') {
      this.i++
      return {}
    }
    const first = this.value()
    this.skipSpace()
    if (this.peek() !== ':') {
      // A set literal: kept as a list.
      const items = [first]
      while (this.peek() === ',') {
        this.i++
        this.skipSpace()
        if (this.peek() === '}') break
        items.push(this.value())
        this.skipSpace()
      }
      this.expect('}')
      return items
    }
    const out: Record<string, unknown> = {}
    let key = first
    for (;;) {
      this.expect(':')
      this.skipSpace()
      const v = this.value()
      if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) this.fail('a dict key must be a string, number, bool or None')
      const name = String(key === null ? 'None' : key === true ? 'True' : key === false ? 'False' : key)
      // Python keeps the last of two equal keys; a repeated key in a data file is refused rather than dropped.
      if (FORBIDDEN_KEYS.has(name)) this.fail(`the key "${name}" is not accepted as data`)
      if (Object.prototype.hasOwnProperty.call(out, name)) this.fail(`the key "${name}" appears twice`)
      out[name] = v
      this.skipSpace()
      if (this.peek() === ',') {
        this.i++
        this.skipSpace()
      }
      if (this.peek() === '}') {
        this.i++
        return out
      }
      if (this.done()) this.fail('unclosed dict')
      key = this.value()
      this.skipSpace()
    }
  }

  private sequence(open: string, close: string): unknown[] {
    this.expect(open)
    const items: unknown[] = []
    this.skipSpace()
    while (this.peek() !== close) {
      if (this.done()) this.fail(`unclosed "${open}"`)
      items.push(this.value())
      this.skipSpace()
      if (this.peek() === ',') {
        this.i++
        this.skipSpace()
      } else if (this.peek() !== close) {
        this.fail(`expected "," or "${close}"`)
      }
    }
    this.i++
    return items
  }

  /** One string literal or several adjacent ones, which Python joins. */
  private strings(): string {
    let out = this.string()
    for (;;) {
      const save = this.i
      this.skipSpace()
      const c = this.peek()
      const prefixed = /[rRuUbB]/.test(c) && /["']/.test(this.s[this.i + 1] ?? '')
      if (c === '"' || c === "'" || prefixed) out += this.string()
      else {
        this.i = save
        return out
      }
    }
  }

  private string(): string {
    let raw = false
    while (/[rRuUbBfF]/.test(this.peek())) {
      if (/[fF]/.test(this.peek())) this.fail('f-strings are not literals')
      if (/[rR]/.test(this.peek())) raw = true
      this.i++
    }
    const quote = this.peek()
    if (quote !== '"' && quote !== "'") this.fail('expected a quote')
    const triple = this.s.startsWith(quote.repeat(3), this.i)
    const delimiter = triple ? quote.repeat(3) : quote
    const start = this.i
    this.i += delimiter.length
    let out = ''
    for (;;) {
      if (this.done()) {
        this.i = start
        this.fail('unterminated string')
      }
      if (this.s.startsWith(delimiter, this.i)) {
        this.i += delimiter.length
        return out
      }
      const c = this.s[this.i]!
      if (!triple && c === '\n') this.fail('line break inside a single-quoted string')
      if (c !== '\\') {
        out += c
        this.i++
        continue
      }
      const next = this.s[this.i + 1]
      if (next === undefined) this.fail('backslash at end of text')
      if (raw) {
        // In a raw string a backslash stays, but still keeps the next quote from ending the string.
        out += c + next
        this.i += 2
        continue
      }
      this.i += 2
      if (next === '\n') continue
      if (next in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[next]
      } else if (next === 'x') {
        out += this.codePoint(2)
      } else if (next === 'u') {
        out += this.codePoint(4)
      } else if (next === 'U') {
        out += this.codePoint(8)
      } else if (/[0-7]/.test(next)) {
        let digits = next
        while (digits.length < 3 && /[0-7]/.test(this.peek())) digits += this.s[this.i++]
        out += String.fromCodePoint(parseInt(digits, 8))
      } else if (next === 'N') {
        this.i -= 2
        this.fail('named escapes (\\N{...}) are not supported')
      } else {
        // Python keeps unknown escapes as written.
        out += `\\${next}`
      }
    }
  }

  private codePoint(length: number): string {
    const hex = this.s.slice(this.i, this.i + length)
    if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex)) this.fail(`expected ${length} hex digits`)
    this.i += length
    const cp = parseInt(hex, 16)
    if (cp > 0x10ffff) this.fail('code point out of range')
    return String.fromCodePoint(cp)
  }

  private number(): number | null {
    const sign = this.peek()
    if ((sign === '-' || sign === '+') && /[A-Za-z]/.test(this.s[this.i + 1] ?? '')) {
      this.i++
      const word = /^[A-Za-z]+/.exec(this.s.slice(this.i))![0]
      if (!['inf', 'nan', 'Infinity', 'NaN'].includes(word)) this.fail(`unknown name "${word}"`)
      this.i += word.length
      return null
    }
    const m = /^[-+]?(?:(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][-+]?\d+)?|\d[\d_]*\.)/.exec(this.s.slice(this.i))
    if (!m) return this.fail('malformed number')
    const text = m[0].replace(/_/g, '')
    if (/^[-+]?0\d/.test(text) && !/[.eE]/.test(text)) this.fail('leading zeros are not allowed in Python ints')
    this.i += m[0].length
    if (/[jJ]/.test(this.peek())) this.fail('complex numbers are not supported')
    // A score a double would round (an int beyond 2^53, 1e400) is refused, not silently changed.
    const value = numberCell(text)
    if (value === undefined) this.fail(`the number ${text} cannot be read exactly (a double would change it)`)
    return value
  }

  private name(): unknown {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))!
    const word = m[0]
    switch (word) {
      case 'True':
        this.i += word.length
        return true
      case 'False':
        this.i += word.length
        return false
      case 'None':
        this.i += word.length
        return null
      case 'nan':
      case 'inf':
      case 'NaN':
      case 'Infinity':
        this.i += word.length
        return null
      default:
        return this.fail(`unknown name "${word}"`)
    }
  }
}
