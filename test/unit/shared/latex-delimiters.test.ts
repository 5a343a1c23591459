import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { toHtml } from 'hast-util-to-html'
import { describe, expect, it } from 'vitest'
import { mapLatexDelimiters } from '../../../src/shared/markdown/latex-delimiters'
import { markdownHast } from '../../../src/shared/markdown/pipeline'
import { DELIMITED_PROBLEM } from '../../support/latex-delimited'
import { sharedDir } from '../../support/tmp'

// `\(…\)` and `\[…\]` are maths: rendered by KaTeX with the offsets of the source as written.

interface Rendered {
  /** Each formula's source, as its rendered offsets slice it. */
  formulas: string[]
  /** The rendered text outside formulas. */
  prose: string
  html: string
}

function render(text: string): Rendered {
  const html = toHtml(markdownHast(text) as never)
  const formulas = [...html.matchAll(/class="md-math[^"]*" data-src-start="(\d+)" data-src-end="(\d+)"/g)].map((m) => text.slice(Number(m[1]), Number(m[2])))
  const prose = html
    .replace(/<span class="md-math[^]*?<\/annotation>/g, '')
    .replace(/<code>[^]*?<\/code>/g, '')
    .replace(/<[^>]+>/g, '')
  return { formulas, prose, html }
}

/** A text's formulas written with LaTeX's delimiters, as written. */
function delimited(text: string): string[] {
  return mapLatexDelimiters(text).spans.map((s) => text.slice(s.start, s.end))
}

describe('LaTeX delimiters', () => {
  it('gives text and formulas spans that never overlap', () => {
    const html = render(DELIMITED_PROBLEM.problem).html
    const spans = [...html.matchAll(/data-src-start="(\d+)" data-src-end="(\d+)"/g)].map((m) => [Number(m[1]), Number(m[2])] as const)
    for (let k = 1; k < spans.length; k++) expect(spans[k]![0]).toBeGreaterThanOrEqual(spans[k - 1]![1])
  })

  it('keeps every offset: the rewritten text is as long as the source and differs only at delimiters and their backticks', () => {
    const text = DELIMITED_PROBLEM.problem
    const mapped = mapLatexDelimiters(text)
    expect(mapped.text.length).toBe(text.length)
    for (let i = 0; i < text.length; i++) {
      if (mapped.text[i] !== text[i]) expect('\\()[]`').toContain(text[i])
    }
  })

  it('renders the fixture\'s \\(…\\), \\[…\\], backticked and doubled forms as formulas quoted as written', () => {
    const { formulas, prose, html } = render(DELIMITED_PROBLEM.problem)
    expect(formulas).toEqual([
      '\\(P\\)',
      '\\(U\\)',
      '\\[ U(T, P) = CT + f(P)\\,,\\]',
      '\\(f(P)\\)',
      '\\(p\\)',
      '\\\\(p=PV\\\\)',
      '\\(\\frac{a}{b}\\)',
      expect.stringMatching(/^\\\[\n\\sum[^]*\n\\\]$/),
      '\\(x\\)'
    ])
    // No LaTeX left in the prose, nothing KaTeX could not read.
    expect(prose).not.toMatch(/\\frac|\\sum|\\,|\\\(|\\\[/)
    expect(html).not.toContain('katex-error')
    // Display maths is display maths, twice (the one-line \[…\] and the block).
    expect(html.match(/md-math-display/g)).toHaveLength(2)
    // A code span without a closed formula stays code.
    expect(html).toMatch(/<code><span[^>]*>a \\\( b<\/span><\/code>/)
  })

  it('renders the reference answer wrapped in backticks as a formula', () => {
    expect(render(DELIMITED_PROBLEM.answer).formulas).toEqual(['\\(U = CT + \\frac{P^2}{2\\chi \\epsilon_0}\\)'])
  })

  it('leaves dollar maths and escaped parentheses alone', () => {
    expect(render('Cost $a \\(b$ and \\\\\\(c\\) (three backslashes) and \\( alone.').formulas).toEqual(['$a \\(b$'])
  })
})

const DATA = join(sharedDir, 'data', 'frontierscience')
const present = existsSync(join(DATA, 'olympiad.jsonl'))

describe.skipIf(!present)(present ? 'LaTeX delimiters on the FrontierScience gold set' : 'LaTeX delimiters on the FrontierScience gold set (skipped: source documents not present)', () => {
  it('renders every delimited formula of every olympiad problem and answer, with no raw LaTeX left in the prose', () => {
    const rows = readFileSync(join(DATA, 'olympiad.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { problem: string; answer: string })
    let texts = 0
    let formulas = 0
    for (const row of rows) {
      for (const text of [row.problem, row.answer]) {
        const written = delimited(text)
        if (!written.length) continue
        texts++
        const r = render(text)
        // Every formula written with the delimiters is rendered, and its offsets slice exactly what was written.
        const rendered = r.formulas.filter((f) => f.startsWith('\\'))
        expect(rendered).toEqual(written)
        formulas += written.length
        // No pair of delimiters is left in the prose (a lone `\[` of a SMILES string is no formula).
        expect(r.prose).not.toMatch(/\\\(.*?\\\)|\\\[.*?\\\]/)
      }
    }
    // 66 of the problems write maths this way.
    expect(texts).toBeGreaterThanOrEqual(66)
    expect(formulas).toBeGreaterThan(900)
  })
})
