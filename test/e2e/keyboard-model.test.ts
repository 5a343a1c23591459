import Database from 'better-sqlite3'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewItem } from '../../src/main/store/items'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'
import { MATHS_PAIR } from '../support/maths-pair'

// The keyboard model: single keys are shortcuts and never text, unless the person enters a text box (Tab or Enter)
// and until they leave it (Escape). Opening an item, j/k and a refused submit leave the cursor on a field, never in
// its box; the form's main choice answers from anywhere outside a box.

const ITEMS: NewItem[] = [
  { kind: 'idea', externalId: 'idea-1', set: 'ideas', split: 'none', payload: { idea: 'A cheap proxy for an expensive assay.' } },
  {
    kind: 'fs-problem',
    externalId: 'research-1',
    set: 'fs',
    split: 'none',
    payload: {
      track: 'research',
      problem: 'Explain why the sky is blue.',
      answer: 'Rayleigh scattering.',
      rubric: [
        { points: 4, item: 'Names Rayleigh scattering.' },
        { points: 6, item: 'Derives the inverse fourth power of the wavelength.' }
      ],
      response: 'Because of Rayleigh scattering, which goes as the inverse fourth power of the wavelength.'
    }
  },
  MATHS_PAIR,
  {
    kind: 'rediscovery-task',
    externalId: 'task-1',
    set: 'forecast',
    split: 'none',
    payload: { task_id: 'task-1', background: 'Worms live longer when a signalling pathway is dampened.', question: 'Which change extends life?', finding: 'Reducing insulin-like signalling.', key_points: ['insulin'] }
  },
  {
    kind: 'hypothesis-set',
    externalId: 'set-1',
    set: 'forecast',
    split: 'none',
    payload: {
      set_id: 'set-1',
      task_id: 'task-1',
      scheme: 'single',
      hypotheses: [1, 2].map((n) => ({ id: `C${n}`, statement: `Hypothesis ${n} about worm lifespan.`, mechanism: `Mechanism ${n}.`, prediction: `Prediction ${n}.` }))
    }
  }
]

