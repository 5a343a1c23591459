import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { serveProject, type ServedProject } from '../support/serve'
import { spawnCli } from '../support/cli'
import { tempDir } from '../support/tmp'

const tmp = tempDir()
let served: ServedProject
let browser: Browser
let page: Page

const CSV = ['paper_id,title,abstract,venue', 'p1,Cold atoms,"We trap atoms, then cool them.",PRL', 'p2,Warm ions,Ions are heated.,Nature', ''].join('\n')

describe.skipIf(!hasChromium)(chromiumSuite('the generic import’s mapping form in Chromium'), () => {
  beforeAll(async () => {
    const path = tmp.file('p.assay')
    expect(spawnCli(['new', path]).code).toBe(0)
    served = await serveProject(path)
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Import' }).click()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('offers the file’s columns, refuses until the mapping is complete, then imports single texts', async () => {
    await page.getByTestId('file-input').setInputFiles({ name: 'abstracts.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') })
    await expect.poll(() => page.getByTestId('chosen-file').textContent()).toBe('abstracts.csv')
    const report = page.getByTestId('import-report')
    // Not detected: no format of Assay's own has these columns.
    await expect.poll(async () => (await page.getByRole('alert').allTextContents()).join(' ') + ((await report.count()) ? await report.textContent() : '')).toMatch(/format/i)

    await page.getByLabel('Format').selectOption('generic')
    const form = page.getByTestId('mapping-form')
    await expect.poll(() => form.isVisible()).toBe(true)
    await expect.poll(() => page.getByTestId('import-errors').textContent()).toMatch(/mapping\.id.*needs a column for id.*mapping\.text/)
    expect(await page.getByTestId('run-import').isDisabled()).toBe(true)
    // The header's columns are the choices for each role.
    const options = await page.getByLabel('Column for text').locator('option').allTextContents()
    expect(options).toEqual(['—', 'paper_id', 'title', 'abstract', 'venue'])

    await page.getByLabel('Column for id').selectOption('paper_id')
    await page.getByRole('button', { name: 'Preview again' }).click()
    await expect.poll(() => page.getByTestId('import-errors').textContent()).not.toContain('mapping.id')
    expect(await page.getByTestId('import-errors').textContent()).toContain('mapping.text')
    expect(await page.getByTestId('run-import').isDisabled()).toBe(true)

    await page.getByLabel('Column for text').selectOption('abstract')
    await page.getByLabel('Column for title').selectOption('title')
    await page.getByRole('button', { name: 'Preview again' }).click()
    await expect.poll(() => report.textContent()).toMatch(/Would import 2 items/)
    expect(await page.getByTestId('import-mapping').textContent()).toMatch(/venue\s*kept unchanged under \$extra/)
    expect(await report.textContent()).toContain('Cold atoms')
    await page.getByTestId('run-import').click()
    await expect.poll(() => report.textContent()).toMatch(/Imported 2 items/)
    await page.getByRole('button', { name: 'Overview' }).click()
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('2')
  })

  it('switches to pairs, keeping the id column and offering the pair roles', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Import' }).click()
    await page.getByTestId('file-input').setInputFiles({ name: 'pairs.csv', mimeType: 'text/csv', buffer: Buffer.from('row,left,right\nq1,One.,Two.\n', 'utf8') })
    await expect.poll(() => page.getByTestId('chosen-file').textContent()).toBe('pairs.csv')
    await page.getByLabel('Format').selectOption('generic')
    // Choosing the format previews the file, so its columns are offered at once.
    await expect.poll(() => page.getByLabel('Column for id').locator('option').allTextContents()).toEqual(['—', 'row', 'left', 'right'])
    await page.getByLabel('Column for id').selectOption('row')
    await page.getByLabel('Rows are').selectOption('pairs')
    expect(await page.getByLabel('Column for id').inputValue()).toBe('row')
    await page.getByLabel('Column for a_text').selectOption('left')
    await page.getByLabel('Column for b_text').selectOption('right')
    await page.getByRole('button', { name: /Preview/ }).click()
    await expect.poll(() => page.getByTestId('import-report').textContent()).toMatch(/Would import 1 item/)
    expect(await page.getByTestId('import-report').textContent()).toContain('proposal-pair')
  })
})
