import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewItem } from '../../src/main/store/items'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'

// A yes/no main choice answers by y and n wherever the cursor rests outside a text box. `n` once also meant "next
// item" and won there, leaving the item unanswered; the next and previous item are now Alt+→/← only, and the legend
// and the list of keys give `n` one meaning.

const ITEMS: NewItem[] = [1, 2].map((n) => ({
  kind: 'fs-problem',
  externalId: `olympiad-${n}`,
  set: 'fs',
  split: 'none',
  payload: { track: 'olympiad', subject: 'physics', problem: `Problem ${n}: what is 2 + ${n}?`, answer: String(2 + n), response: `It is ${2 + n}.` }
}))

describe.skipIf(!hasChromium)(chromiumSuite('the keys of a yes/no main choice'), () => {
  const suite = browserSuite('assay-yes-no-')
  let page: Page

  beforeAll(async () => {
    page = await annotatorWorkbench(suite, suite.file('yes-no.assay'), ITEMS, ['fs-olympiad-grade'])
  })

  const item = () => page.getByTestId('item')
  const focus = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      return { stop: el?.closest('[data-stop]')?.getAttribute('data-stop') ?? null, inBox: !!el && (el.tagName === 'TEXTAREA' || el.tagName === 'INPUT') }
    })
  const answer = () => item().locator('[data-stop="correct"] [role=radio][aria-checked=true]').allInnerTexts()

  it('answers No by n with the cursor on the Reasoning field, outside its box, and stays on the item', async () => {
    await page.locator('[data-testid=queue][data-instrument="fs-olympiad-grade"]').first().click()
    await item().waitFor()
    await expect.poll(focus).toEqual({ stop: 'correct', inBox: false })
    const first = await item().getAttribute('data-assignment')
    await page.keyboard.press('j')
    expect(await focus()).toEqual({ stop: 'rationale', inBox: false })
    await page.keyboard.press('n')
    await expect.poll(answer).toEqual([expect.stringMatching(/No$/)])
    expect(await item().getAttribute('data-assignment')).toBe(first)
    expect(await item().locator('[data-stop="rationale"] textarea').inputValue()).toBe('')
    // y answers from there as well, and n again turns it back.
    await page.keyboard.press('j')
    await page.keyboard.press('y')
    await expect.poll(answer).toEqual([expect.stringMatching(/Yes$/)])
    await page.keyboard.press('n')
    await expect.poll(answer).toEqual([expect.stringMatching(/No$/)])
    expect(await item().getAttribute('data-assignment')).toBe(first)
    // p is no key to the previous item either; Alt+→ and Alt+← are.
    await page.keyboard.press('p')
    expect(await item().getAttribute('data-assignment')).toBe(first)
    await page.keyboard.press('Alt+ArrowRight')
    await expect.poll(() => item().getAttribute('data-assignment')).not.toBe(first)
    await page.keyboard.press('Alt+ArrowLeft')
    await expect.poll(() => item().getAttribute('data-assignment')).toBe(first)
  })

  it('gives n one meaning in the legend and in the list of all keys: No', async () => {
    const legend = item().getByTestId('legend')
    await page.keyboard.press('?')
    const all = item().getByTestId('all-keys')
    await all.waitFor()
    // The legend's field part names n once (the cursor is on Correct); the list of all keys once, as No.
    await expect.poll(() => legend.locator(':scope > span kbd[data-key="n"]').count()).toBe(1)
    expect(await all.locator('kbd[data-key="n"]').count()).toBe(1)
    expect(await all.locator('kbd[data-key="p"]').count()).toBe(0)
    const row = all.locator('dt', { has: page.locator('kbd[data-key="n"]') })
    expect(await row.innerText()).toMatch(/n\s*no/)
    expect(await all.innerText()).toMatch(/Alt\s*\+\s*→\s*←\s*next \/ previous item/)
    await page.keyboard.press('?')
    await all.waitFor({ state: 'detached' })
  })
})
