// Display maths written as a bare LaTeX environment, with no `$$` or `\[` around it, as some FrontierScience research
// answers write it: `\begin{align}…\end{align}`, or Markdown-escaped `\\begin{equation}…\\end{equation}`.

import { formulaAsRead, markdownEscaped } from './maths-escapes'

/**
 * The environments KaTeX draws (node_modules/katex/src/environments/array.ts), all of them in display mode. Any other
 * (itemize, enumerate, tabular, figure) is a text environment and stays text.
 */
const MATHS_ENVIRONMENTS = new Set([
  'equation', 'equation*', 'align', 'align*', 'aligned', 'alignat', 'alignat*', 'alignedat', 'gather', 'gather*', 'gathered', 'split',
  'cases', 'dcases', 'rcases', 'drcases', 'array', 'darray', 'subarray', 'smallmatrix', 'CD',
  'matrix', 'pmatrix', 'bmatrix', 'Bmatrix', 'vmatrix', 'Vmatrix', 'matrix*', 'pmatrix*', 'bmatrix*', 'Bmatrix*', 'vmatrix*', 'Vmatrix*'
])

/** Those KaTeX numbers; each has a starred form that does not. */
const NUMBERED = new Set(['equation', 'align', 'gather', 'alignat'])

/** `\begin{name}` or `\end{name}`, with the star Markdown-escaped or not (`align\*`). */
const MARKER = /(\\+)(begin|end)\{([A-Za-z]+)(\\?\*)?\}/g

/** A blank line followed by what starts a Markdown block of its own: the environment was never closed there. */
const NEW_BLOCK = /\n[ \t]*\n[ \t]*(?:[-*+]|\d+[.)]|#{1,6}|>)\s/

/** One backslash is LaTeX as written; two are it Markdown-escaped; a closer may follow a row break (`\\\end`). */
const kindOf = (backslashes: number) => (backslashes % 2 === 1 ? 'raw' : 'escaped')

export interface Environment {
  end: number
  /** What the rewritten source has over the environment: `$…$` maths of the same length, read as KaTeX should read it. */
  text: string
}

/**
 * The maths environment whose `\begin` starts with the backslash at `i`, if any: closed by the matching `\end` of the
 * same kind (nested ones of its name counted), with no dollar or backtick inside. KaTeX reads the environment itself,
 * as display maths; lines are joined, so a blank line inside (research row 2) does not end the paragraph, and
 * whitespace runs become one space to make room for the `$` delimiters.
 */
export function environmentAt(s: string, i: number): Environment | null {
  MARKER.lastIndex = i
  const open = MARKER.exec(s)
  if (!open || open.index !== i || open[2] !== 'begin' || open[1]!.length > 2) return null
  const kind = kindOf(open[1]!.length)
  const name = open[3]! + (open[4] ? '*' : '')
  if (!MATHS_ENVIRONMENTS.has(name) || (kind === 'raw' && open[4] === '\\*')) return null
  let depth = 1
  for (let m = MARKER.exec(s); m; m = MARKER.exec(s)) {
    if (m[3]! + (m[4] ? '*' : '') !== name || kindOf(m[1]!.length) !== kind) continue
    depth += m[2] === 'begin' ? 1 : -1
    if (depth) continue
    const end = m.index + m[0].length
    const written = s.slice(i, end)
    if (/[$`]/.test(written) || NEW_BLOCK.test(written)) return null
    const escaped = kind === 'escaped'
    if (escaped && !markdownEscaped(written.slice(open[0].length, m.index - i), true)) return null
    const read = formulaAsRead(written, escaped, !name.startsWith('equation'))
    // A comment would run on over the joined lines.
    if (/(?:^|[^\\])(?:\\\\)*%/.test(read)) return null
    const joined = read
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^(\\begin\{[^}]*\}) /, '$1')
      .replace(/([^\\]) (\\end\{[^}]*\})$/, '$1$2')
    // KaTeX numbers `equation` and `align` by a counter over the whole page, (1), (2)…, which are not the writer's
    // numbers; starred, only the writer's own `\tag{19}` is shown. Left numbered if the star does not fit.
    const unnumbered = NUMBERED.has(name) ? joined.replace(`{${name}}`, `{${name}*}`).replace(/\{(\w+)\}$/, '{$1*}') : joined
    const tex = unnumbered.length + 2 <= written.length ? unnumbered : joined
    if (tex.length + 2 > written.length) return null
    return { end, text: `$${tex}`.padEnd(written.length - 1, ' ') + '$' }
  }
  return null
}
