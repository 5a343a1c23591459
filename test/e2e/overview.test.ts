import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { spawnCli } from '../support/cli'

// The Overview's counts on the demo, whose answers are 27 by its two experts and 12 by an imported judge: people's
// answers are annotations, a judge's are judgements, whether the judge was asked here or its outputs imported.

describe.skipIf(!hasChromium)(chromiumSuite('the Overview counts in Chromium'), () => {
  const suite = browserSuite()
  let page: Page

  beforeAll(async () => {
    const path = suite.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
  })

  it('counts the imported judge outputs as judgements, not as annotations', async () => {
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('28')
    expect(await page.getByTestId('count-annotations').textContent()).toBe('27')
    expect(await page.getByTestId('count-judgements').textContent()).toBe('12')
  })
})
