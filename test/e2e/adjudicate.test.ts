import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { dispatch } from '../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../src/main/api/context'
import { loadDemo } from '../../src/main/demo/load-demo'
import { EventHub } from '../../src/main/events'
import { Project } from '../../src/main/store/project'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'

const tmp = tempDir()
const path = tmp.file('adj.assay')
let served: ServedProject
let browser: Browser
let page: Page

async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw new Error(`${op}: ${env.error.message}`)
  return env.value as T
}

/**
 * Two annotators answer the same pairs with opposite verdicts, so every shared pair is a disagreement; one more
 * finds no flaw where a demonstration expert found a fatal one backed by a worked check.
 */
async function projectWithDisagreements(): Promise<void> {
  const project = await Project.create(path)
  await loadDemo(project)
  const hub = new EventHub()
  const curator: ApiContext = { project, session: curatorSession(), events: hub }
  await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 2 })
  await call(curator, 'assignments.create', { instrument: 'flaw-audit', annotators: ['Ben'], overlap: 1 })
  for (const [name, verdict] of [
    ['Ada', 'a_better'],
    ['Ben', 'b_much_better']
  ] as const) {
    const ctx: ApiContext = { project, session: curatorSession(), events: hub }
    await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
    const { rows } = await call(ctx, 'queue.list', { instrument: 'pairwise-preference' })
    for (const r of rows) await call(ctx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { verdict }, activeMs: 1000 })
    if (name === 'Ben') {
      const flaws = await call(ctx, 'queue.list', { instrument: 'flaw-audit' })
      for (const r of flaws.rows) await call(ctx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { flaws: [], no_flaws_found: true }, activeMs: 1000 })
    }
  }
  project.close()
}

describe.skipIf(!hasChromium)(chromiumSuite('adjudication screen in Chromium'), () => {
  beforeAll(async () => {
    await projectWithDisagreements()
    served = await serveProject(path)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(served.url)
  })
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('names items by external id and title, states the canonical A/B frame, and records a final label entered with the form', async () => {
    await page.getByRole('button', { name: 'Adjudicate & packets' }).click()
    await expect.poll(() => page.getByTestId('disagreement').count()).toBeGreaterThan(0)
    const open = await page.getByTestId('disagreement').count()
    const firstRow = page.getByTestId('disagreement').first()
    // Named by the id in the imported file, never a database id.
    expect(await firstRow.textContent()).toMatch(/demo-\w+/)
    expect(await firstRow.textContent()).not.toMatch(/#\d+/)
    await firstRow.click()
    const item = page.getByTestId('adjudication-item')
    // Ada and Ben, and the demo's two demonstration experts, answered every pair.
    await expect.poll(() => item.getByTestId('answer').count()).toBe(4)
    const body = await item.textContent()
    for (const hidden of ['model-x', 'model-y', 'model-z', 'example-lab', 'human_better', 'ai_better']) expect(body).not.toContain(hidden)
    expect(await item.getByTestId('side-frame').textContent()).toContain('canonical A/B')
    // Ada pressed "A better" on her own screen: canonical A better, or canonical B better where she saw B on the left.
    const ada = (await item.getByTestId('answer').filter({ hasText: 'Ada' }).textContent())!
    const adaSwapped = /saw canonical B on the left/.test(ada)
    if (!adaSwapped) expect(ada).toContain('saw canonical A on the left')
    expect(ada).toContain(adaSwapped ? 'canonical B better' : 'canonical A better')

    // The instrument's own form, answered by its keys once the focus is in it.
    const form = item.getByTestId('final-form')
    await form.locator('[data-stop="verdict"]').click()
    await page.keyboard.press('3')
    await expect.poll(() => form.getByRole('radio', { name: /^3 B better$/ }).getAttribute('aria-checked')).toBe('true')
    // Started from an answer on request: the form shows Ada's answer in the canonical frame.
    await item.getByTestId('answer').filter({ hasText: 'Ada' }).getByRole('button', { name: 'Start from this answer' }).click()
    const adaOption = adaSwapped ? /^3 B better$/ : /^2 A better$/
    await expect.poll(() => form.getByRole('radio', { name: adaOption }).getAttribute('aria-checked')).toBe('true')
    expect(await form.getByTestId('started-from').textContent()).toContain("Ada's answer")

    // Without a reason nothing is recorded, and the form says why.
    await form.getByRole('button', { name: 'Record' }).click()
    await expect.poll(() => form.getByTestId('form-error').textContent()).toContain('say why')
    await form.getByLabel('Reason').fill('The method section supports A; B rests on an unchecked formula.')
    await form.getByLabel('Decided by').fill('Cora')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect.poll(() => page.getByTestId('adjudication-counts').textContent()).toContain('1 decided')
    expect(open).toBeGreaterThanOrEqual(1)

    const db = new Database(path, { readonly: true })
    const rows = db.prepare(`SELECT curator, reason, based_on, judgement FROM adjudications`).all() as Array<{ curator: string; reason: string; based_on: string; judgement: string }>
    db.close()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ curator: 'Cora', reason: 'The method section supports A; B rests on an unchecked formula.' })
    expect(JSON.parse(rows[0]!.judgement)).toMatchObject({ verdict: adaSwapped ? 'b_better' : 'a_better' })
    expect(JSON.parse(rows[0]!.based_on)).toHaveLength(4)
  })

  it('shows worked-check code with its line breaks', async () => {
    await page.getByRole('combobox', { name: 'Instrument' }).selectOption('flaw-audit')
    await page.getByTestId('disagreement').filter({ hasText: 'demo-formula' }).click()
    // Answers read in the form's words: the flaw type by its label, not its stored name.
    const expert = page.getByTestId('adjudication-item').getByTestId('answer').filter({ hasText: 'Demo Expert 1' })
    expect(await expert.textContent()).toContain('Unsound method')
    expect(await expert.textContent()).not.toContain('unsound_method')
    const check = page.getByTestId('adjudication-item').getByTestId('worked-check').first()
    const code = await check.locator('code').innerText()
    expect(code.split('\n').length).toBeGreaterThan(20)
    expect(code).toContain('\nconst lambda = [6, 3, 1];')
    // The code box scrolls itself; it does not widen the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })
})
