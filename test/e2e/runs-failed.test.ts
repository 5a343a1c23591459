import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startFakeProviders } from '../fakes'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { MemoryKeyStore } from '../../src/main/secrets'
import { addJudge, demoProject, KEYS, protocolResponder, runToEnd, testEnv } from '../integration/runner/helpers'
import { addCalls, addRun } from '../integration/report/fixtures'

// A run the provider stopped (its key refused) on the runs screen: it reads as failed — a red mark, the reason, and
// what became of its calls — in both themes, not as one more row with a small grey note.

describe.skipIf(!hasChromium)(chromiumSuite('a failed run on the runs screen in Chromium'), () => {
  const suite = browserSuite()
  let page: Page

  beforeAll(async () => {
    const path = suite.file('failed-run.assay')
    const fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: protocolResponder })
    try {
      const project = await demoProject(path)
      const judge = addJudge(project, fake, 'openai')
      const wrongKey = new MemoryKeyStore()
      await wrongKey.set('openai', 'sk-wrong-key-abcdef0123456789')
      const result = await runToEnd(project, { instrument: 'pairwise-preference', judgeId: judge.id, concurrency: 1 }, testEnv({ keyStore: wrongKey }))
      expect(result.outcome).toBe('failed')
      // A run that finished with every call failed (each one given up on after its retries): stored as done.
      const items = (project.db.prepare(`SELECT id FROM items WHERE kind = 'proposal-pair' ORDER BY id LIMIT 3`).all() as Array<{ id: number }>).map((r) => r.id)
      const allFailed = addRun(project, { instrument: 'pairwise-preference', judge: 'down-judge' })
      addCalls(project, allFailed, items.map((item) => ({ item, status: 'failed' as const })))
      // And one whose every answer came back unreadable.
      const garbled = addRun(project, { instrument: 'pairwise-preference', judge: 'garbled-judge' })
      addCalls(project, garbled, items.map((item) => ({ item, status: 'unparseable' as const })))
      project.close()
    } finally {
      await fake.close()
    }
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1440, height: 900 } }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Judges & runs' }).click()
    await page.getByTestId('run-list').waitFor()
  }, 60_000)

  for (const theme of ['light', 'dark'] as const) {
    it(`shows the failed run in red with its reason and counts (${theme} theme)`, async () => {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme)
      const row = page.locator('[data-run-id="1"]')
      expect(await row.getAttribute('data-status')).toBe('failed')
      const failure = page.getByTestId('run-failure-1')
      const text = await failure.innerText()
      expect(text).toContain('Stopped:')
      expect(text).toContain('HTTP 401')
      expect(text).toContain('1 failed, 11 not sent')
      const colours = await page.evaluate(() => {
        const bad = getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()
        const probe = document.createElement('span')
        probe.style.color = bad
        document.body.append(probe)
        const want = getComputedStyle(probe).color
        probe.remove()
        const of = (sel: string) => getComputedStyle(document.querySelector(sel)!).color
        return { want, badge: of('[data-testid="run-status-1"]'), failure: of('[data-testid="run-failure-1"]') }
      })
      expect(colours.badge).toBe(colours.want)
      expect(colours.failure).toBe(colours.want)
      // A red colour: the red channel well above the other two.
      const [r, g, b] = colours.want.match(/\d+/g)!.map(Number) as [number, number, number]
      expect(r - Math.max(g, b)).toBeGreaterThan(80)
      // The bar shows the failed share apart from the answered one.
      expect(await row.locator('.runs-bar > span.failed').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(0)
    })
  }

  it('shows a finished run whose every call failed as failed, with why, never as a green done', async () => {
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'))
    const row = page.locator('[data-run-id="2"]')
    expect(await row.getAttribute('data-status')).toBe('failed')
    expect(await page.getByTestId('run-status-2').innerText()).toBe('failed')
    expect(await page.getByTestId('run-status-why-2').innerText()).toBe('every call failed (3 of 3)')
    expect(await row.evaluate((el) => el.classList.contains('run-failed'))).toBe(true)
  })

  it('shows a run whose every answer was unreadable as no answer, its bar in the unreadable colour, not as done', async () => {
    const row = page.locator('[data-run-id="3"]')
    expect(await row.getAttribute('data-status')).toBe('no answer')
    expect(await page.getByTestId('run-status-3').innerText()).toBe('no answer')
    const bar = page.getByTestId('run-unreadable-3')
    expect(await bar.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(100)
    const colours = await bar.evaluate((el) => {
      const probe = document.createElement('span')
      probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--warn').trim()
      document.body.append(probe)
      const want = getComputedStyle(probe).color
      probe.remove()
      return { want, got: getComputedStyle(el).backgroundColor }
    })
    expect(colours.got).toBe(colours.want)
  })
})
