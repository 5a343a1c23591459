import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startFakeProviders } from '../fakes'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite, demoSceneSuite, SCENE_WALKS } from '../support/browser-suite'
import { addJudge, demoProject, protocolResponder, runToEnd } from '../integration/runner/helpers'
import { ANNOTATOR_SCREENS, CURATOR_SCREENS, type ScreenVisit } from '../support/screens'
import { repoRoot } from '../support/tmp'

// axe-core on every screen of the demo, as a curator and as an annotator, in the light and the dark theme: no
// serious or critical violation, and each screen has one page heading (h1). The same for the states within screens:
// the report with every section expanded, the split form, an item's history, and a judge call opened on the runs
// screen. Then the keyboard: focus is always visible.

const AXE = join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js')

const scene = demoSceneSuite()

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: string[] }>
}

async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe.run(document, {
      resultTypes: ['violations']
    })
  )) as { violations: Violation[] }
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/** A violation as one line: the rule, its impact, what it asks and the first few places it was found. */
function describeViolation(v: Violation): string {
  return `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`
}

/** What is wrong with the page as it stands: axe's serious and critical violations, and a missing page heading. */
async function problemsNow(page: Page, label: string, heading = true): Promise<string[]> {
  const found = (await axeViolations(page)).map((v) => `${label}: ${describeViolation(v)}`)
  if (!heading) return found
  // Headings of the page a reader is on: the item built behind the one on screen is hidden from them, and a heading
  // inside a rendered text (a proposal's title) is the text's, not the page's.
  const headings = await page.evaluate(() => [...document.querySelectorAll('h1')].filter((h) => !h.closest('[aria-hidden=true], [inert], .markdown')).length)
  if (headings !== 1) found.push(`${label}: ${headings} page headings (h1), not one`)
  return found
}

async function audit(page: Page, screens: ScreenVisit[], label: string): Promise<string[]> {
  const found: string[] = []
  for (const screen of screens) {
    await screen.open(page)
    found.push(...(await problemsNow(page, `${label} ${screen.name}`)))
  }
  return found
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('display-settings').click()
  await page.getByTestId(`theme-${theme}`).click()
  await page.keyboard.press('Escape')
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme)
}

