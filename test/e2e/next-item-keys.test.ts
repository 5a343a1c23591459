import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'

// Submitting onto the item built ahead draws it before the focus moves (moving it repaints both items in that frame);
// the focus follows once the frame is painted, or at the next key. A key pressed in between was aimed at the item
// left: it acts on the item shown. An item opens with the focus on its first field, never in its text box, so that
// key is a shortcut there: `j` moves the cursor on, and no letter is typed.

const suite = browserSuite('assay-next-keys-')

/** The analysis committed for an assignment. */
function storedAnalysis(path: string, assignmentId: number): string | undefined {
  const db = new Database(path, { readonly: true })
  try {
    const row = db.prepare(`SELECT judgement FROM annotations WHERE assignment_id = ? AND retracted = 0`).get(assignmentId) as { judgement: string } | undefined
    return row ? (JSON.parse(row.judgement) as { analysis: string }).analysis : undefined
  } finally {
    db.close()
  }
}

describe.skipIf(!hasChromium)(chromiumSuite('keys pressed the moment the next item is drawn'), () => {
  it('gives a key pressed in the frame that draws the next item to where the focus is in that item, a shortcut on its first field, not where it was in the one left', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ kind: 'idea' as const, externalId: `idea-${i}`, set: 'ideas', split: 'test' as const, payload: { idea: `Idea ${i}: a cheap proxy for an expensive assay.` } }))
    const path = suite.file('keys.assay')
    const page = await annotatorWorkbench(suite, path, items, ['idea-review'], 'Ada', (p) =>
      // Where each key was aimed when it was pressed: at the item left when its target is in an item not drawn.
      p.addInitScript(() => {
        const w = window as unknown as { aimedAtLeft: string[] }
        w.aimedAtLeft = []
        window.addEventListener('keydown', (e) => {
          if (e.isTrusted && e.target instanceof Element && e.target.closest('.item-slot.held')) w.aimedAtLeft.push(e.key)
        }, true)
      })
    )
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    const analysis = (at: string) => page.locator(`.annotate-item[data-assignment="${at}"] [data-stop="analysis"] textarea`)
    let hits = 0
    for (let attempt = 0; attempt < 8 && hits === 0; attempt++) {
      await page.getByTestId('item-held').waitFor({ state: 'attached' })
      const from = (await item.getAttribute('data-assignment'))!
      const next = (await page.getByTestId('item-held').getAttribute('data-assignment'))!
      // Enter types in the analysis, Escape leaves it; the cursor is on the analysis already (k from originality).
      await page.keyboard.press('k')
      await page.keyboard.press('Enter')
      await page.keyboard.type('left as it was')
      for (const key of ['Escape', 'j', '5', '6', '7']) await page.keyboard.press(key)
      // The submit from the last scale answered, then a key typed while the page is still busy with the submit's task:
      // it reaches the page once that task ends, before or after the frame that shows the next item. In the item
      // left, j would have stayed on its last scale; in the item shown it moves from the analysis to originality.
      const busy = page.evaluate(() => {
        document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, key: 'Enter', ctrlKey: true }))
        const until = performance.now() + 60
        while (performance.now() < until);
      })
      await new Promise((r) => setTimeout(r, 20))
      await Promise.all([busy, page.keyboard.type('j')])
      await page.locator(`[data-testid=item][data-assignment="${next}"]`).waitFor()
      const aimed = await page.evaluate(() => (window as unknown as { aimedAtLeft: string[] }).aimedAtLeft.splice(0))
      if (aimed.includes('j')) hits++
      // Wherever it was aimed, it moved the cursor of the item shown, which has the focus, and typed nothing; the
      // item left kept its text.
      const shown = page.locator(`.annotate-item[data-assignment="${next}"]`)
      await expect.poll(() => shown.locator('form.annotate-fields').getAttribute('data-cursor')).toBe('originality')
      expect(await shown.locator('[data-stop="originality"]').evaluate((el) => el === document.activeElement)).toBe(true)
      expect(await analysis(next).inputValue()).toBe('')
      await page.locator(`[data-testid=commit-status][data-assignment="${from}"][data-state="saved"]`).waitFor()
      expect(storedAnalysis(path, Number(from))).toBe('left as it was')
    }
    // At least once the key came before the item was live, with the focus still in the item left.
    expect(hits).toBeGreaterThan(0)
    await page.close()
  })
})
