import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewItem } from '../../src/main/store/items'
import { hasChromium, chromiumSuite } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'

// Evidence chosen in a flaw audit is highlighted in the proposal as soon as the item shows: after a reload that
// restores the draft, before any key is pressed or the cursor moves.

function proposal(title: string, approach: string): string {
  const rest = ['Introduction', 'Related Work', 'Experiments', 'Success Criteria', 'Impact Statement', 'References']
  return [`# ${title}`, '', '## Proposed Approach', '', approach, '', ...rest.flatMap((s) => [`## ${s}`, '', `${s}: none.`, ''])].join('\n')
}

function pair(n: number): NewItem {
  const approach = 'We sample the reference set once and reuse it for every seed.'
  return {
    kind: 'proposal-pair',
    externalId: `evidence-pair-${n}`,
    set: 'evidence',
    split: 'none',
    payload: {
      pair_id: `evidence-pair-${n}`,
      topic: `Evidence highlighting ${n}`,
      a: { markdown: proposal(`Left title ${n}`, approach), origin: 'human' },
      b: { markdown: proposal(`Right title ${n}`, approach), origin: 'ai' }
    }
  }
}

/** The text of every evidence highlight on the page, current or not. */
function highlighted(page: Page): Promise<string> {
  return page.evaluate(() =>
    ['assay-evidence', 'assay-evidence-current'].flatMap((name) => [...(CSS.highlights.get(name) ?? [])].map((r) => (r as Range).toString())).join('|')
  )
}

describe.skipIf(!hasChromium)(chromiumSuite('evidence highlighted when a flaw audit opens'), () => {
  const suite = browserSuite('assay-evidence-')
  let page: Page

  beforeAll(async () => {
    page = await annotatorWorkbench(suite, suite.file('evidence.assay'), [pair(1), pair(2)], ['flaw-audit'])
  })

  const item = (assignment: string) => page.locator(`[data-testid=item][data-instrument="flaw-audit"][data-assignment="${assignment}"]`)

  it('draws the chosen evidence on coming back to the item and after a reload, without moving the cursor; a copy made for another layout is kept aside', async () => {
    await page.locator('[data-testid=queue]').first().waitFor()
    await page.keyboard.press('1')
    await page.locator('[data-testid=item][data-instrument="flaw-audit"]').waitFor()
    const first = (await page.locator('[data-testid=item]').getAttribute('data-assignment'))!
    await page.keyboard.press('Enter') // add a flaw
    await page.getByTestId('item').locator('[data-testid=list-entry]').waitFor()
    await page.keyboard.press('a') // the left proposal
    await page.keyboard.press('3') // type
    await page.keyboard.press('3') // severity, then on to the evidence
    await page.evaluate(() => {
      const cell = document.querySelector('[data-section="Proposed Approach"] .pair-cell[data-side="a"]')!
      const run = [...cell.querySelectorAll('[data-src-start]')].find((el) => el.textContent?.includes('reuse it'))!
      const text = run.firstChild as Text
      const range = document.createRange()
      range.setStart(text, text.data.indexOf('reuse it'))
      range.setEnd(text, text.data.indexOf('reuse it') + 'reuse it for every seed'.length)
      const sel = window.getSelection()!
      sel.removeAllRanges()
      sel.addRange(range)
    })
    await page.keyboard.press('e')
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('reuse it for every seed')
    // This browser's copy of the draft, written at once (removed once main has the draft).
    const backupKey = await page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('assay:draft:'))!)
    expect(backupKey).toMatch(/^assay:draft:/)
    expect(await highlighted(page)).toContain('reuse it for every seed')
    // The draft reaches main before the reload.
    await page.getByTestId('item').locator('[data-testid=save-state][data-state=saved]').waitFor()

    // On to the next item and back: the item opens with its draft and its evidence drawn (the item left behind
    // must not clear what the returning one drew).
    await page.keyboard.press('Alt+ArrowRight')
    await page.locator(`[data-testid=item]:not([data-assignment="${first}"])`).waitFor()
    // The next item, built ahead, is drawn first; the item left stops (and its highlight goes, unseen in its hidden
    // layer) once that frame is painted.
    await expect.poll(() => highlighted(page)).toBe('')
    await page.keyboard.press('Alt+ArrowLeft')
    await item(first).waitFor()
    // Drawn once the item is live (at once, or a frame later where it was built ahead and shown by a swap).
    await expect.poll(() => highlighted(page)).toContain('reuse it for every seed')

    await page.reload()
    await item(first).waitFor()
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('reuse it for every seed')
    // No key pressed, no click: the evidence is already drawn.
    expect(await highlighted(page)).toContain('reuse it for every seed')
    // A page without this browser's copy of the draft: main's draft is restored and drawn the same way.
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    await item(first).waitFor()
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('reuse it for every seed')
    expect(await highlighted(page)).toContain('reuse it for every seed')

    // A copy in this browser made for another layout of the item (its token is not the one main shows now), newer
    // than main's draft: it is kept aside, not read against this layout, and the annotator is told.
    await page.evaluate((key) => {
      localStorage.setItem(key, JSON.stringify({ data: { flaws: [], comment: 'from another layout' }, activeMs: 5, at: '2999-01-01T00:00:00.000Z', layout: 'another-layout' }))
    }, backupKey)
    await page.reload()
    await item(first).waitFor()
    await page.getByTestId('item').locator('[data-testid=draft-set-aside]').waitFor()
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('reuse it for every seed')
    // What was written in the set-aside copy can be read, to be taken up again.
    await page.getByTestId('item').locator('[data-testid=draft-set-aside] summary').click()
    await expect.poll(() => page.getByTestId('item').locator('[data-testid=draft-set-aside] dl').innerText()).toContain('from another layout')
    expect(await page.getByTestId('item').locator('[data-testid=draft-set-aside] dt').allInnerTexts()).toEqual(['Comment'])
    const kept = await page.evaluate((key) => ({ own: localStorage.getItem(key), aside: localStorage.getItem(`${key}:aside:another-layout`) }), backupKey)
    expect(kept.own).toBeNull()
    expect(JSON.parse(kept.aside!).data.comment).toBe('from another layout')
  })
})
