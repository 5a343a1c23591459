// What a formula's inside says about how it was written. Much real data (FrontierScience's research track, some of
// its olympiad problems) was run through a Markdown escaper: every backslash doubled, `_ * [ ]` escaped, so
// `\frac{a}{b}_1` reads `\\frac{a}{b}\_1` and `\(` reads `\\(`. Shown as Markdown, such text reads as LaTeX again,
// which is how the writers saw it; a formula so written is read with those escapes undone.

/** A LaTeX command written with an odd run of backslashes: `\frac`, not `\\frac`. */
const RAW_COMMAND = /(?:^|[^\\])(?:\\\\)*\\[A-Za-z]/
/** A LaTeX command with its backslash escaped: `\\frac`, as no formula writes one (a line break is `\\ `). */
const ESCAPED_COMMAND = /(?:^|[^\\])(?:\\\\)+[A-Za-z]/
/** A Markdown escape that means nothing in a formula: `\_`, `\*`, `\[`, `\]`. */
const ESCAPED_MARKUP = /(?:^|[^\\])(?:\\\\)*\\[_*[\]]/

/**
 * Whether a formula's inside was Markdown-escaped: none of its commands is written with one backslash, and either
 * its delimiters were escaped (`\\(`) or something inside was (`\\frac`, `\_`).
 */
export function markdownEscaped(content: string, escapedDelimiters: boolean): boolean {
  if (RAW_COMMAND.test(content)) return false
  return escapedDelimiters || ESCAPED_COMMAND.test(content) || ESCAPED_MARKUP.test(content)
}

const PUNCTUATION = /[!-/:-@[-`{-~]/
/** The character references of HTML's specials, as rows escape `<` in `\\(q &gt; 0\\)`; prose reads them, maths must too. */
const ENTITY = /&(lt|gt|amp);/g
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&' }

/**
 * A formula's inside as KaTeX should read it: HTML's `&lt; &gt; &amp;` as their characters and, if it was
 * Markdown-escaped, Markdown's backslash escapes (a backslash before ASCII punctuation) undone. Line by line, each
 * line padded with spaces to its length so the text keeps every offset; the padding stays inside the formula, where
 * KaTeX ignores it. With `rows` (an environment whose rows `\\` breaks), an escaped text's `\\` before a space is
 * taken for the row break it is written beside (`\\tag{36} \\ \\langle`), not for a control space.
 */
export function formulaAsRead(content: string, escaped: boolean, rows = false): string {
  return content
    .split('\n')
    .map((line) => {
      let out = ''
      for (let k = 0; k < line.length; k++) {
        if (escaped && rows && line.startsWith('\\\\', k) && line[k - 1] !== '\\' && /^(\s|$)/.test(line.slice(k + 2, k + 3))) {
          out += '\\\\'
          k++
          continue
        }
        if (escaped && line[k] === '\\' && k + 1 < line.length && PUNCTUATION.test(line[k + 1]!)) k++
        out += line[k]
      }
      // `\left{` is no TeX: the brace's backslash was lost to Markdown escaping (research row 16). The doubled
      // backslash before `left` leaves room to put it back.
      if (escaped) out = out.replace(/(\\(?:left|right|[bB]igg?[lr]?))([{}])/g, '$1\\$2')
      return out.replace(ENTITY, (_, name: string) => ENTITIES[name]!).padEnd(line.length, ' ')
    })
    .join('\n')
}

/** Something only maths has: a command, a sub- or superscript, a relation. A chemical's `[nH]` or a citation's `[1]` has none. */
const MATHS = /\\[A-Za-z]|[=^_<>≤≥≈≠±×·∑∫√∞→]/

/**
 * Whether `\[…\]` is display maths rather than a pair of Markdown-escaped brackets (SMILES `c2\[nH\]n1`,
 * `K3\[Co(NO2)6\]`, `bicyclo\[3.2.1\]octane`, a citation `\[1\]`, `\[4+2\] cycloaddition`): its inside looks like
 * maths and it is not glued to a letter or digit on either side, as brackets inside a name or formula are.
 */
export function displayMaths(content: string, before: string | undefined, after: string | undefined): boolean {
  const glued = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c)
  return MATHS.test(content) && !glued(before) && !glued(after)
}
