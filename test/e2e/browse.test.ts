import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import type { ServedProject } from '../support/serve'
import { spawnCli } from '../support/cli'

let served: ServedProject
let page: Page

describe.skipIf(!hasChromium)(chromiumSuite('browse the demo in Chromium'), () => {
  const suite = browserSuite()

  beforeAll(async () => {
    const path = suite.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    served = await suite.serve(path)
    page = await suite.page()
  })

  it('shows the project overview with counts', async () => {
    await page.goto(served.url)
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('28')
    expect(await page.locator('table.grid').textContent()).toContain('proposal-pair')
  })

  it('lists the items, filters by kind and by text', async () => {
    await page.getByRole('button', { name: 'Items' }).click()
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('28 items')
    await page.getByLabel('Kind').selectOption('proposal-pair')
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('12 items')
    await page.getByLabel('Search items').fill('demo-formula')
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('1 item')
  })

  it('opens the formula item and renders its math with KaTeX', async () => {
    await page.locator('[data-external-id="demo-formula"]').click()
    const view = page.getByTestId('item-view')
    await expect.poll(() => view.locator('h1').first().textContent()).toBe('demo-formula')
    await expect.poll(() => view.locator('.katex').count()).toBeGreaterThan(2)
    expect(await view.locator('.katex-display').count()).toBeGreaterThan(0)
    // Raw LaTeX delimiters must not survive rendering.
    expect(await view.locator('.markdown').first().innerText()).not.toContain('$$')
  })

  it('assigns the pairs to two annotators with overlap 2 from the annotate screen', async () => {
    await page.getByRole('button', { name: 'Annotate' }).click()
    const panel = page.getByTestId('assign-panel')
    // Annotators are picked from the profiles; two new ones are added first, each as an act of its own.
    for (const name of ['Ada', 'Ben']) {
      await panel.getByLabel('New annotator name').fill(name)
      await panel.getByRole('button', { name: 'Add annotator' }).click()
      await panel.getByRole('group', { name: 'Annotators' }).getByRole('checkbox', { name }).check()
    }
    await panel.getByLabel('Overlap').fill('2')
    await panel.getByRole('button', { name: 'Assign', exact: true }).click()
    await expect.poll(() => panel.getByTestId('assign-result').textContent()).toMatch(/^12 eligible items · 24 new assignments \(Ada 12, Ben 12\)/)
    // The demo's two demonstration experts are listed beside the two new annotators.
    await expect.poll(() => panel.locator('table.grid tbody tr').count()).toBe(4)
  })

  it('refuses the page without the token', async () => {
    const other = await suite.page()
    const res = await other.goto(served.origin + '/')
    expect(res?.status()).toBe(401)
    await other.close()
  })
})
