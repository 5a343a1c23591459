// LaTeX's own delimiters, `\(…\)` and `\[…\]`, as FrontierScience and many other sources write maths. Markdown reads
// `\(` as an escaped parenthesis and drops the backslash, so the text is rewritten before parsing into the dollar
// maths remark-math reads, character for character: every other character keeps its offset, and each formula's
// span is recorded so its rendered offsets cover the original delimiters (a quote of it is the source as written).
//
// The same pass reads formulas written Markdown-escaped (see maths-escapes), leaves `\[…\]` that are escaped
// brackets as text, and keeps a `$` of money as text (see dollarCloser).

import type { Root } from 'mdast'
import { visit } from 'unist-util-visit'
import { displayMaths, formulaAsRead, markdownEscaped } from './maths-escapes'
import { environmentAt } from './maths-environments'

/** A formula written with LaTeX's delimiters: where it sits in the source, delimiters included. */
export interface DelimitedSpan {
  start: number
  end: number
  display: boolean
}

export interface DelimitedMaths {
  /** The source with those delimiters turned into dollar maths; the same length as the source. */
  text: string
  spans: DelimitedSpan[]
}

/**
 * What the rewritten text has for a `$` that is text, not maths (`$5 and $10`): remark-math would pair any two,
 * and Markdown has no one-character escape for it. A Unicode noncharacter, kept for such internal use;
 * remarkLiteralDollars puts the `$` back after parsing.
 */
export const LITERAL_DOLLAR = '\uFDD0'

