/**
 * Screenshots for the README, made from the demo project: the pairwise screen, the flaw audit with its evidence
 * (a wrong formula quoted from the proposal) and the adjudication form. `npm run screenshots` (after `npm run build`)
 * writes them to docs/screenshots/. Chromium: /usr/bin/chromium or ASSAY_CHROMIUM.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { curatorSession, type SessionState } from '../src/main/api/context'
import { EventHub } from '../src/main/events'
import { ensureAnnotator } from '../src/main/store/annotators'
import { Project } from '../src/main/store/project'
import { startWebServer, type WebServer } from '../src/main/web/server'
import { FORMULA_ITEM, prepareDemoScene, SCENE_ANNOTATORS } from './screenshots-scene'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'docs', 'screenshots')
const rendererDir = join(root, 'out', 'renderer')
const chromiumPath = process.env.ASSAY_CHROMIUM ?? '/usr/bin/chromium'
const VIEWPORT = { width: 1440, height: 900 }

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await page.evaluate(() => document.fonts.ready)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

async function openQueue(page: Page, instrument: string): Promise<void> {
  await page.locator(`[data-testid=queue][data-instrument="${instrument}"]`).click()
  await page.locator(`[data-testid=item][data-instrument="${instrument}"]`).waitFor()
}

async function pairwise(page: Page): Promise<void> {
  await openQueue(page, 'pairwise-preference')
  // Ada's first pair is still open: choose "A better" with its key, as she would.
  await page.keyboard.press('2')
  await settle(page)
  await page.screenshot({ path: join(outDir, 'pairwise.png') })
}

async function flawAudit(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Queues/ }).click()
  await openQueue(page, 'flaw-audit')
  // Walk the queue to the pair whose draft quotes the formula.
  for (let i = 0; i < 12 && (await page.getByTestId('list-entry').count()) === 0; i++) {
    await page.keyboard.press('n')
    await page.waitForTimeout(150)
  }
  if ((await page.getByTestId('list-entry').count()) === 0) throw new Error(`no flaw draft found on ${FORMULA_ITEM}`)
  // The evidence field under the cursor: its quote stands out in the proposal, scrolled into view.
  const cursor = () => page.locator('form.annotate-fields').getAttribute('data-cursor')
  for (let i = 0; i < 8 && !(await cursor())?.endsWith('.evidence'); i++) await page.keyboard.press('j')
  await page.waitForTimeout(300)
  await page.locator('.annotate-source').evaluate((box) => box.scrollBy({ top: -160 }))
  await page.locator('.annotate-form').evaluate((form) => form.scrollTo({ top: 0 }))
  await settle(page)
  if (!(await page.locator('[data-testid=item]').textContent())?.includes('provably optimal')) throw new Error('the formula pair is not on screen')
  await page.screenshot({ path: join(outDir, 'flaw-audit.png') })
}

async function adjudication(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Adjudicate & packets' }).click()
  await page.getByRole('combobox', { name: 'Instrument' }).selectOption('flaw-audit')
  await page.getByTestId('disagreement').filter({ hasText: FORMULA_ITEM }).click()
  const item = page.getByTestId('adjudication-item')
  await item.getByTestId('answer').first().getByRole('button', { name: 'Start from this answer' }).click()
  await item.getByTestId('final-form').getByLabel('Reason').fill('The worked check shows a feasible allocation with fewer undetected errors: the flaw is real and fatal.')
  // The form from its heading, with the end of the answers above it.
  await item.getByTestId('final-form').evaluate((form) => {
    const pane = form.closest('.adjudication-detail')!
    pane.scrollTop += form.getBoundingClientRect().top - pane.getBoundingClientRect().top - 90
  })
  await settle(page)
  await page.screenshot({ path: join(outDir, 'adjudication.png') })
}

async function main(): Promise<void> {
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error('The workbench is not built: run npm run build first.')
  if (!existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath}; set ASSAY_CHROMIUM.`)
  mkdirSync(outDir, { recursive: true })
  const dir = mkdtempSync(join(tmpdir(), 'assay-screenshots-'))
  const servers: WebServer[] = []
  let project: Project | undefined
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const path = join(dir, 'demo.assay')
    await prepareDemoScene(path, root)
    project = await Project.open(path)
    const hub = new EventHub()
    const ada = ensureAnnotator(project, SCENE_ANNOTATORS[0])
    const annotator: SessionState = { role: 'annotator', annotator: { id: ada.id, name: ada.name }, locked: true }
    for (const session of [annotator, curatorSession()]) servers.push(await startWebServer({ project, hub, session, rendererDir }))

    const annotating = await browser.newPage({ viewport: VIEWPORT })
    await annotating.goto(servers[0]!.url)
    await annotating.getByTestId('queue').first().waitFor()
    await pairwise(annotating)
    await flawAudit(annotating)

    const curating = await browser.newPage({ viewport: VIEWPORT })
    await curating.goto(servers[1]!.url)
    await curating.locator('.topbar').waitFor()
    await adjudication(curating)
    console.log(`Wrote pairwise.png, flaw-audit.png and adjudication.png to ${outDir}`)
  } finally {
    await browser.close()
    for (const s of servers) await s.close()
    project?.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e: unknown) => {
  console.error((e as Error).message)
  process.exitCode = 1
})
