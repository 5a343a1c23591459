import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { watchPageProblems } from '../support/page-problems'
import { hasChromium, chromiumSuite } from '../support/browser'
import { demoSceneSuite, SCENE_WALKS } from '../support/browser-suite'
import { layoutProblems } from '../support/layout-check'
import { ANNOTATOR_SCREENS, CURATOR_SCREENS, type ScreenVisit } from '../support/screens'

// Every screen of the demo, as a curator and as an annotator, at the two window sizes people work in (and with the
// largest text size in the smaller one): no overlapping controls, no page-level scrolling, no dead strips, a legend
// that fits, reading lines of at most ~85 characters, nothing wider than its pane; and on the way, no failed request
// and nothing written to the console as an error or warning.

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 }
] as const
const MAX_LINE_CHARS = 90

const scene = demoSceneSuite()

/** Walks the screens; what is wrong on each, and any failed request, console error or warning on the way. */
async function walk(page: Page, screens: ScreenVisit[]): Promise<string[]> {
  let at = 'opening'
  const watched = watchPageProblems(page, () => at)
  const found = watched.found
  try {
    for (const screen of screens) {
      at = screen.name
      await screen.open(page)
      for (const p of await layoutProblems(page, { maxLineChars: MAX_LINE_CHARS })) found.push(`${screen.name}: ${p.check}: ${p.detail}`)
    }
  } finally {
    watched.stop()
  }
  return found
}

/** Where the sticky section bar ends and where the `index`th section row starts, in the viewport. */
function sectionTop(page: Page, index: number): Promise<{ barBottom: number; targetTop: number }> {
  return page.evaluate((i) => {
    // The item on screen (the next one may be built behind it).
    const item = document.querySelector('[data-testid=item]')!
    const bar = item.querySelector('.section-bar')!.getBoundingClientRect()
    const row = item.querySelectorAll('[data-section-row]')[i]!.getBoundingClientRect()
    return { barBottom: bar.bottom, targetTop: row.top }
  }, index)
}

describe.skipIf(!hasChromium)(chromiumSuite('layout of every screen in Chromium'), () => {
  for (const size of SIZES) {
    for (const [who, screens] of SCENE_WALKS) {
      it(`${who} screens at ${size.width}×${size.height}`, async () => {
        const page = await scene.workbench(who, { viewport: size })
        expect(await walk(page, screens)).toEqual([])
        await page.close()
      }, 120_000)
    }
  }

  for (const [who, screens] of SCENE_WALKS) {
    it(`${who} screens at 1024×700 with the largest text`, async () => {
      const page = await scene.workbench(who, { viewport: SIZES[0] })
      const textSize = async (size: string) => {
        await page.getByTestId('display-settings').click()
        await page.getByTestId(`textSize-${size}`).click()
        await page.keyboard.press('Escape')
        await page.waitForFunction((s) => document.documentElement.dataset.textSize === s, size)
      }
      await textSize('x-large')
      const found = await walk(page, screens)
      await textSize('normal')
      expect(found).toEqual([])
      await page.close()
    }, 120_000)
  }

  it('section jumps land below the sticky section bar', async () => {
    const page = await scene.page({ viewport: SIZES[0] }, scene.url('annotator'))
    await ANNOTATOR_SCREENS.find((s) => s.name === 'annotate-pairwise-preference')!.open(page)
    const item = page.getByTestId('item')
    const buttons = item.locator('.section-bar button')
    const n = await buttons.count()
    expect(n).toBeGreaterThan(3)
    for (let i = n - 1; i >= 0; i--) {
      await buttons.nth(i).click()
      await page.waitForTimeout(50)
      const { barBottom, targetTop } = await sectionTop(page, i)
      expect(targetTop, `section ${i}`).toBeGreaterThanOrEqual(barBottom - 1)
    }
    // The same with the keys: ] walks down section by section, each landing just below the bar.
    await item.locator('.annotate-source').evaluate((box) => box.scrollTo({ top: 0 }))
    await item.locator('.section-bar').evaluate((bar) => (bar.closest('.annotate-source') as HTMLElement).focus())
    for (let i = 1; i < Math.min(n, 5); i++) {
      await page.keyboard.press(']')
      await page.waitForTimeout(50)
      const { barBottom, targetTop } = await sectionTop(page, i)
      expect(targetTop, `section ${i} by key`).toBeGreaterThanOrEqual(barBottom - 1)
      expect(targetTop, `section ${i} by key`).toBeLessThan(barBottom + 40)
    }
    await page.close()
  })

  it('the hypothesis-match form gets the width its five hypotheses × four fields need', async () => {
    const page = await scene.page({ viewport: SIZES[0] }, scene.url('annotator'))
    await ANNOTATOR_SCREENS.find((s) => s.name === 'annotate-hypothesis-match')!.open(page)
    const units = page.getByTestId('item').getByTestId('unit')
    expect(await units.count()).toBe(5)
    // Each scale's choices sit on one line: a scale that wraps is a form squeezed too narrow to answer at a glance.
    const wrapped = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=item] .annotate-form .options')]
        .filter((o) => {
          const buttons = [...o.querySelectorAll('button')].map((b) => b.getBoundingClientRect().top)
          return buttons.length > 0 && Math.max(...buttons) - Math.min(...buttons) > 2
        })
        .map((o) => o.getAttribute('aria-label'))
    )
    expect(wrapped).toEqual([])
    await page.close()
  })

  for (const size of SIZES) {
    it(`the report with every section expanded, and the split form, at ${size.width}×${size.height}, in both themes`, async () => {
      const page = await scene.workbench('curator', { viewport: size })
      const found: string[] = []
      for (const theme of ['light', 'dark'] as const) {
        await page.getByTestId('display-settings').click()
        await page.getByTestId(`theme-${theme}`).click()
        await page.keyboard.press('Escape')
        await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme)
        await CURATOR_SCREENS.find((s) => s.name === 'report')!.open(page)
        await page.getByRole('button', { name: 'Expand all' }).click()
        await page.waitForFunction(() => [...document.querySelectorAll('details.report-section')].every((d) => (d as HTMLDetailsElement).open))
        for (const p of await layoutProblems(page, { maxLineChars: MAX_LINE_CHARS })) found.push(`${theme} report expanded: ${p.check}: ${p.detail}`)
        // A table wider than its box says that columns lie beyond its edge, at its top where the eye is, and only then.
        const frames = await page.locator('details.report-section .table-scroll-frame').evaluateAll((els) =>
          els.map((el) => {
            const box = el.querySelector('.table-scroll') as HTMLElement
            return { wider: box.scrollWidth > box.clientWidth + 1, cue: el.querySelector('.table-scroll-more')?.textContent ?? null }
          })
        )
        for (const f of frames) if (f.wider !== (f.cue === 'more columns →')) found.push(`${theme} report expanded: scroll cue ${JSON.stringify(f)}`)
        if (size.width === 1024) expect(frames.some((f) => f.wider)).toBe(true)
        await page.getByRole('button', { name: 'Collapse all' }).click()
      }
      await CURATOR_SCREENS.find((s) => s.name === 'items')!.open(page)
      await page.getByRole('button', { name: 'Make a dev/test split…' }).click()
      await page.getByTestId('split-form').waitFor()
      for (const p of await layoutProblems(page, { maxLineChars: MAX_LINE_CHARS })) found.push(`split form: ${p.check}: ${p.detail}`)
      await page.keyboard.press('Escape')
      await page.getByTestId('display-settings').click()
      await page.getByTestId('theme-light').click()
      await page.keyboard.press('Escape')
      expect(found).toEqual([])
      await page.close()
    }, 120_000)
  }
})
