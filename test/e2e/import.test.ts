import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { serveProject, type ServedProject } from '../support/serve'
import { spawnCli } from '../support/cli'
import { repoRoot, tempDir } from '../support/tmp'

const tmp = tempDir()
let served: ServedProject
let browser: Browser
let page: Page

/** Puts a file in the page's file picker, as a person choosing it from their computer would. */
async function upload(name: string, content: string | Buffer): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8') })
  await expect.poll(() => page.getByTestId('chosen-file').textContent()).toBe(name)
}

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

  it('lists every error of an uploaded file with its line and field, and imports nothing', async () => {
    // Three bad rows: two without a question, one cut short.
    await upload('questions.jsonl', '{"question_id": "q1", "question": "Why?"}\n{"question_id": "q2"}\n{"question_id": "q3"}\n{"question_id": "q4"\n')
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toContain('nothing will be imported')
    const rows = page.getByTestId('import-errors').locator('tbody tr')
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3)
    const lines = await rows.locator('td:first-child').allTextContents()
    expect(lines).toEqual(expect.arrayContaining(['2', '3', '4']))
    expect(await page.getByTestId('import-errors').textContent()).toContain('question')
    expect(await page.getByTestId('run-import').isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Overview' }).click()
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('0')
    await page.getByRole('button', { name: 'Import' }).click()
  })

  it('detects the format of each new file afresh and shows counts as a table', async () => {
    await upload('cues.jsonl', '{"question_id": "q1", "question": "Why do cells age?", "lab_note": "x"}\n{"question_id": "q2", "question": "What limits lifespan?"}\n')
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toMatch(/Would import 2 items.*as questions \(detected\)/)
    expect(await page.getByTestId('import-mapping').textContent()).toMatch(/lab_note\s*kept unchanged/)
    // A different kind of file next: detected as itself, not as the previous format.
    const task = readFileSync(join(repoRoot, 'resources', 'demo', 'tasks.jsonl'), 'utf8').split('\n')[0]!
    await upload('tasks.jsonl', `${task}\n`)
    await expect.poll(() => report.textContent()).toContain('from tasks.jsonl')
    expect(await report.textContent()).not.toMatch(/as questions/)
    expect(await report.textContent()).toContain('(detected)')
  })

  it('imports an uploaded file, all of it, under its own name', async () => {
    await upload('cues.jsonl', '{"question_id": "q1", "question": "Why do cells age?"}\n{"question_id": "q2", "question": "What limits lifespan?"}\n')
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toMatch(/Would import 2 items/)
    const counts = page.getByTestId('import-counts')
    expect(await counts.locator('tbody tr').count()).toBeGreaterThan(0)
    await page.getByTestId('run-import').click()
    await expect.poll(() => report.textContent()).toMatch(/Imported 2 items/)
    expect(await report.textContent()).toContain('into set cues')
    await page.getByRole('button', { name: 'Overview' }).click()
    await expect.poll(() => page.getByTestId('count-items').textContent()).toBe('2')
    await page.getByRole('button', { name: 'Import' }).click()
  })

  it('sends the bytes: invalid UTF-8 is refused with its byte offset, and imported replaced and counted only when accepted', async () => {
    const bytes = Buffer.concat([Buffer.from('{"question_id": "u1", "question": "Caf'), Buffer.from([0xe9]), Buffer.from(' or tea?"}\n')])
    await upload('latin1.jsonl', bytes)
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toContain('nothing will be imported')
    expect(await page.getByTestId('import-errors').textContent()).toContain('invalid UTF-8 at byte offset 38')
    await page.getByLabel('Accept invalid UTF-8').check()
    await page.getByRole('button', { name: 'Preview again' }).click()
    await expect.poll(() => report.textContent()).toMatch(/Would import 1 items/)
    expect(await report.textContent()).toContain('1 invalid UTF-8 sequence replaced by U+FFFD')
    await page.getByTestId('run-import').click()
    await expect.poll(() => report.textContent()).toMatch(/Imported 1 items/)
  })

  it('still imports by path on this machine', async () => {
    const good = tmp.file('more.jsonl')
    writeFileSync(good, '{"question_id": "q9", "question": "Why is the sky blue?"}\n')
    await page.getByText('Or give a path on this machine').click()
    await page.getByLabel('File path').fill(good)
    await page.getByRole('button', { name: 'Use this file' }).click()
    const report = page.getByTestId('import-report')
    await expect.poll(() => report.textContent()).toMatch(/Would import 1 items and 0 labels from more\.jsonl/)
  })
})
