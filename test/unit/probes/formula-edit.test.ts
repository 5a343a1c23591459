import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findEquations } from '../../../src/shared/probes/equations'
import { applyFormulaEdit, reapplyFormulaEdit } from '../../../src/shared/probes/formula-edit'
import { sideOf, textDiff } from '../../../src/shared/probes/diff'

const TEXT = [
  '# A proposal',
  '',
  'The loss is $L = a + b^2$ and `x - y` in code is not maths.',
  '',
  '$$',
  'E = \\frac{m c^2}{\\sqrt{1 - v^2}} \\cdot \\gamma_k',
  '$$',
  '',
  'Finally $y = 2\\pi r$.'
].join('\n')

describe('equations in the Markdown AST', () => {
  it('finds inline and display maths with offsets, not code spans', () => {
    const eqs = findEquations(TEXT)
    expect(eqs.map((e) => [e.display, e.tex])).toEqual([
      [false, 'L = a + b^2'],
      [true, 'E = \\frac{m c^2}{\\sqrt{1 - v^2}} \\cdot \\gamma_k'],
      [false, 'y = 2\\pi r']
    ])
    for (const e of eqs) expect(TEXT.slice(e.start, e.end)).toBe(e.tex)
  })
})

describe('deterministic formula edits', () => {
  it('is reproducible for a fixed seed and records the exact edit', () => {
    const one = applyFormulaEdit(TEXT, { seed: '7', key: 'p1:a' })!
    const two = applyFormulaEdit(TEXT, { seed: '7', key: 'p1:a' })!
    expect(one).toEqual(two)
    expect(one.markdown).not.toBe(TEXT)
    expect(TEXT.slice(one.edit.at.start, one.edit.at.end)).toBe(one.edit.from)
    expect(reapplyFormulaEdit(TEXT, one.edit)).toBe(one.markdown)
    expect(one.markdown).toContain(one.edit.equation.after)
    // Only the equation changed.
    const diff = textDiff(TEXT, one.markdown)
    expect(sideOf(diff, 'original')).toBe(TEXT)
    expect(sideOf(diff, 'probe')).toBe(one.markdown)
  })

  it('gives fixed results for fixed seeds', () => {
    const summary = ['1', '2', '3', '4', '5', '6'].map((seed) => {
      const r = applyFormulaEdit(TEXT, { seed, key: 'p1:a' })!
      return `${r.edit.op} ${JSON.stringify(r.edit.from)}->${JSON.stringify(r.edit.to)} in #${r.edit.equation.index}`
    })
    expect(summary).toMatchInlineSnapshot(`
      [
        "change-exponent "^2"->"^{3}" in #1",
        "change-exponent "^2"->"^{3}" in #1",
        "change-exponent "^2"->"^{3}" in #0",
        "change-exponent "^2"->"^{3}" in #0",
        "drop-factor "2"->"" in #2",
        "swap-sign "+"->"-" in #0",
      ]
    `)
  })

  it('swaps a binary sign only', () => {
    const r = applyFormulaEdit('$x = -a + b$', { seed: '1', key: 'k', ops: ['swap-sign'] })!
    expect(r.markdown).toBe('$x = -a - b$')
    expect(r.edit).toMatchObject({ op: 'swap-sign', from: '+', to: '-', at: { start: 8, end: 9 } })
  })

  it('changes an exponent', () => {
    expect(applyFormulaEdit('$a^2 = b$', { seed: '1', key: 'k', ops: ['change-exponent'] })!.markdown).toBe('$a^{3} = b$')
    expect(applyFormulaEdit('$a^{-1}$', { seed: '1', key: 'k', ops: ['change-exponent'] })!.markdown).toBe('$a^{1}$')
  })

  it('drops a factor: a denominator, a \\cdot operand, a coefficient', () => {
    expect(applyFormulaEdit('$\\frac{a}{b}$', { seed: '1', key: 'k', ops: ['drop-factor'] })!.markdown).toBe('${a}$')
    expect(applyFormulaEdit('$p = q \\cdot r_k$', { seed: '1', key: 'k', ops: ['drop-factor'] })!.markdown).toBe('$p = q$')
    expect(applyFormulaEdit('$c = 2\\pi r$', { seed: '1', key: 'k', ops: ['drop-factor'] })!.markdown).toBe('$c = \\pi r$')
  })

  it('never edits words set in maths', () => {
    expect(applyFormulaEdit('$\\text{cross-entropy} = 2$', { seed: '1', key: 'k', ops: ['swap-sign', 'drop-factor'] })).toBeNull()
    const r = applyFormulaEdit('$\\mathrm{log-loss} = a - b$', { seed: '1', key: 'k', ops: ['swap-sign'] })!
    expect(r.markdown).toBe('$\\mathrm{log-loss} = a + b$')
  })

  it('returns null when no equation admits an edit', () => {
    expect(applyFormulaEdit('No maths here, only `a + b` in code.', { seed: '1', key: 'k' })).toBeNull()
    expect(applyFormulaEdit('Just $x$.', { seed: '1', key: 'k' })).toBeNull()
  })

  it('edits the demo formula proposal', () => {
    const md = readFileSync(new URL('../../../resources/demo/proposals/demo-formula_b.md', import.meta.url), 'utf8')
    const r = applyFormulaEdit(md, { seed: 'demo', key: 'demo-formula:b' })!
    expect(r).not.toBeNull()
    expect(reapplyFormulaEdit(md, r.edit)).toBe(r.markdown)
  })

  it('refuses to reapply an edit to a changed original', () => {
    const r = applyFormulaEdit('$x = a + b$', { seed: '1', key: 'k' })!
    expect(() => reapplyFormulaEdit('$x = a * b$', r.edit)).toThrow(/no longer holds/)
  })
})

describe('the changes as the checker reads them', () => {
  it('names each change with its context, LaTeX as written', async () => {
    const { diffAsMarkdown } = await import('../../../src/shared/instruments/probe-check')
    const md = diffAsMarkdown(textDiff('We have $a + b$ here.', 'We have $a - b$ here, surely.'))
    expect(md).toContain('**replaced** ` + ` **with** ` - `')
    expect(md.split('\n')).toHaveLength(2)
    expect(diffAsMarkdown(textDiff('same', 'same'))).toBe('(no change)')
  })
})
