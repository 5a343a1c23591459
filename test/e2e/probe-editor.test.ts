import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { runCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { repoRoot, tempDir } from '../support/tmp'
import { join } from 'node:path'

// A curator writes a probe by hand: one proposal beside its editable copy, the difference shown as it is typed, and
// the probe saved as a new pair with its provenance.

describe.skipIf(!hasChromium)(chromiumSuite('the probe editor'), () => {
  const tmp = tempDir('assay-probe-editor-')
  const path = tmp.file('demo.assay')
  let served: ServedProject
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    served = await serveProject(path)
    browser = await launchChromium()
    // The page's Content-Security-Policy forbids inline scripts; only the test's own axe script is let in.
    page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
    page.setDefaultTimeout(15_000)
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('shows the live diff and saves the probe with its provenance', async () => {
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Items' }).click()
    await page.getByLabel('Search items').fill('demo-formula')
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('1 item')
    await page.locator('[data-external-id="demo-formula"]').click()
    const view = page.getByTestId('item-view')
    await expect.poll(() => view.locator('h1').first().textContent()).toBe('demo-formula')
    await view.getByRole('button', { name: 'Make a probe…' }).click()
    const editor = page.getByTestId('probe-editor')
    await page.getByLabel('Proposal to perturb').selectOption('b')
    await page.getByLabel('Probe kind').selectOption('citation-fabrication')
    expect(await editor.innerText()).toContain('planted flaw hallucinated_content, major')
    expect(await page.getByTestId('probe-diff').innerText()).toContain('No change yet.')
    const box = page.getByLabel('Probe: edit the copy')
    const original = await box.inputValue()
    await box.fill(`${original}\n\nAs Okafor and Lindqvist (2031) proved, this always holds.`)
    await expect.poll(() => page.getByTestId('probe-diff').locator('.change-added').innerText()).toContain('Okafor and Lindqvist (2031)')
    // A changed formula is listed rendered, whole, on both sides: KaTeX, not the LaTeX as written.
    await box.fill(`${original.replace('$\\hat p_k$', '$\\hat q_k$')}\n\nAs Okafor and Lindqvist (2031) proved, this always holds.`)
    const formula = page.getByTestId('probe-diff').locator('[data-testid=probe-change]').filter({ has: page.locator('.md-math') })
    await expect.poll(() => formula.count()).toBe(1)
    expect(await formula.locator('.change-removed annotation').textContent()).toBe('\\hat p_k')
    expect(await formula.locator('.change-added annotation').textContent()).toBe('\\hat q_k')
    expect(await formula.innerText()).not.toContain('$')
    // No serious or critical accessibility violation with the editor open and a diff shown (axe-core).
    await page.addScriptTag({ path: join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js') })
    const violations = (await page.evaluate(() =>
      (window as unknown as { axe: { run(ctx: Element, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe.run(
        document.querySelector('[data-testid=probe-editor]')!,
        { resultTypes: ['violations'] }
      )
    )) as { violations: Array<{ id: string; impact: string | null }> }
    expect(violations.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
    await editor.getByRole('button', { name: 'Save probe' }).click()
    expect(await page.getByTestId('probe-saved').innerText()).toContain('demo-formula~b~citation-fabrication')
    const listed = await runCli('probe', 'list', path, '--json')
    const [probe] = JSON.parse(listed.stdout) as Array<{ externalId: string; method: string; provenance: { original: { item: string; side: string }; diff: Array<{ op: string; text: string }> } }>
    expect(probe).toMatchObject({ externalId: 'demo-formula~b~citation-fabrication', method: 'hand', provenance: { original: { item: 'demo-formula', side: 'b' } } })
    await page.screenshot({ path: process.env.ASSAY_PROBE_SHOT ?? tmp.file('editor.png') })
  }, 60_000)
})
