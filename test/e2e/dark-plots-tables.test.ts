import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { demoSceneSuite } from '../support/browser-suite'
import { CURATOR_SCREENS } from '../support/screens'

// In the dark theme the report's plots and the summary cards' gauges take the theme's colours (no white plot on a
// dark page, no dark ink on a dark plot); at 1024 px every table of the curator screens scrolls in its own box,
// which the keyboard reaches (in the tab order, a labelled region).

const scene = demoSceneSuite()

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('display-settings').click()
  await page.getByTestId(`theme-${theme}`).click()
  await page.keyboard.press('Escape')
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme)
}

describe.skipIf(!hasChromium)(chromiumSuite('dark plots and tables in their own boxes, in Chromium'), () => {
  it('draws plots and card gauges in the dark theme in its colours', async () => {
    const page = await scene.workbench('curator', { viewport: { width: 1440, height: 900 } })
    await setTheme(page, 'dark')
    await CURATOR_SCREENS.find((s) => s.name === 'report')!.open(page)
    const drawn = await page.evaluate(() => {
      const probe = document.createElement('div')
      probe.style.color = 'var(--panel)'
      document.body.append(probe)
      const panel = getComputedStyle(probe).color
      probe.remove()
      const svgs = [...document.querySelectorAll('.report-plot-svg svg, .summary-card .gauge svg')]
      return {
        panel,
        count: svgs.length,
        backgrounds: [...new Set(svgs.map((svg) => getComputedStyle(svg.querySelector(':scope > rect')!).fill))],
        texts: [...new Set(svgs.flatMap((svg) => [...svg.querySelectorAll('text')].map((t) => getComputedStyle(t).fill)))],
        strokes: [...new Set(svgs.flatMap((svg) => [...svg.querySelectorAll('line')].map((l) => getComputedStyle(l).stroke)))],
        // The human majority's swatch beside it in the tables, in the same colour as its bars.
        majoritySwatch: getComputedStyle(document.querySelector('.report-table .swatch[data-colour="#3b3f43"]')!).backgroundColor,
        majorityBar: getComputedStyle(document.querySelector('.report-plot-svg [fill="#3b3f43"]')!).fill
      }
    })
    await setTheme(page, 'light')
    expect(drawn.count).toBeGreaterThan(3)
    expect(drawn.backgrounds).toEqual([drawn.panel])
    // The light theme's ink, muted ink and grid: unreadable or glaring on the dark panel.
    for (const light of ['rgb(29, 31, 33)', 'rgb(107, 111, 115)']) expect(drawn.texts).not.toContain(light)
    for (const light of ['rgb(29, 31, 33)', 'rgb(228, 226, 220)']) expect(drawn.strokes).not.toContain(light)
    expect(drawn.majorityBar).not.toBe('rgb(59, 63, 67)')
    expect(drawn.majoritySwatch).toBe(drawn.majorityBar)
    await page.close()
  }, 120_000)

  it('at 1024 px, scrolls every table in a box of its own that the keyboard reaches', async () => {
    const page = await scene.workbench('curator', { viewport: { width: 1024, height: 700 } })
    const found: string[] = []
    for (const screen of CURATOR_SCREENS) {
      await screen.open(page)
      const bad = await page.evaluate(() =>
        [...document.querySelectorAll('main table')]
          .filter((table) => !table.closest('.summary-card'))
          .flatMap((table) => {
            const box = table.parentElement!.closest('.table-scroll')
            const what = table.getAttribute('aria-label') ?? table.getAttribute('data-testid') ?? table.className
            if (!box) return [`${what}: no scrolling box of its own`]
            const s = getComputedStyle(box)
            const problems: string[] = []
            if (!['auto', 'scroll'].includes(s.overflowX)) problems.push(`${what}: box does not scroll (${s.overflowX})`)
            if (box.getAttribute('tabindex') !== '0') problems.push(`${what}: box not in the tab order`)
            if (box.getAttribute('role') !== 'region' || !box.getAttribute('aria-label')) problems.push(`${what}: box not a labelled region`)
            if (box.getBoundingClientRect().right > document.documentElement.clientWidth + 1) problems.push(`${what}: box wider than the window`)
            return problems
          })
      )
      found.push(...bad.map((b) => `${screen.name}: ${b}`))
    }
    expect(found).toEqual([])
    await page.close()
  }, 180_000)
})
