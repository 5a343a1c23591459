import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import type { ServedProject } from '../support/serve'
import { spawnCli } from '../support/cli'

// The Assign form of a curator's Annotate screen: annotators are picked from the profiles that exist, a new profile
// is added by its own form, and the lists on the screen follow both at once.

let served: ServedProject
let page: Page

describe.skipIf(!hasChromium)(chromiumSuite('assigning items from the workbench in Chromium'), () => {
  const suite = browserSuite()

  beforeAll(async () => {
    const path = suite.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1440, height: 900 } }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Annotate', exact: true }).click()
    await page.getByTestId('assign-panel').waitFor()
    // The demo's profiles are listed once the screen's first answers arrive; counts below are taken after that.
    await page.getByTestId('annotator-table').locator('tbody tr').first().waitFor()
  })

  it('offers no free-typed names: only the existing profiles can be picked', async () => {
    const panel = page.getByTestId('assign-panel')
    expect(await panel.getByLabel('Annotator names').count()).toBe(0)
    const group = panel.getByRole('group', { name: 'Annotators' })
    const boxes = group.getByRole('checkbox')
    const profiles = await page.getByTestId('annotator-table').locator('tbody tr').count()
    expect(await boxes.count()).toBe(profiles)
    // With no one picked there is nothing to assign.
    expect(await panel.getByRole('button', { name: 'Assign', exact: true }).isDisabled()).toBe(true)
  })

  it('draws a disabled button as disabled: faded, and no pointer', async () => {
    const assign = page.getByTestId('assign-panel').getByRole('button', { name: 'Assign', exact: true })
    expect(await assign.isDisabled()).toBe(true)
    const look = await assign.evaluate((el) => ({ opacity: Number(getComputedStyle(el).opacity), cursor: getComputedStyle(el).cursor }))
    expect(look.opacity).toBeLessThan(0.6)
    expect(look.cursor).toBe('not-allowed')
  })

  it('adds a profile by its own form, and every list on the screen shows it at once', async () => {
    const panel = page.getByTestId('assign-panel')
    const before = await page.getByTestId('annotator-table').locator('tbody tr').count()
    await panel.getByLabel('New annotator name').fill('Dr. Cy')
    await panel.getByRole('button', { name: 'Add annotator' }).click()
    await expect.poll(() => panel.getByTestId('annotator-added').textContent()).toMatch(/Dr\. Cy added as A\d\d/)
    await expect.poll(() => page.getByTestId('annotator-table').locator('tbody tr').count()).toBe(before + 1)
    // The profiles above the form, where a curator starts annotating, follow too.
    await expect.poll(() => page.getByTestId('who-is-annotating').getByRole('button', { name: 'Dr. Cy' }).count()).toBe(1)

    await panel.getByRole('group', { name: 'Annotators' }).getByRole('checkbox', { name: 'Dr. Cy' }).check()
    await panel.getByRole('button', { name: 'Assign', exact: true }).click()
    await expect.poll(() => panel.getByTestId('assign-result').textContent()).toContain('Dr. Cy 12')
    await expect.poll(() => page.getByTestId('who-is-annotating').textContent()).toContain('0 of 12 done')
  })

  it('refuses through the same operation a name with no profile, creating none', async () => {
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/assignments.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ instrument: 'pairwise-preference', annotators: ['Dr. Cyy'], overlap: 1, existingOnly: true })
      })
      return (await res.json()) as { ok: boolean; error?: { code: string; message: string } }
    })
    expect(refused.ok).toBe(false)
    expect(refused.error?.message).toContain('No annotator named "Dr. Cyy"')
    const names = await page.evaluate(async () => {
      const res = await fetch('/api/annotators.list', { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin', body: '{}' })
      return ((await res.json()) as { value: { annotators: Array<{ name: string }> } }).value.annotators.map((a) => a.name)
    })
    expect(names).not.toContain('Dr. Cyy')
  })
})
