import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../src/main/report'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { runCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'
import { demoAfterJudgeRun } from '../integration/report/fixtures'

// The audit of the demo after two judge runs, one of them archived, opened in the workbench served by `assay serve`:
// a summary card per judge, one colour per source in every plot, axis labels that never overlap, and the archived run
// nowhere on the page.

const tmp = tempDir('assay-report-summary-')
let served: ServedProject
let browser: Browser
let page: Page
let judges: string[]
let report: ReturnType<typeof projectReport>

describe.skipIf(!hasChromium)(chromiumSuite('the report screen on the demo in Chromium'), () => {
  beforeAll(async () => {
    const path = tmp.file('demo.assay')
    const project = await demoAfterJudgeRun(path)
    // The fixture writes its runs directly; a run started by Assay also records its display-order key and batch mode.
    project.db.prepare(`UPDATE runs SET options = '{"viewer":"","batch":false}'`).run()
    project.close()
    expect((await runCli('runs', 'archive', path, '2')).code).toBe(0)
    const { Project } = await import('../../src/main/store/project')
    const readonly = await Project.open(path, { readonly: true })
    report = projectReport(readonly.db, { instrument: 'pairwise-preference' })
    judges = report.sources.filter((s) => s.role === 'judge').map((s) => s.id)
    readonly.close()
    served = await serveProject(path)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Audit report' }).click()
    await page.getByLabel('Instrument').selectOption('pairwise-preference')
    await page.locator('.summary-card').first().waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'Expand all' }).click()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('shows a summary card for each judge, and none for the archived run', async () => {
    expect(judges).toContain('run:1')
    expect(judges).not.toContain('run:2')
    const cards = await page.locator('.summary-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-source')))
    expect([...cards].sort()).toEqual([...judges].sort())
    const card = page.locator('.summary-card[data-source="run:1"]')
    const text = await card.innerText()
    expect(text).toMatch(/ACCURACY|Accuracy/)
    expect(text).toMatch(/majority baseline/)
    expect(text).toMatch(/human ceiling/)
    expect(text).toMatch(/Consistency of compared|CONSISTENCY OF COMPARED/)
    expect(text).toMatch(/Fatal-flaw recall|FATAL-FLAW RECALL/)
  })

  it("finds each card's accuracy interval in its field's table, under the interval's name", async () => {
    // Cards on a field other than the pairwise verdict cite the field table's row of the same source and criterion.
    const cited = report.summary.filter((c) => c.field !== 'winner' && c.accuracy.ci_low !== null && c.accuracy.ci_high !== null)
    expect(cited.length).toBeGreaterThan(0)
    for (const card of cited) {
      const mark = card.accuracy.ci_method === 'wilson' ? 'W' : 'B'
      const interval = `${mark} [${(100 * (card.accuracy.ci_low as number)).toFixed(1)}%, ${(100 * (card.accuracy.ci_high as number)).toFixed(1)}%]`
      const cell = page.locator(`#field-${card.field} tr[data-source="${card.source}"][data-criterion="${card.criterion}"] td[data-statistic="accuracy"]`)
      expect((await cell.innerText()).replace(/\s+/g, ' ')).toContain(interval)
    }
  })

  it('leaves the archived run out of every table and plot', async () => {
    expect(await page.locator('[data-source="run:2"]').count()).toBe(0)
    expect(await page.locator('.report-body').innerText()).not.toContain('gpt-judge')
  })

  it('gives each source one colour across every plot, table and card', async () => {
    const colours = await page.evaluate(() => {
      const out: Record<string, string[]> = {}
      for (const el of Array.from(document.querySelectorAll('.report-body [data-source]'))) {
        const id = el.getAttribute('data-source') as string
        let colour: string | null = null
        if (el instanceof SVGElement) colour = el.getAttribute('fill') ?? el.getAttribute('stroke')
        else if (el.classList.contains('swatch')) colour = getComputedStyle(el).backgroundColor
        else {
          const swatch = el.querySelector('.swatch')
          if (swatch) colour = getComputedStyle(swatch).backgroundColor
        }
        if (!colour) continue
        // One notation for every colour: rgb(r, g, b).
        const probe = document.createElement('span')
        probe.style.color = colour
        document.body.appendChild(probe)
        const normal = getComputedStyle(probe).color
        probe.remove()
        ;(out[id] ??= []).push(normal)
      }
      return out
    })
    for (const judge of judges) expect(Object.keys(colours)).toContain(judge)
    for (const [source, seen] of Object.entries(colours)) expect(new Set(seen), source).toHaveProperty('size', 1)
    // Judges are told apart by colour.
    const judgeColours = judges.map((j) => colours[j]?.[0])
    expect(new Set(judgeColours).size).toBe(judges.length)
    // Marks of a judge appear in the accuracy, subset and position plots alike.
    const kinds = await page.locator('[data-kind] svg [data-source="run:1"]').evaluateAll((els) => [...new Set(els.map((e) => e.closest('[data-kind]')?.getAttribute('data-kind')))])
    expect(kinds).toEqual(expect.arrayContaining(['accuracy', 'subsets', 'position']))
  })

  it('draws no two axis labels of a plot over each other', async () => {
    const overlaps = await page.evaluate(() => {
      type P = { x: number; y: number }
      // Corners of a label's box in screen space, rotation included.
      const corners = (el: SVGGraphicsElement): P[] => {
        const b = el.getBBox()
        const m = el.getScreenCTM()!
        const inset = 0.5
        return [
          [b.x + inset, b.y + inset],
          [b.x + b.width - inset, b.y + inset],
          [b.x + b.width - inset, b.y + b.height - inset],
          [b.x + inset, b.y + b.height - inset]
        ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m))
      }
      // Separating axis test for two convex quadrilaterals.
      const intersect = (a: P[], b: P[]) => {
        for (const poly of [a, b]) {
          for (let i = 0; i < 4; i++) {
            const p = poly[i]!
            const q = poly[(i + 1) % 4]!
            const axis = { x: q.y - p.y, y: p.x - q.x }
            const project = (s: P[]) => s.map((v) => v.x * axis.x + v.y * axis.y)
            const pa = project(a)
            const pb = project(b)
            if (Math.max(...pa) <= Math.min(...pb) || Math.max(...pb) <= Math.min(...pa)) return false
          }
        }
        return true
      }
      const found: string[] = []
      let checked = 0
      for (const svg of Array.from(document.querySelectorAll('.report-body svg'))) {
        const labels = Array.from(svg.querySelectorAll<SVGTextElement>('text.axis-label')).filter((t) => t.textContent)
        const boxes = labels.map(corners)
        checked += labels.length
        for (let i = 0; i < labels.length; i++) {
          for (let j = i + 1; j < labels.length; j++) {
            if (intersect(boxes[i]!, boxes[j]!)) found.push(`${svg.querySelector('title')?.textContent}: "${labels[i]!.textContent}" / "${labels[j]!.textContent}"`)
          }
        }
      }
      return { found, checked }
    })
    expect(overlaps.checked).toBeGreaterThan(50)
    expect(overlaps.found).toEqual([])
  })

  it('restores the archived run from the runs screen, and the report has it again', async () => {
    await page.getByRole('button', { name: 'Judges & runs' }).click()
    await page.getByTestId('run-list').waitFor()
    expect(await page.locator('[data-run-id="2"]').count()).toBe(0)
    await page.getByText('Show archived', { exact: true }).click()
    const row = page.locator('[data-run-id="2"]')
    await expect.poll(() => row.getAttribute('data-archived')).toBe('true')
    await row.getByRole('button', { name: 'Restore' }).click()
    await expect.poll(() => row.getAttribute('data-archived')).toBeNull()
    await page.getByRole('button', { name: 'Audit report' }).click()
    await page.getByLabel('Instrument').selectOption('pairwise-preference')
    await expect.poll(() => page.locator('.summary-card[data-source="run:2"]').count(), { timeout: 60_000 }).toBe(1)
    // Archive it again from the screen: gone from the report once more.
    await page.getByRole('button', { name: 'Judges & runs' }).click()
    await page.locator('[data-run-id="2"]').getByRole('button', { name: 'Archive' }).click()
    await page.getByRole('button', { name: 'Audit report' }).click()
    await page.getByLabel('Instrument').selectOption('pairwise-preference')
    await page.locator('.summary-card').first().waitFor({ timeout: 60_000 })
    await expect.poll(() => page.locator('.summary-card[data-source="run:2"]').count(), { timeout: 60_000 }).toBe(0)
  }, 180_000)

  it('filters judges: a source left out is gone and the others keep their colours', async () => {
    const before = await page.locator('.summary-card[data-source="run:1"] .swatch').evaluate((e) => getComputedStyle(e).backgroundColor)
    await page.getByTestId('source-filter').locator('summary').click()
    const other = judges.find((j) => j !== 'run:1')!
    await page.locator(`.report-source-filter input[data-source="${other}"]`).uncheck()
    await expect.poll(() => page.locator(`.summary-card[data-source="${other}"]`).count(), { timeout: 60_000 }).toBe(0)
    expect(await page.locator('.summary-card[data-source="run:1"] .swatch').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(before)
  }, 120_000)
})
