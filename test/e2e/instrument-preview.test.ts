import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { runCli } from '../support/cli'
import { repoRoot } from '../support/tmp'
import { Project } from '../../src/main/store/project'

// The curator's instruments screen: a declared form tried on one of the project's items before anyone answers it.

const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml')

describe.skipIf(!hasChromium)(chromiumSuite('trying an instrument before use, in Chromium'), () => {
  const suite = browserSuite('assay-try-')
  let path: string
  let page: Page

  beforeAll(async () => {
    path = suite.file('study.assay')
    expect((await runCli('new', path)).code).toBe(0)
    expect((await runCli('instrument', 'add', path, DECLARATION)).code).toBe(0)
    writeFileSync(suite.file('ideas.csv'), 'key,name,body\ni1,Cold atoms,"Trap **cold atoms** in an optical lattice."\ni2,Warm ions,"Heat trapped ions with a noisy drive."\n')
    const items = await runCli('import', path, 'generic', suite.file('ideas.csv'), '--as', 'texts', '--map', 'id=key,text=body,title=name')
    expect(items.code, items.stderr).toBe(0)
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Instruments', exact: true }).click()
  }, 60_000)

  it('shows the declared instrument first, its fields at their levels and the item as an annotator sees it', async () => {
    await expect.poll(() => page.locator('#instrument-title').textContent()).toBe('Research idea review')
    const fields = page.getByTestId('instrument-fields')
    await expect.poll(() => fields.locator('tbody tr').count()).toBe(4)
    expect(await fields.textContent()).toContain('reject, borderline, accept')
    await expect.poll(() => page.locator('.try-source strong').first().textContent()).toBe('cold atoms')
  })

  it('refuses an incomplete answer field by field, and shows what a complete one would be stored as', async () => {
    const form = page.getByTestId('try-form')
    await page.getByTestId('try-check').click()
    await expect.poll(() => page.getByTestId('try-outcome').textContent()).toContain('4 fields need attention')
    for (const [name, v] of [['Novelty', '8'], ['Excitement', '7'], ['Feasibility', '6']] as const) {
      await form.getByRole('radiogroup', { name }).getByRole('radio', { name: v, exact: true }).click()
    }
    await form.getByRole('radiogroup', { name: 'Overall' }).getByRole('radio', { name: /accept/i }).click()
    await page.getByTestId('try-check').click()
    await expect.poll(() => page.getByTestId('try-outcome').textContent()).toContain('Accepted as a submission would be')
    expect(JSON.parse((await page.getByTestId('try-outcome').locator('pre').textContent())!)).toMatchObject({ novelty: 8, excitement: 7, feasibility: 6, verdict: 'accept' })
    const { project } = await Project.openForReading(path)
    try {
      expect(project.db.prepare('SELECT count(*) AS n FROM annotations').get()).toEqual({ n: 0 })
    } finally {
      project.close()
    }
  })

  it('shows the request a judge would be sent for the item chosen', async () => {
    await page.getByTestId('try-item').selectOption({ label: 'i2 — Warm ions' })
    await page.getByTestId('try-request').locator('summary').click()
    await expect.poll(() => page.getByRole('region', { name: 'User message' }).or(page.getByLabel('User message')).textContent()).toContain('Heat trapped ions with a noisy drive.')
    expect(await page.getByTestId('try-request').textContent()).toContain('Answer with one JSON object')
  })
})
