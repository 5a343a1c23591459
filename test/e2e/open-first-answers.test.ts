import { describe, expect, it } from 'vitest'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'

// Opening the workbench as an annotator: the page brings the answers to the window's first calls, so the queue list
// and the first item are drawn without a round trip; calls after them go to the server as usual.

const suite = browserSuite('assay-open-')

describe.skipIf(!hasChromium)(chromiumSuite('opening the workbench'), () => {
  it('shows the queue list and the first item without asking the server for them, then asks it for everything after', async () => {
    const asked: string[] = []
    const items = ['Measure enzyme drift with a cheap assay', 'Rank hypotheses by testability', 'Pool negative results across labs'].map((idea, i) => ({
      kind: 'idea' as const,
      externalId: `idea-${i}`,
      set: 'ideas',
      split: 'test' as const,
      payload: { idea }
    }))
    const page = await annotatorWorkbench(suite, suite.file('open.assay'), items, ['idea-review'], 'Ada', (p) =>
      p.on('request', (req) => {
        const path = new URL(req.url()).pathname
        if (path.startsWith('/api/') && path !== '/api/events') asked.push(`${path.slice(5)} ${req.postData() ?? ''}`)
      })
    )
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    const first = Number(await item.getAttribute('data-assignment'))
    const opening = asked.filter((a) => /^(session\.get|project\.info|settings\.get|queue\.summary|queue\.list) /.test(a) || a === `queue.item {"assignmentId":${first}}`)
    expect(opening).toEqual([])

    // The answer goes to the server, and the next item is there.
    await page.keyboard.press('Escape')
    for (const key of ['j', '5', '6', '7']) await page.keyboard.press(key)
    await page.keyboard.press('Control+Enter')
    await expect.poll(() => asked.some((a) => a.startsWith('annotations.submit '))).toBe(true)
    await expect.poll(async () => Number(await item.getAttribute('data-assignment'))).not.toBe(first)

    // A reload returns to the item being worked on; the page's answers are the state after the change, so the item
    // answered before it is not the one shown.
    const current = Number(await item.getAttribute('data-assignment'))
    await page.reload()
    await item.waitFor()
    expect(Number(await item.getAttribute('data-assignment'))).toBe(current)
  })
})