const FENCE = /^ {0,3}(`{3,}|~{3,})/

function lineEnd(s: string, i: number): number {
  const at = s.indexOf('\n', i)
  return at < 0 ? s.length : at
}

/** Whether only spaces stand between `from` and `to`. */
const blank = (s: string, from: number, to: number) => !s.slice(from, to).trim()

/** How many backslashes stand right before `at`. */
function backslashesBefore(s: string, at: number): number {
  let b = 0
  while (s[at - 1 - b] === '\\') b++
  return b
}

/**
 * A delimiter's backslashes: one is LaTeX as written (`\(`); two are the same delimiter Markdown-escaped (`\\(`), and
 * so are three before a bracket, as an escaper writes `\[` escaping the bracket too (`\\\[`); other counts are no
 * delimiter (`\\\(` is an escaped backslash before an escaped parenthesis).
 */
function kindOf(backslashes: number, bracket: string): 'raw' | 'escaped' | null {
  if (backslashes === 1) return 'raw'
  return backslashes === 2 || (backslashes === 3 && (bracket === '[' || bracket === ']')) ? 'escaped' : null
}

interface Found {
  /** Where the closer's backslashes start, and where the formula ends. */
  close: number
  end: number
  display: boolean
  /** The inside was Markdown-escaped, so is read unescaped. */
  escaped: boolean
}

/**
 * Whether a closer of `r` backslashes closes an opener of `kind`. An escaped `\\(` may be closed by a plain `\)`, as
 * some rows write it (`\\(a, b, c, d\)`); an escaped `\\[` never by `\]`, which is a bracket escaped inside it.
 */
const closes = (kind: 'raw' | 'escaped', open: string, r: number) => kindOf(r, open) === kind || (kind === 'escaped' && open === '(' && r === 1)

/** Delimiters of a kind, openers or closers of either bracket, as a pattern over a formula's inside. */
const DELIMITERS = {
  raw: { open: /(?:^|[^\\])\\[([]/, close: { '(': /(?:^|[^\\])\\\]/, '[': /(?:^|[^\\])\\\)/ } },
  escaped: { open: /(?:^|[^\\])\\{2,3}[([]/, close: { '(': /(?:^|[^\\])\\{2,3}\]/, '[': /(?:^|[^\\])\\{2,3}\)/ } }
} as const

/**
 * The formula whose opener's backslash run starts at `i`, if any: closed by the nearest closer of its kind within
 * the paragraph, with no dollar, backtick or other delimiter of its kind in between (a row that opens with `\\(`
 * and closes with `\\]` has no formula there); a `\[…\]` only where it reads as maths.
 */
function formulaAt(s: string, i: number): Found | null {
  let b = 0
  while (s[i + b] === '\\') b++
  const open = s[i + b]
  const kind = open === undefined ? null : kindOf(b, open)
  if (!kind || (open !== '(' && open !== '[')) return null
  const from = i + b + 1
  const closer = open === '(' ? ')' : ']'
  for (let j = s.indexOf(closer, from); j >= 0; j = s.indexOf(closer, j + 1)) {
    const r = backslashesBefore(s, j)
    if (j - r < from || !closes(kind, open, r)) continue
    const content = s.slice(from, j - r)
    if (/\n[ \t]*\n|[$`]/.test(content) || DELIMITERS[kind].open.test(content) || DELIMITERS[kind].close[open].test(content)) return null
    const display = open === '['
    if (display && !displayMaths(content, s[i - 1], s[j + 1])) return null
    return { close: j - r, end: j + 1, display, escaped: markdownEscaped(content, kind === 'escaped') }
  }
  return null
}

/** Whether a text holds a formula written with LaTeX's delimiters. */
function holdsFormula(s: string): boolean {
  for (let i = s.indexOf('\\'); i >= 0; i = s.indexOf('\\', i + 1)) {
    if (s[i - 1] !== '\\' && formulaAt(s, i)) return true
  }
  return false
}

/**
 * Where the `$…$` formula opened at `i` closes, or -1: at the next unescaped `$` in the paragraph. One that holds a
 * LaTeX command is maths however it is spaced (rows write `$ \\mathbf{v} $`); any other pair only by pandoc's rule,
 * so that money stays text (`$5 and $10`, `$5/$10`): a non-space after the opener, one before the closer, and no
 * digit after it.
 */
function dollarCloser(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++
    else if (s[j] === '\n' && /^\n[ \t]*(\n|$)/.test(s.slice(j))) return -1
    else if (s[j] === '$') {
      if (/\\[A-Za-z]/.test(s.slice(i + 1, j))) return j
      return /\s/.test(s[i + 1]!) || /\s/.test(s[j - 1]!) || /\d/.test(s[j + 1] ?? '') ? -1 : j
    }
  }
  return -1
}

/** Where the code span opened by the backtick run at `i` (`m` long) closes, or -1. */
function codeCloser(s: string, i: number, m: number): number {
  const run = '`'.repeat(m)
  let k = s.indexOf(run, i + m)
  while (k >= 0 && (s[k + m] === '`' || s[k - 1] === '`')) {
    let e = k
    while (s[e] === '`') e++
    k = s.indexOf(run, e)
  }
  return k
}

/**
 * Rewrites `\(…\)` and `\[…\]` (outside code and dollar maths) as dollar maths of the same length. A code span whose
 * content holds such maths is taken for a writer's mark-up, not code: its backticks become spaces and its maths is
 * read. One-line formulas become `$$…$$` text maths; a display formula over several lines becomes a math block when
 * its delimiters stand on their own lines, else `$…$` text maths shown as display (see remarkDisplayMathLines).
 * A formula written Markdown-escaped (`\\( \\vec{F} \\)`, `$S\_{\\uparrow}$`) is read unescaped, and a `$` that
 * opens no formula by pandoc's rule is written LITERAL_DOLLAR. A bare maths environment (`\begin{align}…`) is display
 * maths (see environmentAt).
 */
export function mapLatexDelimiters(source: string): DelimitedMaths {
  if (!/[\\$]/.test(source)) return { text: source, spans: [] }
  const out = source.split('')
  const spans: DelimitedSpan[] = []
  const put = (at: number, text: string) => {
    for (let k = 0; k < text.length; k++) out[at + k] = text[k]!
  }
  const readInside = (from: number, to: number, escaped: boolean) => put(from, formulaAsRead(source.slice(from, to), escaped))
  const n = source.length
  let i = 0
  while (i < n) {
    const lineStart = i === 0 || source[i - 1] === '\n'
    if (lineStart) {
      const fence = FENCE.exec(source.slice(i, lineEnd(source, i)))
      if (fence) {
        const mark = fence[1]!
        let j = lineEnd(source, i) + 1
        while (j < n && !new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`).test(source.slice(j, lineEnd(source, j)))) j = lineEnd(source, j) + 1
        i = lineEnd(source, j) + 1
        continue
      }
    }
    const c = source[i]!
    // The closing backticks of a span already read as mark-up.
    if (c === '`' && out[i] === ' ') {
      i++
      continue
    }
    if (c === '`') {
      let m = 1
      while (source[i + m] === '`') m++
      const k = codeCloser(source, i, m)
      if (k < 0) {
        i += m
        continue
      }
      if (holdsFormula(source.slice(i + m, k))) {
        put(i, ' '.repeat(m))
        put(k, ' '.repeat(m))
        i += m
      } else i = k + m
      continue
    }
    if (c === '$') {
      if (source[i + 1] === '$') {
        const close = source.indexOf('$$', i + 2)
        if (close < 0) {
          i += 2
          continue
        }
        readInside(i + 2, close, markdownEscaped(source.slice(i + 2, close), false))
        i = close + 2
        continue
      }
      const close = dollarCloser(source, i)
      if (close < 0) {
        out[i] = LITERAL_DOLLAR
        i++
        continue
      }
      readInside(i + 1, close, markdownEscaped(source.slice(i + 1, close), false))
      i = close + 1
      continue
    }
    if (c === '\\') {
      let b = 1
      while (source[i + b] === '\\') b++
      const found = formulaAt(source, i)
      if (found) {
        const from = i + b + 1
        const { display } = found
        let { close: j, end } = found
        readInside(from, j, found.escaped)
        // Formulas written back to back (`\( _3) \)\( _2 \)`) are read as one: their `$$$$` would be no delimiter.
        for (let next = formulaAt(source, end); next && next.display === display && !source.slice(i, next.end).includes('\n'); next = formulaAt(source, end)) {
          const nextFrom = source.indexOf(display ? '[' : '(', end) + 1
          put(j, ' '.repeat(nextFrom - j))
          readInside(nextFrom, next.close, next.escaped)
          j = next.close
          end = next.end
        }
        const width = from - i
        const oneLine = !source.slice(i, end).includes('\n')
        const closeWidth = end - j
        // A math block needs its fences alone on their lines: the opener's line holds nothing after it, the
        // closer's nothing around it.
        const block = !oneLine && display && blank(source, from, lineEnd(source, from)) && blank(source, source.lastIndexOf('\n', j - 1) + 1, j) && blank(source, end, lineEnd(source, end))
        // Padding goes inside the formula (where KaTeX ignores it), so its span is exactly the source's.
        const mark = oneLine || block ? '$$' : '$'
        put(i, mark.padEnd(width, ' '))
        put(j, mark.padStart(closeWidth, ' '))
        spans.push({ start: i, end, display })
        i = end
        continue
      }
      const environment = environmentAt(source, i)
      if (environment) {
        put(i, environment.text)
        spans.push({ start: i, end: environment.end, display: true })
        i = environment.end
        continue
      }
      // An escaped character is text, whatever it is.
      i += b % 2 === 1 && source[i + b] !== undefined ? b + 1 : b
      continue
    }
    i++
  }
  return { text: out.join(''), spans }
}

/** The recorded span that holds [start, end), if any. */
export function spanHolding(spans: ReadonlyArray<DelimitedSpan>, start: number, end: number): DelimitedSpan | undefined {
  return spans.find((s) => s.start <= start && end <= s.end)
}

/** Puts back the `$` mapLatexDelimiters wrote LITERAL_DOLLAR wherever parsed text holds one. */
export function remarkLiteralDollars() {
  const restore = (v: string) => v.replaceAll(LITERAL_DOLLAR, '$')
  return (tree: Root) => {
    visit(tree, (node) => {
      const n = node as { value?: unknown; url?: unknown; title?: unknown; alt?: unknown }
      if (typeof n.value === 'string') n.value = restore(n.value)
      if (typeof n.url === 'string') n.url = restore(n.url)
      if (typeof n.title === 'string') n.title = restore(n.title)
      if (typeof n.alt === 'string') n.alt = restore(n.alt)
    })
  }
}
