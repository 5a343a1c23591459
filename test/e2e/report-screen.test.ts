import { createServer, type Server } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { build } from 'vite'
import react from '@vitejs/plugin-react'
import { projectReport } from '../../src/main/report'
import type { Report } from '../../src/shared/report'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { repoRoot, tempDir } from '../support/tmp'
import { demoAfterJudgeRun } from '../integration/report/fixtures'

const tmp = tempDir('assay-report-screen-')
let server: Server
let browser: Browser
let page: Page
let report: Report
const outside: string[] = []

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' }

describe.skipIf(!hasChromium)(chromiumSuite('the report screen in Chromium'), () => {
  beforeAll(async () => {
    const project = await demoAfterJudgeRun(tmp.file('demo.assay'))
    report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const outDir = tmp.file('screen')
    await build({
      root: join(repoRoot, 'test/e2e/report-screen'),
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, target: 'es2022' }
    })
    server = createServer((req, res) => {
      const path = join(outDir, (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').split('?')[0]!)
      readFile(path).then(
        (body) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
        () => res.writeHead(404).end()
      )
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
    const context = await browser.newContext({ acceptDownloads: true })
    await context.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith(origin) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue()
      outside.push(url)
      return route.abort()
    })
    page = await context.newPage()
    await page.addInitScript((data) => {
      ;(window as unknown as { assayReport: unknown }).assayReport = data
    }, report)
    await page.goto(`${origin}/`)
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((done) => server?.close(done))
    tmp.cleanup()
  })

  it('asks for the first instrument’s report and shows its tables and warnings', async () => {
    await expect.poll(() => page.locator('[data-plot-id]').count()).toBeGreaterThan(5)
    const calls = await page.evaluate(() => (window as unknown as { assayCalls: Array<{ operation: string; input: unknown }> }).assayCalls)
    expect(calls).toContainEqual({ operation: 'report.build', input: { instrument: 'pairwise-preference', requestId: expect.stringMatching(/^report-/) } })
    expect(await page.getByTestId('report-warnings').textContent()).toContain('below majority baseline')
    expect(await page.locator('.report-table').first().textContent()).toContain('claude-judge · run 1')
    expect(await page.getByTestId('report-summary').locator('.summary-card').count()).toBeGreaterThan(1)
    expect(outside).toEqual([])
  })

  it('asks again when a split is chosen', async () => {
    await page.getByLabel('Split').selectOption('test')
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { assayCalls: Array<{ operation: string; input: unknown }> }).assayCalls.length))
      .toBeGreaterThanOrEqual(3)
    const calls = await page.evaluate(() => (window as unknown as { assayCalls: Array<{ operation: string; input: unknown }> }).assayCalls)
    expect(calls.at(-1)).toEqual({ operation: 'report.build', input: { instrument: 'pairwise-preference', split: 'test', requestId: expect.stringMatching(/^report-/) } })
    await expect.poll(() => page.locator('[data-plot-id]').count()).toBeGreaterThan(5)
  })

  it('labels each figure of the ceiling and of judge against judge with what it counts', async () => {
    await page.getByRole('button', { name: 'Expand all' }).click()
    const ceiling = (await page.locator('#ceiling').textContent()) ?? ''
    expect(ceiling).toContain('Each annotator against the majority of the others (the cards’ human ceiling)')
    expect(ceiling).toContain('· with each annotator')
    expect(ceiling).toContain('· against the human majority')
    expect(ceiling).toContain(report.ceiling[0]!.definitions.judge_with_each_annotator)
    expect(await page.locator('#judge-vs-judge').textContent()).toContain('shared units')
    expect(await page.locator('#pairwise').textContent()).toContain(report.pairwise!.unit)
    expect(await page.locator('#field-winner').textContent()).toContain(report.fields[0]!.unit)
  })

  it('exports a plot as SVG and as PNG', async () => {
    // Sections start closed under the summary cards.
    await page.getByRole('button', { name: 'Expand all' }).click()
    const figure = page.locator('[data-plot-id="position-pairwise"]')
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), figure.getByRole('button', { name: /as SVG/ }).click()])
    expect(svgDownload.suggestedFilename()).toBe('assay-pairwise-preference-all-position-pairwise.svg')
    const svg = await readFile(await svgDownload.path())
    expect(svg.toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), figure.getByRole('button', { name: /as PNG/ }).click()])
    expect(pngDownload.suggestedFilename()).toBe('assay-pairwise-preference-all-position-pairwise.png')
    const png = await readFile(await pngDownload.path())
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    // Twice the plot's size, for print.
    const width = png.readUInt32BE(16)
    expect(width).toBe(2 * Number(/width="(\d+)"/.exec(svg.toString('utf8'))?.[1]))
  })
})
