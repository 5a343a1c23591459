// LaTeX's own delimiters, `\(…\)` and `\[…\]`, as FrontierScience and many other sources write maths. Markdown reads
// `\(` as an escaped parenthesis and drops the backslash, so the text is rewritten before parsing into the dollar
// maths remark-math reads, character for character: every other character keeps its offset, and each formula's
// span is recorded so its rendered offsets cover the original delimiters (a quote of it is the source as written).

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

const FENCE = /^ {0,3}(`{3,}|~{3,})/
/** A `\(…\)` or `\[…\]` pair (one or two backslashes, as some writers double them) anywhere in a text. */
const PAIR = /\\\\?\([^]*?\\\\?\)|\\\\?\[[^]*?\\\\?\]/

function lineEnd(s: string, i: number): number {
  const at = s.indexOf('\n', i)
  return at < 0 ? s.length : at
}

/** Whether only spaces stand between `from` and `to`. */
const blank = (s: string, from: number, to: number) => !s.slice(from, to).trim()

/**
 * Where the closer of an opener of `width` characters (`\(` or `\\(`) ending at `from` is, or -1: the nearest one
 * written with as many backslashes, within the paragraph, with no dollar or backtick in between.
 */
function closerOf(s: string, from: number, width: number, close: string): number {
  const closer = '\\'.repeat(width - 1) + close
  for (let j = s.indexOf(closer, from); j >= 0; j = s.indexOf(closer, j + 1)) {
    if (s[j - 1] === '\\') continue
    const inside = s.slice(from, j)
    if (/\n[ \t]*\n|[$`]/.test(inside)) return -1
    return j
  }
  return -1
}

/**
 * Rewrites `\(…\)` and `\[…\]` (outside code and dollar maths) as dollar maths of the same length. A code span whose
 * content holds such maths is taken for a writer's mark-up, not code: its backticks become spaces and its maths is
 * read. One-line formulas become `$$…$$` text maths; a display formula over several lines becomes a math block when
 * its delimiters stand on their own lines, else `$…$` text maths shown as display (see remarkDelimitedMaths).
 */
export function mapLatexDelimiters(source: string): DelimitedMaths {
  if (!source.includes('\\(') && !source.includes('\\[')) return { text: source, spans: [] }
  const out = source.split('')
  const spans: DelimitedSpan[] = []
  const put = (at: number, text: string) => {
    for (let k = 0; k < text.length; k++) out[at + k] = text[k]!
  }
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
      const run = '`'.repeat(m)
      let k = source.indexOf(run, i + m)
      while (k >= 0 && (source[k + m] === '`' || source[k - 1] === '`')) {
        let e = k
        while (source[e] === '`') e++
        k = source.indexOf(run, e)
      }
      if (k < 0) {
        i += m
        continue
      }
      if (PAIR.test(source.slice(i + m, k))) {
        put(i, ' '.repeat(m))
        put(k, ' '.repeat(m))
        i += m
      } else i = k + m
      continue
    }
    if (c === '$') {
      const double = source[i + 1] === '$'
      const close = source.indexOf(double ? '$$' : '$', i + (double ? 2 : 1))
      i = close < 0 ? i + (double ? 2 : 1) : close + (double ? 2 : 1)
      continue
    }
    if (c === '\\') {
      let b = 1
      while (source[i + b] === '\\') b++
      const next = source[i + b]
      if (b <= 2 && (next === '(' || next === '[')) {
        const width = b + 1
        const from = i + width
        const j = closerOf(source, from, width, next === '(' ? ')' : ']')
        if (j >= 0) {
          const end = j + width
          const display = next === '['
          const oneLine = !source.slice(i, end).includes('\n')
          const pad = ' '.repeat(width - 2)
          // A math block needs its fences alone on their lines: the opener's line holds nothing after it, the
          // closer's nothing around it.
          const block = !oneLine && display && blank(source, from, lineEnd(source, from)) && blank(source, source.lastIndexOf('\n', j - 1) + 1, j) && blank(source, end, lineEnd(source, end))
          // Padding goes inside the formula (where KaTeX ignores it), so its span is exactly the source's.
          if (oneLine || block) {
            put(i, `$$${pad}`)
            put(j, `${pad}$$`)
          } else {
            put(i, `$${' '.repeat(width - 1)}`)
            put(j, `${' '.repeat(width - 1)}$`)
          }
          spans.push({ start: i, end, display })
          i = end
          continue
        }
      }
      i += b % 2 === 1 && next !== undefined ? b + 1 : b
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