describe.skipIf(!hasChromium)(chromiumSuite('accessibility of every screen in Chromium (axe-core)'), () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const [who, screens] of SCENE_WALKS) {
      it(`${who} screens, ${theme} theme: no serious or critical violations`, async () => {
        // The page's Content-Security-Policy forbids inline scripts; only the test's own axe script is let in.
        const page = await scene.workbench(who, { viewport: { width: 1440, height: 900 }, bypassCSP: true })
        await setTheme(page, theme)
        expect(await audit(page, screens, theme)).toEqual([])
        await page.close()
      }, 180_000)
    }
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`states within the curator screens, ${theme} theme: the expanded report, the split form`, async () => {
      const page = await scene.workbench('curator', { viewport: { width: 1440, height: 900 }, bypassCSP: true })
      await setTheme(page, theme)
      const found: string[] = []
      await CURATOR_SCREENS.find((s) => s.name === 'report')!.open(page)
      await page.getByRole('button', { name: 'Expand all' }).click()
      await page.waitForFunction(() => [...document.querySelectorAll('details.report-section')].every((d) => (d as HTMLDetailsElement).open))
      found.push(...(await problemsNow(page, `${theme} report expanded`)))
      await CURATOR_SCREENS.find((s) => s.name === 'items')!.open(page)
      await page.getByRole('button', { name: 'Make a dev/test split…' }).click()
      await page.getByTestId('split-form').waitFor()
      // A modal dialog: the page behind, its heading with it, is hidden while it is open; the dialog has its title.
      found.push(...(await problemsNow(page, `${theme} split form`, false)))
      await page.keyboard.press('Escape')
      await setTheme(page, 'light')
      expect(found).toEqual([])
      await page.close()
    }, 120_000)

    it(`an item's history, ${theme} theme`, async () => {
      const page = await scene.workbench('annotator', { viewport: { width: 1440, height: 900 }, bypassCSP: true })
      await setTheme(page, theme)
      await ANNOTATOR_SCREENS.find((s) => s.name === 'annotate-pairwise-preference')!.open(page)
      await page.keyboard.press('h')
      await page.getByTestId('item').getByTestId('history').waitFor()
      await page.waitForFunction(() => !document.querySelector('[data-testid=item] [data-testid=history]')!.textContent!.includes('Loading'))
      const found = await problemsNow(page, `${theme} history`)
      await page.keyboard.press('h')
      await setTheme(page, 'light')
      expect(found).toEqual([])
      await page.close()
    }, 120_000)
  }

  it('dialogs and the display settings pass too, while open', async () => {
    const page = await scene.workbench('annotator', { viewport: { width: 1024, height: 700 }, bypassCSP: true })
    const found: string[] = []
    const check = async (what: string) => {
      for (const v of await axeViolations(page)) found.push(`${what}: ${describeViolation(v)}`)
    }
    await page.getByTestId('display-settings').click()
    await page.getByRole('dialog', { name: 'Display settings' }).waitFor()
    await check('display settings')
    await page.keyboard.press('Escape')
    await ANNOTATOR_SCREENS.find((s) => s.name === 'annotate-flaw-audit')!.open(page)
    await page.keyboard.press('s')
    await page.getByTestId('reason-dialog').waitFor()
    // The dialog has the keyboard: focus is in its field, and the page behind is hidden from assistive technology.
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=reason-dialog]') !== null)).toBe(true)
    await check('skip dialog')
    await page.keyboard.press('Escape')
    await page.getByTestId('reason-dialog').waitFor({ state: 'detached' })
    await page.keyboard.press('+')
    await page.keyboard.press('/')
    await page.getByTestId('quote-picker').waitFor()
    await check('quote picker')
    await page.keyboard.press('Escape')
    expect(found).toEqual([])
    await page.close()
  })

  it('keeps the display settings per person in the project: a reload comes back in the same theme and size', async () => {
    const page = await scene.workbench('annotator', { viewport: { width: 1024, height: 700 } })
    await setTheme(page, 'dark')
    await page.getByTestId('display-settings').click()
    await page.getByTestId('textSize-large').click()
    await page.keyboard.press('Escape')
    await page.reload()
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && document.documentElement.dataset.textSize === 'large')
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('17px')
    // The curator's own settings are untouched.
    const other = await scene.workbench('curator', { viewport: { width: 1024, height: 700 } })
    await other.waitForTimeout(300)
    expect(await other.evaluate(() => document.documentElement.dataset.textSize ?? 'normal')).toBe('normal')
    await setTheme(page, 'light')
    await page.getByTestId('display-settings').click()
    await page.getByTestId('textSize-normal').click()
    await page.close()
    await other.close()
  })

  it('shows where the keyboard focus is on every control it reaches', async () => {
    const page = await scene.workbench('curator', { viewport: { width: 1440, height: 900 } })
    await CURATOR_SCREENS.find((s) => s.name === 'adjudicate')!.open(page)
    const unseen: string[] = []
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab')
      const seen = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body) return null
        const s = getComputedStyle(el)
        const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1
        const shadow = s.boxShadow !== 'none'
        return { ok: ring || shadow, what: `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}` }
      })
      if (seen && !seen.ok) unseen.push(seen.what)
    }
    expect(unseen).toEqual([])
    await page.close()
  })
})

describe.skipIf(!hasChromium)(chromiumSuite('accessibility of an open judge call in Chromium (axe-core)'), () => {
  const suite = browserSuite()

  it('passes with a call opened, in both themes', async () => {
    const path = suite.file('run.assay')
    const fake = await startFakeProviders({ responder: protocolResponder })
    try {
      const project = await demoProject(path)
      const judge = addJudge(project, fake, 'openai')
      expect((await runToEnd(project, { instrument: 'pairwise-preference', judgeId: judge.id, concurrency: 1 })).outcome).toBe('done')
      project.close()
    } finally {
      await fake.close()
    }
    const served = await suite.serve(path)
    const page = await suite.page({ viewport: { width: 1440, height: 900 }, bypassCSP: true }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Judges & runs' }).click()
    await page.locator('[data-run-id="1"]').click()
    await page.getByTestId('call-list').locator('tr[data-call-id]').first().click()
    await page.getByTestId('call-detail').waitFor()
    const found: string[] = []
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme)
      found.push(...(await problemsNow(page, `${theme} open call`)))
    }
    expect(found).toEqual([])
  }, 120_000)
})