describe.skipIf(!hasChromium)(chromiumSuite('the keyboard model of the annotation screen'), () => {
  const suite = browserSuite('assay-keys-')
  let page: Page
  let path: string

  beforeAll(async () => {
    path = suite.file('keys.assay')
    page = await annotatorWorkbench(suite, path, ITEMS, ['idea-review', 'fs-research-grade', 'pairwise-preference', 'flaw-audit', 'forecast-detailed'])
  })

  async function open(instrument: string): Promise<void> {
    if ((await page.getByTestId('item').count()) || (await page.getByTestId('queue-finished').count())) await page.keyboard.press('q')
    await page.locator(`[data-testid=queue][data-instrument="${instrument}"]`).first().click()
    await page.locator(`[data-testid=item][data-instrument="${instrument}"]`).waitFor()
  }

  /** Where the focus is: the stop it is on, and whether it is in a text box. */
  const focus = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      return { stop: el?.closest('[data-stop]')?.getAttribute('data-stop') ?? null, inBox: !!el && (el.tagName === 'TEXTAREA' || el.tagName === 'INPUT') }
    })
  const item = () => page.getByTestId('item')

  it('opens an item on its first field, outside its text box; j/k move without entering one; Enter enters, Escape leaves', async () => {
    await open('idea-review')
    await expect.poll(focus).toEqual({ stop: 'analysis', inBox: false })
    for (const key of ['j', 'k', 'j', 'j', 'k', 'k']) await page.keyboard.press(key)
    expect(await focus()).toEqual({ stop: 'analysis', inBox: false })
    expect(await item().locator('[data-stop="analysis"] textarea').inputValue()).toBe('')
    await page.keyboard.press('Enter')
    expect(await focus()).toEqual({ stop: 'analysis', inBox: true })
    await page.keyboard.type('jk')
    expect(await item().locator('[data-stop="analysis"] textarea').inputValue()).toBe('jk')
    await page.keyboard.press('Escape')
    expect(await focus()).toEqual({ stop: 'analysis', inBox: false })
    // The main choice answers from the analysis too: 7 is originality's, and the cursor moves on from it.
    await page.keyboard.press('7')
    expect(await item().locator('[data-stop="originality"] [role=radio][aria-checked=true]').innerText()).toBe('7')
    expect(await focus()).toEqual({ stop: 'feasibility', inBox: false })
    // Tab enters a box as it reaches it.
    for (const key of ['k', 'k']) await page.keyboard.press(key)
    expect(await focus()).toEqual({ stop: 'analysis', inBox: false })
    await page.keyboard.press('Tab')
    expect(await focus()).toEqual({ stop: 'originality', inBox: false })
    await page.keyboard.press('Shift+Tab')
    expect(await focus()).toEqual({ stop: 'analysis', inBox: true })
    await page.keyboard.press('Escape')
  })

  it('lists every key on ?, the form\'s own answers included', async () => {
    await page.keyboard.press('?')
    const all = page.getByTestId('all-keys')
    await all.waitFor()
    const text = await all.innerText()
    for (const words of ['Originality', 'Feasibility', 'Clarity', 'leave the text box', 'undo the last submission', 'scroll a wide formula']) expect(text).toContain(words)
    await page.keyboard.press('?')
    await all.waitFor({ state: 'detached' })
  })

  it('refuses letters in a number box as they are typed, saying so, instead of a silent 0', async () => {
    await open('fs-research-grade')
    await expect.poll(focus).toEqual({ stop: 'points.0', inBox: false })
    // q would leave the item here, so the stray letter is one typed in the box.
    await page.keyboard.press('Enter')
    expect(await focus()).toEqual({ stop: 'points.0', inBox: true })
    await page.keyboard.type('x7')
    const box = item().locator('[data-stop="points.0"] input')
    expect(await box.inputValue()).toBe('7')
    expect(await item().locator('[data-stop="points.0"] [data-testid=number-refused]').innerText()).toContain('"x"')
    expect(await item().getByTestId('rubric-total').innerText()).toMatch(/^7 \/ 10/)
    await page.keyboard.press('Escape')
  })

  it('after a refused submit, leaves the focus on the field in question, so the main choice keys still answer', async () => {
    await open('pairwise-preference')
    await page.keyboard.press('x')
    await page.keyboard.press('Control+Enter')
    await item().getByTestId('form-error').waitFor()
    await expect.poll(focus).toEqual({ stop: 'abstain_reason', inBox: false })
    await page.keyboard.press('2')
    expect(await item().locator('[data-stop="verdict"] [role=radio][aria-checked=true]').innerText()).toContain('A better')
    expect(await item().locator('[data-stop="abstain_reason"] textarea').inputValue()).toBe('')
  })

  it('draws key caps in a face where l and 1 differ, in the legend as on the options', async () => {
    await open('flaw-audit')
    await page.keyboard.press('Enter')
    await item().locator('[data-testid=list-entry]').waitFor()
    // On the side of a flaw, the legend names its keys a and l as key caps.
    const cap = page.locator('.legend-here kbd[data-key="l"]')
    await cap.waitFor()
    const differ = await cap.evaluate((el) => {
      const font = getComputedStyle(el).font
      const draw = (ch: string) => {
        const c = document.createElement('canvas')
        c.width = 40
        c.height = 40
        const g = c.getContext('2d')!
        g.font = font.replace(/^[^\d]*?(\d+(\.\d+)?px)/, '32px')
        g.fillText(ch, 8, 32)
        return g.getImageData(0, 0, 40, 40).data
      }
      const l = draw('l')
      const one = draw('1')
      let inked = 0
      let apart = 0
      for (let i = 3; i < l.length; i += 4) {
        if (l[i]! > 128 || one[i]! > 128) inked++
        if (l[i]! > 128 !== one[i]! > 128) apart++
      }
      return { family: getComputedStyle(el).fontFamily, share: apart / inked }
    })
    expect(differ.family).toMatch(/^"?DejaVu Sans Mono/)
    expect(differ.share).toBeGreaterThan(0.3)
    await page.keyboard.press('Delete')
    await expect.poll(() => item().locator('[data-testid=list-entry]').count()).toBe(0)
  })

  it('keeps j out of the Note box, and refuses an empty flaw audit until "No flaws found" is chosen', async () => {
    await open('flaw-audit')
    await page.keyboard.press('+')
    await item().locator('[data-testid=list-entry]').waitFor()
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('j')
      expect((await focus()).inBox).toBe(false)
    }
    expect(await item().locator('[data-stop="flaws.0.note"] textarea').inputValue()).toBe('')
    // Back to the flaw and remove it: the audit is empty.
    await page.keyboard.press('K')
    await page.keyboard.press('Delete')
    await expect.poll(() => item().locator('[data-testid=list-entry]').count()).toBe(0)
    await page.keyboard.press('Control+Enter')
    await item().getByTestId('form-error').waitFor()
    expect(await item().locator('[data-testid=field-issue][data-path="no_flaws_found"]').innerText()).toContain('No flaws found')
    // 0 marks it from wherever the cursor rests; pressed again it clears.
    await page.keyboard.press('0')
    const mark = item().locator('[data-stop="no_flaws_found"] [role=radio]')
    expect(await mark.getAttribute('aria-checked')).toBe('true')
    await page.keyboard.press('k')
    await page.keyboard.press('0')
    expect(await mark.getAttribute('aria-checked')).toBe('false')
    await page.keyboard.press('0')
    const assignment = await item().getAttribute('data-assignment')
    await page.keyboard.press('Control+Enter')
    await page.locator('[data-testid=queue-finished]').waitFor()
    const stored = () => {
      const db = new Database(path, { readonly: true })
      try {
        const row = db.prepare(`SELECT judgement FROM annotations WHERE assignment_id = ?`).get(Number(assignment)) as { judgement: string } | undefined
        return row ? JSON.parse(row.judgement) : undefined
      } finally {
        db.close()
      }
    }
    await expect.poll(stored).toMatchObject({ flaws: [], no_flaws_found: true })
  })

  it('presets no answer and labels fields in words, not schema names', async () => {
    await open('forecast-detailed')
    const radios = item().locator('[data-stop$="recommend_for_testing"] [role=radio]')
    expect(await radios.count()).toBeGreaterThan(0)
    expect(await item().locator('[data-stop$="recommend_for_testing"] [role=radio][aria-checked=true]').count()).toBe(0)
    const labels = (await item().locator('.annotate-form .stop-label').allInnerTexts()).join(' | ')
    expect(labels).not.toMatch(/[a-z]+_[a-z_]+/)
    expect(labels).toContain('Probability that a discriminating experiment supports it')
  })

})
