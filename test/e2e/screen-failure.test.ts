import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { spawnCli } from '../support/cli'
import type { ServedProject } from '../support/serve'

// A screen that fails while drawing says what failed in its place; the window is never left blank.

describe.skipIf(!hasChromium)(chromiumSuite('a screen that fails to draw, in Chromium'), () => {
  const suite = browserSuite()
  let served: ServedProject
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    const path = suite.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    expect(spawnCli(['assign', path, '--instrument', 'flaw-audit', '--annotators', 'Demo Expert 1', '--overlap', '1']).code).toBe(0)
    served = await suite.serve(path, ['--annotator', 'Demo Expert 1'])
    page = await suite.page({ viewport: { width: 1024, height: 700 } })
    page.setDefaultTimeout(10_000)
    page.on('pageerror', (e) => errors.push(e.message))
    // The item arrives naming an instrument this window does not know, as a damaged answer would.
    await page.route('**/api/queue.item', async (route) => {
      const response = await route.fetch()
      const body = (await response.text()).replace('"instrument":"flaw-audit"', '"instrument":"no-such-instrument"')
      await route.fulfill({ response, body })
    })
    await page.route(served.url, async (route) => {
      const response = await route.fetch()
      const body = (await response.text()).replaceAll('\\"instrument\\":\\"flaw-audit\\"', '\\"instrument\\":\\"no-such-instrument\\"').replaceAll('"instrument":"flaw-audit"', '"instrument":"no-such-instrument"')
      await route.fulfill({ response, body })
    })
    await page.goto(served.url)
  })

  it('shows what failed where the item was, offers to draw it again or to go back to the queues', async () => {
    await page.locator('[data-testid=queue][data-instrument="flaw-audit"]').click()
    const failed = page.getByTestId('screen-failed')
    await failed.waitFor()
    expect(await failed.getByRole('heading').textContent()).toBe('This screen could not be drawn')
    expect(await failed.textContent()).toContain('Unknown instrument "no-such-instrument"')
    expect(await failed.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true)
    // The rest of the window is still there.
    expect(await page.getByTestId('session').textContent()).toContain('Annotating as Demo Expert 1')
    // An annotator is not stuck on the item (a reload would reopen it): back to the queues.
    await failed.getByRole('button', { name: 'Back to the queues' }).click()
    await page.locator('[data-testid=queue][data-instrument="flaw-audit"]').waitFor()
    expect(await page.getByTestId('screen-failed').count()).toBe(0)
  })
})
