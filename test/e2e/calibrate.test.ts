import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'
import { demoWithScoreJudge } from '../integration/calibrate/fixture'

// The Calibrate action of the report screen, in the workbench served by `assay serve`: a threshold fitted on dev from
// the screen appears at once as a recalibrated judge beside the raw one, with its before/after on test.
const tmp = tempDir('assay-calibrate-screen-')
let served: ServedProject
let browser: Browser
let page: Page

describe.skipIf(!hasChromium)(chromiumSuite('the Calibrate action of the report screen in Chromium'), () => {
  beforeAll(async () => {
    const path = tmp.file('demo.assay')
    await demoWithScoreJudge(path, tmp.file('match.jsonl'))
    served = await serveProject(path)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Audit report' }).click()
    await page.getByLabel('Instrument').selectOption('hypothesis-match')
    await page.locator('.summary-card').first().waitFor({ timeout: 60_000 })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('shows the estimates corrected for judge error before any fit', async () => {
    await page.getByRole('link', { name: 'Estimates corrected for judge error' }).click()
    const estimates = await page.locator('#estimates').innerText()
    expect(estimates).toContain('share of matched = true')
    expect(estimates).toContain('25 / 5')
  })

  it('fits a threshold from the screen and shows it beside the raw judge', async () => {
    await page.getByRole('button', { name: 'Calibrate a judge…' }).click()
    await page.getByLabel('Method').selectOption('threshold')
    await page.getByRole('button', { name: 'Fit and evaluate' }).click()
    await expect.poll(() => page.getByTestId('calibrate-form').getByRole('status').textContent(), { timeout: 60_000 }).toMatch(/score-judge · threshold.* · fit 1 \(fitted on dev: \d+ items; evaluated on test: \d+ items/)
    await page.getByRole('link', { name: 'Recalibrated judges' }).waitFor({ timeout: 60_000 })
    await page.getByRole('link', { name: 'Recalibrated judges' }).click()
    const section = await page.locator('#calibration').innerText()
    expect(section).toContain('threshold ≥ 4')
    expect(section).toMatch(/accuracy 80\.0% → 100\.0% .*on 15 units/)
  })

  it('says the same fit asked for again is stored already, and stores no second one', async () => {
    const form = page.getByTestId('calibrate-form')
    if ((await form.getByLabel('Method').count()) === 0) await page.getByRole('button', { name: 'Calibrate a judge…' }).click()
    await form.getByLabel('Method').selectOption('threshold')
    await form.getByRole('button', { name: 'Fit and evaluate' }).click()
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 60_000 }).toContain('Already stored with the same specification')
    // Named as the tables name it, never by its internal id.
    expect(await form.getByRole('status').textContent()).toContain(' · fit 1 (')
    expect(await form.getByRole('status').textContent()).not.toContain('fit:')
    expect(await page.locator('#calibration').innerText()).not.toContain('fit 2')
  })

  it('says what is wrong in the form’s own words, never as a command-line flag', async () => {
    const form = page.getByTestId('calibrate-form')
    if ((await form.getByLabel('Method').count()) === 0) await page.getByRole('button', { name: 'Calibrate a judge…' }).click()
    await form.getByLabel('Method').selectOption('platt')
    await form.getByLabel('Human label', { exact: true }).fill('plausibility')
    await form.getByRole('button', { name: 'Fit and evaluate' }).click()
    const alert = form.getByRole('alert')
    await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toContain('“Counts as yes”')
    expect(await alert.textContent()).not.toMatch(/--[a-z]/)
    // The control it names is on the form.
    expect(await form.getByLabel('Counts as yes', { exact: true }).count()).toBe(1)
    await form.getByLabel('Human label', { exact: true }).fill('')
  })

  it('refuses, through the same bridge, a fit on test items', async () => {
    // The screen always fits on dev; the operation itself refuses test, whoever calls it.
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/report.calibrate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ instrument: 'hypothesis-match', source: 'model:score-judge', method: 'threshold', fitSplit: 'test', evalSplit: 'dev' })
      })
      return (await res.json()) as { ok: boolean; error?: { code: string; message: string } }
    })
    expect(refused.ok).toBe(false)
    expect(refused.error?.code).toBe('invalid_input')
    expect(refused.error?.message).toMatch(/never fitted on test items/)
  })
})
