import { writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { spawnCli } from '../support/cli'

// The import screen's "Skip items already in the project": a file two of whose rows the project already has is
// refused whole without it, and with it the rest is imported and the two are counted.

const question = (id: string) => JSON.stringify({ question_id: id, question: `Question ${id}?` })

describe.skipIf(!hasChromium)(chromiumSuite('importing a file with items already in the project, in Chromium'), () => {
  const suite = browserSuite()
  let page: Page

  async function upload(name: string, content: string): Promise<void> {
    await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(content, 'utf8') })
    await expect.poll(() => page.getByTestId('chosen-file').textContent()).toBe(name)
    await page.getByTestId('import-report').waitFor()
  }

  beforeAll(async () => {
    const path = suite.file('p.assay')
    expect(spawnCli(['new', path]).code).toBe(0)
    writeFileSync(suite.file('first.jsonl'), [question('Q1'), question('Q2')].join('\n'))
    expect(spawnCli(['import', path, 'questions', suite.file('first.jsonl')]).code).toBe(0)
    const served = await suite.serve(path)
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
    page.setDefaultTimeout(10_000)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Import' }).click()
  })

  it('refuses the file without the option, then imports the rest with it, counting the two left out', async () => {
    await upload('more.jsonl', [question('Q1'), question('Q2'), question('Q3')].join('\n'))
    await expect.poll(() => page.getByTestId('import-errors').textContent()).toContain('"Q1" is already in the project')
    expect(await page.getByTestId('run-import').isDisabled()).toBe(true)

    await page.getByLabel('Skip items already in the project').check()
    await page.getByRole('button', { name: 'Preview again' }).click()
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toMatch(/Would import 1 item/)
    expect(await report.textContent()).toContain('2 items already in the project left out')
    await page.getByTestId('run-import').click()
    await expect.poll(() => report.textContent()).toMatch(/Imported 1 item/)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Overview' }).click()
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('3')
  })
})
