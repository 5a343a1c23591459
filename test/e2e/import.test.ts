import { writeFileSync } from 'node:fs'
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

describe.skipIf(!hasChromium)(chromiumSuite('import dialog in Chromium'), () => {
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

  it('shows errors with their lines and imports nothing from a malformed file', async () => {
    const bad = tmp.file('questions.jsonl')
    writeFileSync(bad, '{"question_id": "q1", "question": "Why?"}\n{"question_id": "q2"\n')
    await page.getByLabel('File path').fill(bad)
    await page.getByLabel('Format').selectOption('questions')
    await page.getByRole('button', { name: 'Preview' }).click()
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toContain('nothing will be imported')
    expect(await report.textContent()).toMatch(/questions\.jsonl:2/)
    expect(await page.getByRole('button', { name: 'Import', exact: true }).last().isDisabled()).toBe(true)
  })

  it('previews a good file, then imports it', async () => {
    const good = tmp.file('cues.jsonl')
    writeFileSync(good, '{"question_id": "q1", "question": "Why do cells age?", "lab_note": "x"}\n{"question_id": "q2", "question": "What limits lifespan?"}\n')
    await page.getByLabel('File path').fill(good)
    await page.getByLabel('Format').selectOption('')
    await page.getByRole('button', { name: 'Preview' }).click()
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toMatch(/Would import 2 items/)
    expect(await report.textContent()).toContain('(detected)')
    const mapping = page.getByTestId('import-mapping')
    expect(await mapping.textContent()).toContain('question_id')
    expect(await mapping.textContent()).toContain('item id')
    expect(await mapping.textContent()).toMatch(/lab_note\s*kept unchanged/)
    await page.locator('.import-form .actions button', { hasText: 'Import' }).click()
    await expect.poll(() => report.textContent()).toMatch(/Imported 2 items/)
    await page.getByRole('button', { name: 'Overview' }).click()
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('2')
  })
})
