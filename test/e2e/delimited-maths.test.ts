import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewItem } from '../../src/main/store/items'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'
import { DELIMITED_PROBLEM } from '../support/latex-delimited'

// Maths written \(…\) and \[…\], as FrontierScience writes it, in the annotation screen: rendered by KaTeX in the
// problem, the reference answer and the response; a formula quoted as evidence is its source as written; a display
// formula wider than its column says that it scrolls and scrolls by keyboard.

const SECTIONS = ['Related Work', 'Experiments', 'Success Criteria', 'Impact Statement', 'References']
const proposal = (title: string, approach: string) =>
  [`# ${title}`, '', '## Introduction', '', 'An introduction.', '', '## Proposed Approach', '', approach, '', ...SECTIONS.flatMap((s) => [`## ${s}`, '', `${s}: none.`, ''])].join('\n')

const ITEMS: NewItem[] = [
  { kind: 'fs-problem', externalId: 'olympiad-1', set: 'fs', split: 'none', payload: DELIMITED_PROBLEM },
  {
    kind: 'proposal-pair',
    externalId: 'delimited-pair',
    set: 'maths',
    split: 'none',
    payload: {
      pair_id: 'delimited-pair',
      a: { markdown: proposal('Left', 'The energy is \\(E = mc^3\\) for every head.'), origin: 'human' },
      b: { markdown: proposal('Right', 'The energy is \\(E = mc^3\\) for every head.'), origin: 'ai' }
    }
  }
]

describe.skipIf(!hasChromium)(chromiumSuite('maths written with LaTeX delimiters'), () => {
  const suite = browserSuite('assay-delimited-')
  let page: Page

  beforeAll(async () => {
    page = await annotatorWorkbench(suite, suite.file('delimited.assay'), ITEMS, ['fs-olympiad-grade', 'flaw-audit'])
  })

  async function open(instrument: string): Promise<void> {
    if (await page.getByTestId('item').count()) await page.keyboard.press('q')
    await page.locator(`[data-testid=queue][data-instrument="${instrument}"]`).first().click()
    await page.locator(`[data-testid=item][data-instrument="${instrument}"]`).waitFor()
    await page.waitForFunction(() => !document.querySelector('[data-parsing]'))
  }

  it('renders \\(…\\) and \\[…\\] in the problem, the reference answer and the response, with no LaTeX left in the text', async () => {
    await open('fs-olympiad-grade')
    const source = page.getByTestId('item').locator('.annotate-source')
    // The text as read, code aside (a code span without a closed formula stays code).
    const text = await source.evaluate((el: HTMLElement) => {
      let read = el.innerText
      for (const code of el.querySelectorAll<HTMLElement>('code')) read = read.replace(code.innerText, '')
      return read
    })
    expect(text).not.toMatch(/\\\(|\\\[|\\frac|\\sum/)
    const formulas = await source.locator('.md-math').count()
    // Eleven in the problem, one in the reference answer, one in the response.
    expect(formulas).toBe(13)
    expect(await source.locator('.katex-error').count()).toBe(0)
  })

  it('reads a Markdown-escaped formula with its commands, and leaves a SMILES string\'s escaped brackets as text', async () => {
    const source = page.getByTestId('item').locator('.annotate-source')
    const magnus = source.locator('.md-math', { hasText: 'F' }).filter({ has: page.locator('annotation', { hasText: 'vec{F}' }) })
    expect(await magnus.locator('annotation').textContent()).toContain('\\vec{F}=S(\\vec{v}\\times\\vec{\\omega})')
    // Drawn on one line as F⃗ = S(v⃗ × ω⃗), not broken at a `\\` into `vecF = S(` / `vecv` / `times`.
    const drawn = await magnus.locator('.katex-html').evaluate((el: HTMLElement) => ({ text: el.innerText.replace(/\s+/g, ''), lines: el.querySelectorAll('.newline').length, tall: el.getBoundingClientRect().height }))
    expect(drawn.lines).toBe(0)
    expect(drawn.text).toMatch(/^F.*=S\(v.*×ω.*\)$/)
    expect(drawn.text).not.toMatch(/vec|times/)
    expect(drawn.tall).toBeLessThan(40)
    // The SMILES string reads as written, brackets and all, and no display formula holds it.
    const smiles = source.getByText('n1c2ccccc2[nH]n1', { exact: false })
    expect(await smiles.count()).toBeGreaterThan(0)
    expect(await source.locator('.md-math-display', { hasText: 'nH' }).count()).toBe(0)
  })

  it('shows that a wide display formula scrolls, and scrolls it with ← and →', async () => {
    const wide = page.getByTestId('item').locator('.katex-display[data-scrolls]')
    expect(await wide.count()).toBe(1)
    const hint = await wide.evaluate((el) => getComputedStyle(el.parentElement!, '::after').content)
    expect(hint).toContain('scroll it sideways')
    await wide.scrollIntoViewIfNeeded()
    expect(await wide.evaluate((el) => el.scrollLeft)).toBe(0)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => wide.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => wide.evaluate((el) => el.scrollLeft)).toBe(0)
  })

  it('quotes a formula written \\(…\\) as evidence exactly as written', async () => {
    await open('flaw-audit')
    await page.keyboard.press('+')
    await page.getByTestId('item').locator('[data-testid=list-entry]').waitFor()
    for (const key of ['a', '3', '3']) await page.keyboard.press(key)
    await page.evaluate(() => {
      const cell = document.querySelector('[data-section="Proposed Approach"] .pair-cell[data-side="a"]')!
      const formula = [...cell.querySelectorAll('.md-math')].find((m) => m.querySelector('annotation')?.textContent === 'E = mc^3')!
      const leaves = [...formula.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0 && s.textContent)
      const range = document.createRange()
      range.setStart(leaves[0]!.firstChild!, 0)
      range.setEnd(leaves[1]!.firstChild!, 1)
      const sel = window.getSelection()!
      sel.removeAllRanges()
      sel.addRange(range)
    })
    await page.keyboard.press('e')
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('\\(E = mc^3\\)')
  })
})
