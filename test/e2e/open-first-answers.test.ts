import { describe, expect, it } from 'vitest'
import { chromiumSuite, hasChromium } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'
import { MATHS_PAIR } from '../support/maths-pair'
import { FIRST_ANSWERS_ID, type FirstPage } from '../../src/shared/contract/first-answers'
import { watchPageProblems } from '../support/page-problems'

// Opening the workbench as an annotator: the page brings the answers to the window's first calls, so the queue list
// and the first item are drawn without a round trip; calls after them go to the server as usual. The first item's
// Markdown comes parsed by the server, and must draw exactly what the window's own parse draws.

const BLOCK = new RegExp(`(<script type="application/json" id="${FIRST_ANSWERS_ID}">)(.*?)(</script>)`, 's')

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

  it('draws the first item the same whether its Markdown came parsed in the page or was parsed in the window', async () => {
    const brought: number[] = []
    /**
     * Opens the first item with the page's parsed texts kept, taken out, or marked (one text run changed, to see that
     * the window draws the page's trees), and returns what its source pane shows.
     */
    const sourceHtml = async (parsed: 'keep' | 'drop' | 'mark', path: string): Promise<string> => {
      const page = await annotatorWorkbench(suite, path, [MATHS_PAIR], ['pairwise-preference'], 'Ada', (p) =>
        p.route(
          (url) => url.pathname === '/',
          async (route) => {
            const res = await route.fetch()
            const html = (await res.text()).replace(BLOCK, (_, open: string, json: string, close: string) => {
              const first = JSON.parse(json) as FirstPage
              brought.push(first.markdown.length)
              if (parsed === 'drop') first.markdown = []
              const sent = JSON.stringify(first).replace(/</g, '\\u003c')
              return open + (parsed === 'mark' ? sent.replace('"value":"Related Work: none."', '"value":"Drawn from the page."') : sent) + close
            })
            await route.fulfill({ response: res, body: html })
          }
        )
      )
      await page.getByTestId('queue').first().click()
      await page.locator('[data-testid=item] .pair-row').first().waitFor()
      // Texts the window parses wait for the parser's chunk, each in its place (marked data-parsing until then).
      await page.waitForFunction(() => !document.querySelector('[data-testid=item] [data-testid=source] [data-parsing]'))
      const html = await page.getByTestId('item').locator('[data-testid=source]').evaluate((el) => el.innerHTML)
      await page.close()
      return html
    }
    const fromPage = await sourceHtml('keep', suite.file('parsed-in-page.assay'))
    const fromWindow = await sourceHtml('drop', suite.file('parsed-in-window.assay'))
    const marked = await sourceHtml('mark', suite.file('parsed-marked.assay'))
    // The pair's 7 sections came parsed (once: both sides hold the same text at the same offsets), and the window
    // drew what came.
    expect(brought).toEqual([7, 7, 7])
    expect(marked).toContain('Drawn from the page.')
    expect(fromPage).not.toContain('Drawn from the page.')
    expect(fromPage).toContain('class="katex"')
    expect(fromPage).toContain('data-src-start=')
    expect(fromPage).toBe(fromWindow)
  })

  it('opens with no failed request and nothing written to the console as an error or warning', async () => {
    let problems: string[] = []
    const page = await annotatorWorkbench(suite, suite.file('quiet.assay'), [MATHS_PAIR], ['pairwise-preference'], 'Ada', (p) => {
      problems = watchPageProblems(p).found
    })
    await page.getByTestId('queue').first().click()
    await page.locator('[data-testid=item] .pair-row').first().waitFor()
    // Fonts, prefetches and the work left for after the first paint have their time to fail too.
    await page.waitForLoadState('networkidle')
    expect(problems).toEqual([])
    await page.close()
  })

  it('returns to the item moved to even when the page is reloaded before that item was painted', async () => {
    const ideas = ['First idea', 'Second idea'].map((idea, i) => ({ kind: 'idea' as const, externalId: `reload-${i}`, set: 'ideas', split: 'test' as const, payload: { idea } }))
    const page = await annotatorWorkbench(suite, suite.file('reload.assay'), ideas, ['idea-review'])
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    const first = await item.getAttribute('data-assignment')
    await page.keyboard.press('Escape')
    // The next item is shown, and the page reloaded the moment it is in the document: before any frame is painted,
    // so before the item's record waits to be written.
    await page.evaluate((from) => {
      new MutationObserver((_, observer) => {
        const shown = document.querySelector('[data-testid=item]')?.getAttribute('data-assignment')
        if (shown && shown !== from) {
          observer.disconnect()
          // What leaving the page at this moment would keep, read before the reload: no frame of the new item has
          // been painted, so only what is recorded when it is put in the document counts.
          window.dispatchEvent(new Event('pagehide'))
          const kept = Object.keys(sessionStorage)
            .filter((k) => k.startsWith('assay:last-item:'))
            .map((k) => String((JSON.parse(sessionStorage.getItem(k) ?? '{}') as { assignmentId?: number }).assignmentId))
          sessionStorage.setItem('probe:kept', JSON.stringify({ shown, kept }))
          location.reload()
        }
      }).observe(document.body, { childList: true, subtree: true, attributes: true })
    }, first)
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Alt+ArrowRight')])
    await item.waitFor()
    const probe = JSON.parse((await page.evaluate(() => sessionStorage.getItem('probe:kept'))) ?? '{}') as { shown: string; kept: string[] }
    expect(probe.kept).toEqual([probe.shown])
    expect(await item.getAttribute('data-assignment')).toBe(probe.shown)
    await page.close()
  })
})
