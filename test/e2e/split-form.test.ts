import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { runCli } from '../support/cli'
import { insertFit } from '../../src/main/store/calibration-fits'
import { Project } from '../../src/main/store/project'

// A dev/test split made from the item browser, by the same code as `assay split`: the plan it made (strata, counts,
// the calibration fit it moved out of its fit split), the rows' new splits, and the refusal once the items are in use.

describe.skipIf(!hasChromium)(chromiumSuite('making a dev/test split from the item browser, in Chromium'), () => {
  const suite = browserSuite()
  let page: Page
  let seed: string

  beforeAll(async () => {
    const path = suite.file('p.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    seed = (JSON.parse((await runCli('info', path, '--json')).stdout) as { seed: string }).seed
    // A fit made on the still unsplit hypothesis sets: a split of them moves the items it learned from.
    const project = await Project.open(path)
    const sets = (project.db.prepare(`SELECT id FROM items WHERE kind = 'hypothesis-set'`).all() as { id: number }[]).map((r) => r.id)
    const spec = {
      method: 'threshold' as const,
      instrument: 'hypothesis-match',
      source: 'model:score-judge',
      criterion: 'matched',
      score_field: 'match',
      target: { field: 'matched', positive: 'yes' },
      fit_split: 'none' as const,
      eval_split: 'test' as const
    }
    project.write((db) => insertFit(db, spec, { kind: 'threshold', threshold: 0.5, metric: 'accuracy', fit_value: 1, candidates: 1 }, sets, sets.length))
    project.close()
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Items' }).click()
  }, 120_000)

  async function split(kind: string): Promise<void> {
    await page.getByRole('button', { name: 'Make a dev/test split…' }).click()
    const form = page.getByTestId('split-form')
    expect(await form.getByLabel('Seed').inputValue()).toBe(seed)
    await form.getByLabel('Test share').fill('0.5')
    await form.getByLabel('Kind').selectOption(kind)
    await form.getByRole('button', { name: 'Make the split' }).click()
  }

  it('shows the plan it made, names the fit no longer held out, and the rows show their splits', async () => {
    await split('hypothesis-set')
    const plan = page.getByTestId('split-plan')
    await expect.poll(() => plan.textContent()).toContain('Split made: 3 dev, 3 test')
    expect(await plan.textContent()).toContain('demo-ageing · hypothesis-set')
    expect(await page.getByTestId('split-fits').textContent()).toMatch(/Fit \d+ \(threshold, hypothesis-match\): 6 items moved/)
    await page.getByTestId('split-form').getByRole('button', { name: 'Close' }).click()
    await page.getByLabel('Split', { exact: true }).selectOption('test')
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe('3 items')
  })

  it('refuses a split of items already answered, with the reason, in the form', async () => {
    await page.getByLabel('Split', { exact: true }).selectOption('')
    await split('proposal-pair')
    await expect.poll(() => page.getByTestId('split-plan').textContent()).toContain('Split made: 6 dev, 6 test')
    await page.getByTestId('split-form').getByRole('button', { name: 'Close' }).click()
    await split('proposal-pair')
    await expect.poll(() => page.getByTestId('split-refusal').textContent()).toMatch(/The split is frozen: 12 item\(s\) already in a split have answers or judgements/)
    expect(await page.getByTestId('split-plan').count()).toBe(0)
  })
})
