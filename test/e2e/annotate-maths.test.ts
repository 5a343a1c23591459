import Database from 'better-sqlite3'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { proposalMarkdownForView } from '../../src/shared/instruments/proposal-view'
import { hasChromium, chromiumSuite } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'
import { MATHS_PAIR as PAIR } from '../support/maths-pair'

// Maths as an annotator sees it, through the real Markdown component in the annotation screen: geometry of the
// rendered formulas (not class names), and evidence taken from a selection that runs into a formula.

interface Box {
  top: number
  bottom: number
  left: number
  right: number
  height: number
}

/** The vertical middle of a glyph's box: lower on screen is a larger number. */
function mid(b: Box): number {
  return (b.top + b.bottom) / 2
}

describe.skipIf(!hasChromium)(chromiumSuite('maths and evidence in the annotation screen'), () => {
  const suite = browserSuite('assay-maths-')
  let path: string
  let page: Page

  beforeAll(async () => {
    path = suite.file('maths.assay')
    page = await annotatorWorkbench(suite, path, [PAIR], ['pairwise-preference', 'flaw-audit'])
  })

  async function openQueue(instrument: string): Promise<void> {
    await page.locator('[data-testid=queue]').first().waitFor()
    const order = await page.locator('[data-testid=queue]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.instrument))
    await page.keyboard.press(String(order.indexOf(instrument) + 1))
    await page.locator(`[data-testid=item][data-instrument="${instrument}"]`).waitFor()
  }

  /** Boxes of the leaf glyphs of the formula whose TeX source is `tex`, in the left proposal, by their text. */
  async function glyphs(tex: string, texts: string[]): Promise<Record<string, Box>> {
    return page.evaluate(
      ({ tex, texts }) => {
        const formula = [...document.querySelectorAll('.pair-cell[data-side="a"] .md-math')].find(
          (m) => m.querySelector('annotation')?.textContent?.trim() === tex
        )
        if (!formula) throw new Error(`no formula ${tex}`)
        const out: Record<string, { top: number; bottom: number; left: number; right: number; height: number }> = {}
        const leaves = [...formula.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0 && s.textContent)
        for (const t of texts) {
          const leaf = leaves.find((s) => s.textContent === t)
          if (!leaf) throw new Error(`no glyph ${t} in ${tex}`)
          const r = leaf.getBoundingClientRect()
          out[t] = { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }
        }
        return out
      },
      { tex, texts }
    )
  }

  it('renders subscripts, fractions, limits and accents with the right geometry; wide display maths scrolls in its box', async () => {
    await openQueue('pairwise-preference')

    // A subscript is smaller than its base and sits lower.
    const nh = await glyphs('n_h', ['n', 'h'])
    expect(nh.h!.height).toBeLessThan(nh.n!.height)
    expect(mid(nh.h!)).toBeGreaterThan(mid(nh.n!))

    // An inline fraction: the numerator is above the denominator.
    const frac = await glyphs('\\frac{a}{b}', ['a', 'b'])
    expect(frac.a!.bottom).toBeLessThanOrEqual(frac.b!.top + 1)

    // Inline \max takes its limit as a subscript: lower and smaller.
    const max = await glyphs('\\max_{z\\in S} f(z)', ['max', 'S'])
    expect(mid(max.S!)).toBeGreaterThan(mid(max.max!))
    expect(max.S!.height).toBeLessThan(max.max!.height)

    // A hat above g; a superscript d higher than the R it belongs to.
    const hat = await glyphs('\\hat{g}(z)\\in\\mathbb{R}^d', ['g', 'R', 'd'])
    expect(mid(hat.d!)).toBeLessThan(mid(hat.R!))
    expect(hat.d!.height).toBeLessThan(hat.R!.height)

    // Display maths: \sum has its limits above and below, \max its limit below.
    const sum = await glyphs('\\sum_{i=1}^n w_i = \\max_{z\\in S} f(z)', ['∑', 'n', 'max', 'S'])
    expect(mid(sum.n!)).toBeLessThan(sum['∑']!.top + sum['∑']!.height / 4)
    expect(sum.n!.left).toBeGreaterThanOrEqual(sum['∑']!.left)
    expect(sum.n!.right).toBeLessThanOrEqual(sum['∑']!.right)
    expect(mid(sum.S!)).toBeGreaterThan(sum.max!.bottom)
    const lower = await page.evaluate(() => {
      const f = [...document.querySelectorAll('.pair-cell[data-side="a"] .md-math-display')][0]!
      const leaves = [...f.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0)
      const sigma = leaves.find((s) => s.textContent === '∑')!.getBoundingClientRect()
      const i = leaves.find((s) => s.textContent === 'i')!.getBoundingClientRect()
      return { sigmaBottom: sigma.bottom, sigmaHeight: sigma.height, iMid: (i.top + i.bottom) / 2 }
    })
    expect(lower.iMid).toBeGreaterThan(lower.sigmaBottom - lower.sigmaHeight / 4)

    // The wide equation (written on one line between $$) is display maths that scrolls inside its own box: the
    // column keeps its width, the page does not scroll sideways, and its end can be scrolled to.
    const wide = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll<HTMLElement>('.pair-cell[data-side="a"] .md-math-display')]
      const formula = boxes.find((b) => (b.querySelector('annotation')?.textContent ?? '').includes('x_{60}'))!
      // The display formula's own box (KaTeX's display block) is what scrolls.
      const box = formula.querySelector<HTMLElement>('.katex-display')!
      const cell = box.closest('.pair-cell')!.getBoundingClientRect()
      const before = box.getBoundingClientRect()
      box.scrollLeft = box.scrollWidth
      const leaves = [...box.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0 && s.textContent)
      const last = leaves[leaves.length - 1]!.getBoundingClientRect()
      const after = box.getBoundingClientRect()
      return {
        overflow: getComputedStyle(box).overflowX,
        scrolls: box.scrollWidth > box.clientWidth,
        withinCell: before.right <= cell.right + 1 && before.left >= cell.left - 1,
        lastVisible: last.right <= after.right + 1 && last.left >= after.left - 1,
        pageScroll: document.documentElement.scrollWidth - window.innerWidth
      }
    })
    expect(wide).toEqual({ overflow: 'auto', scrolls: true, withinCell: true, lastVisible: true, pageScroll: 0 })
    await page.keyboard.press('q')
  })

  it('takes evidence from a selection that runs into a formula, as its exact source; highlights it and scrolls to it', async () => {
    await openQueue('flaw-audit')
    await page.keyboard.press('Enter') // add a flaw
    await page.getByTestId('item').locator('[data-testid=list-entry]').waitFor()
    await page.keyboard.press('l') // the right proposal
    await page.keyboard.press('3') // type: unsound method
    await page.keyboard.press('3') // severity: fatal, then on to the evidence

    // From inside "energy bound" to the middle of the rendered formula E = mc^3.
    await page.evaluate(() => {
      const cell = document.querySelector('[data-section="Proposed Approach"] .pair-cell[data-side="b"]')!
      const run = [...cell.querySelectorAll('[data-src-start]')].find((el) => el.textContent?.includes('energy bound'))!
      const text = run.firstChild as Text
      const formula = [...cell.querySelectorAll('.md-math')].find((m) => m.querySelector('annotation')?.textContent === 'E = mc^3')!
      const leaves = [...formula.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0 && s.textContent)
      const range = document.createRange()
      range.setStart(text, text.data.indexOf('energy bound') + 'energy '.length)
      range.setEnd(leaves[1]!.firstChild!, 0)
      const sel = window.getSelection()!
      sel.removeAllRanges()
      sel.addRange(range)
    })
    await page.keyboard.press('e')
    const evidence = page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea')
    expect(await evidence.inputValue()).toBe('bound E is $E = mc^3$')

    // The chosen evidence is highlighted, as the evidence of the entry under the cursor.
    const highlighted = await page.evaluate(() => {
      const current = CSS.highlights.get('assay-evidence-current')
      return current ? [...current].map((r) => (r as Range).toString()).join('|') : ''
    })
    expect(highlighted).toContain('bound E is')

    // Away from the flaw and the text scrolled off; back on the flaw, its evidence is scrolled into view.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab') // note, check, then "add a flaw"
    expect(await page.getByTestId('item').locator('form.annotate-fields').getAttribute('data-cursor')).toBe('flaws.+')
    await page.evaluate(() => document.querySelector('[data-testid=item] .annotate-source')!.scrollTo({ top: 100000 }))
    await page.keyboard.press('Shift+Tab') // back into the flaw
    const visible = await page.evaluate(() => {
      const box = document.querySelector('[data-testid=item] .annotate-source')!.getBoundingClientRect()
      const first = [...CSS.highlights.get('assay-evidence-current')!][0] as Range
      const r = first.getBoundingClientRect()
      return r.top >= box.top && r.bottom <= box.bottom
    })
    expect(visible).toBe(true)

    await page.keyboard.press('Control+Enter')
    await page.waitForFunction(() => !document.querySelector('[data-testid=item]') || document.querySelector('[data-testid=item] [data-testid=form-error]')).catch(() => undefined)
    expect((await page.getByTestId('item').locator("[data-testid=form-error], [data-testid=field-issue]").allInnerTexts()).join(" | ")).toBe("")
    await page.locator('[data-testid=queue-finished]').waitFor()
    // The answer is committed in the background once the next screen shows.
    const stored = () => {
      const db = new Database(path, { readonly: true, fileMustExist: true })
      try {
        return db.prepare(`SELECT judgement FROM annotations WHERE instrument_id = 'flaw-audit'`).get() as { judgement: string } | undefined
      } finally {
        db.close()
      }
    }
    await expect.poll(stored, { timeout: 5000 }).toBeDefined()
    {
      const row = stored()!
      const flaw = JSON.parse(row.judgement).flaws[0]
      expect(flaw.evidence).toBe('bound E is $E = mc^3$')
      // Offsets into the proposal as shown (canonical side after mapping back), holding exactly the quote.
      const shown = proposalMarkdownForView((PAIR.payload as { a: { markdown: string }; b: { markdown: string } })[flaw.side as 'a' | 'b'])
      expect(shown.slice(flaw.evidence_at.start, flaw.evidence_at.end)).toBe(flaw.evidence)
    }
  })

  it('quotes a display formula whole when the selection lies inside it', async () => {
    // The queue is done: p reopens its item, with the answer given, to add a second flaw.
    await page.locator('[data-testid=queue-finished]').waitFor()
    await page.keyboard.press('p')
    await page.locator('[data-testid=item][data-instrument="flaw-audit"]').waitFor()
    // The evidence given before is highlighted again in the reopened item.
    const again = await page.evaluate(() =>
      ['assay-evidence', 'assay-evidence-current'].flatMap((name) => [...(CSS.highlights.get(name) ?? [])].map((r) => (r as Range).toString())).join('|')
    )
    expect(again).toContain('bound E is')
    await page.keyboard.press('+') // a second flaw
    await page.getByTestId('item').locator('[data-testid=list-entry] >> nth=1').waitFor()
    await page.evaluate(() => {
      const formula = [...document.querySelectorAll('.pair-cell[data-side="a"] .md-math-display')][0]!
      const leaves = [...formula.querySelectorAll('.katex-html span')].filter((s) => s.children.length === 0 && s.textContent)
      const range = document.createRange()
      range.setStart(leaves[1]!.firstChild!, 0)
      range.setEnd(leaves[3]!.firstChild!, 1)
      const sel = window.getSelection()!
      sel.removeAllRanges()
      sel.addRange(range)
    })
    await page.keyboard.press('e')
    expect(await page.getByTestId('item').locator('[data-stop="flaws.1.evidence"] textarea').inputValue()).toBe('$$\n\\sum_{i=1}^n w_i = \\max_{z\\in S} f(z)\n$$')
    expect(await page.getByTestId('item').locator('[data-stop="flaws.1.side"] [aria-checked="true"]').innerText()).toContain('A (left)')
  })
})
