import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { annotatorWorkbench, browserSuite } from '../support/browser-suite'
import { spawnCli } from '../support/cli'

// Messages never contradict each other: on the Assign panel each act replaces what the last one said, so a success
// never stands beside a refusal.

describe.skipIf(!hasChromium)(chromiumSuite('messages after an act, in Chromium'), () => {
  const suite = browserSuite()
  let page: Page
  const screen = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name, exact: true }).click()

  beforeAll(async () => {
    const path = suite.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1440, height: 900 } }, served.url)
    page.setDefaultTimeout(10_000)
  })

  it('never shows "added" beside the refusal of adding the same profile again', async () => {
    await screen('Annotate')
    const panel = page.getByTestId('assign-panel')
    await panel.getByLabel('New annotator name').fill('Dr. Cy')
    await panel.getByRole('button', { name: 'Add annotator' }).click()
    await expect.poll(() => panel.getByTestId('annotator-added').textContent()).toMatch(/Dr\. Cy added as A\d\d/)
    await panel.getByLabel('New annotator name').fill('Dr. Cy')
    await panel.getByRole('button', { name: 'Add annotator' }).click()
    await expect.poll(() => panel.getByRole('alert').textContent()).toBe('Dr. Cy already has a profile.')
    expect(await panel.getByTestId('annotator-added').count()).toBe(0)
    // And an assignment's result replaces the refusal.
    await panel.getByRole('group', { name: 'Annotators' }).getByRole('checkbox', { name: 'Dr. Cy' }).check()
    await panel.getByRole('button', { name: 'Assign', exact: true }).click()
    await expect.poll(() => panel.getByTestId('assign-result').textContent()).toContain('Dr. Cy 12')
    expect(await panel.getByRole('alert').count()).toBe(0)
  })
})

describe.skipIf(!hasChromium)(chromiumSuite('the marks after an undo, in Chromium'), () => {
  const suite = browserSuite()

  it('takes down "saved" for an answer once it is withdrawn', async () => {
    const side = (origin: string) => ({ markdown: `## Introduction\n\nA ${origin} proposal.`, origin })
    const pairs = [1, 2].map((n) => ({ kind: 'proposal-pair' as const, externalId: `p${n}`, set: 'pairs', split: 'none' as const, payload: { pair_id: `p${n}`, a: side('human'), b: side('ai') } }))
    const page = await annotatorWorkbench(suite, suite.file('undo.assay'), pairs, ['pairwise-preference'])
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    const first = await item.getAttribute('data-assignment')
    await page.keyboard.press('2')
    await page.keyboard.press('Control+Enter')
    const mark = page.getByTestId('commit-status')
    await expect.poll(() => mark.getAttribute('data-state')).toBe('saved')
    await page.keyboard.press('Control+z')
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('withdrawn')
    await expect.poll(() => item.getAttribute('data-assignment')).toBe(first)
    expect(await mark.count()).toBe(0)
  })
})
