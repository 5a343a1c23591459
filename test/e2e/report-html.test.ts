import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { runCli } from '../support/cli'
import { tempDir } from '../support/tmp'
import { demoAfterJudgeRun } from '../integration/report/fixtures'

const tmp = tempDir('assay-report-e2e-')
let browser: Browser
let page: Page
const blocked: string[] = []
let htmlPath: string

describe.skipIf(!hasChromium)(chromiumSuite('the HTML report opens offline in Chromium'), () => {
  beforeAll(async () => {
    const project = await demoAfterJudgeRun(tmp.file('demo.assay'))
    project.close()
    htmlPath = tmp.file('report.html')
    const result = await runCli('report', tmp.file('demo.assay'), '--instrument', 'pairwise-preference', '--html', htmlPath)
    expect(result.code).toBe(0)
    browser = await launchChromium()
    const context = await browser.newContext({ offline: true })
    // Everything but the file itself is refused and recorded: the report must need nothing else.
    await context.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith('file://')) return route.continue()
      blocked.push(url)
      return route.abort()
    })
    page = await context.newPage()
    await page.goto(pathToFileURL(htmlPath).href)
  })
  afterAll(async () => {
    await browser?.close()
    tmp.cleanup()
  })

  it('loads without requesting anything', async () => {
    expect(await page.title()).toBe('Audit: Which proposal is better — demo')
    expect(blocked).toEqual([])
  })

  it('opens on the summary with the sections closed; a contents link opens its section, printing opens them all', async () => {
    const isOpen = (id: string) => page.locator(`details#${id}`).evaluate((d) => (d as HTMLDetailsElement).open)
    expect(await isOpen('warnings')).toBe(true)
    expect(await isOpen('pairwise')).toBe(false)
    await page.locator('nav.contents a[href="#pairwise"]').click()
    expect(await isOpen('pairwise')).toBe(true)
    expect(await isOpen('ceiling')).toBe(false)
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')))
    expect(await page.locator('details.section:not([open])').count()).toBe(0)
  })

  it('renders its plots as SVG: accuracy with baselines, subsets, position bias and confusion heatmaps', async () => {
    const figures = page.locator('figure[data-kind]')
    expect(await figures.count()).toBeGreaterThan(5)
    for (const kind of ['accuracy', 'subsets', 'position', 'confusion']) {
      expect(await page.locator(`figure[data-kind="${kind}"] svg`).count(), kind).toBeGreaterThan(0)
    }
    // Drawn, not just present: the accuracy bars have a size on screen.
    const bar = page.locator('figure[data-kind="accuracy"] svg rect[data-value]').first()
    const box = await bar.boundingBox()
    expect(box?.width).toBeGreaterThan(10)
    expect(await page.locator('figure[data-kind="confusion"] svg rect[data-count]').count()).toBeGreaterThanOrEqual(16)
  })

  it('shows the tables with their denominators and warnings', async () => {
    expect(await page.locator('#warnings li[data-code="below_majority_baseline"]').count()).toBeGreaterThan(0)
    const sources = await page.locator('#sources table').innerText()
    expect(sources).toContain('claude-judge · run 1')
    expect(sources).toContain('gemini-2.5-pro')
    const pairwise = await page.locator('#pairwise table').first().innerText()
    expect(pairwise).toContain('Majority baseline')
    expect(await page.locator('#ceiling table').count()).toBeGreaterThan(0)
    expect(await page.locator('#judge-vs-judge table').count()).toBe(1)
  })

  it('opens on a summary card per judge that its one script, allowed by hash, sorts', async () => {
    const order = () => page.locator('#summary-cards > .summary-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-source')))
    const cards = await order()
    expect(cards).toEqual(expect.arrayContaining(['run:1', 'run:2']))
    expect(await page.locator('nav.contents a[href="#pairwise"]').count()).toBe(1)
    const select = page.locator('#summary-sort')
    expect(await select.isEnabled()).toBe(true)
    await select.selectOption('accuracy')
    const accuracy = await page.locator('#summary-cards > .summary-card').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-sort-accuracy'))))
    expect(accuracy).toEqual([...accuracy].sort((a, b) => b - a))
    expect(await order()).not.toEqual(cards)
    await select.selectOption('report')
    expect(await order()).toEqual(cards)
  })

  it('carries the report JSON it was drawn from', async () => {
    const embedded = await page.locator('#assay-report').textContent()
    const fromFile = /<script type="application\/json" id="assay-report">([\s\S]*?)<\/script>/.exec(readFileSync(htmlPath, 'utf8'))?.[1]
    expect(JSON.parse(embedded ?? '')).toEqual(JSON.parse(fromFile ?? ''))
  })
})
