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

/** Two annotators answer the same pairs with opposite verdicts, so every shared pair is a disagreement. */
async function projectWithDisagreements(): Promise<void> {
  const project = await Project.create(path)
  await loadDemo(project)
  const hub = new EventHub()
  const curator: ApiContext = { project, session: curatorSession(), events: hub }
  await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 2 })
  for (const [name, verdict] of [
    ['Ada', 'a_better'],
    ['Ben', 'b_much_better']
  ] as const) {
    const ctx: ApiContext = { project, session: curatorSession(), events: hub }
    await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
    const { rows } = await call(ctx, 'queue.list', { instrument: 'pairwise-preference' })
    for (const r of rows) await call(ctx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { verdict }, activeMs: 1000 })
  }
  project.close()
}

describe.skipIf(!hasChromium)(chromiumSuite('adjudication screen in Chromium'), () => {
  beforeAll(async () => {
    await projectWithDisagreements()
    served = await serveProject(path)
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(served.url)
  })
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    tmp.cleanup()
  })

  it('lists disagreements, shows the answers side by side and records a final label with a reason', async () => {
    await page.getByRole('button', { name: 'Adjudicate & packets' }).click()
    await expect.poll(() => page.getByTestId('disagreement').count()).toBeGreaterThan(0)
    const open = await page.getByTestId('disagreement').count()
    await page.getByTestId('disagreement').first().click()
    const item = page.getByTestId('adjudication-item')
    // Ada and Ben, and the demo's two demonstration experts, answered every pair.
    await expect.poll(() => item.getByTestId('answer').count()).toBe(4)
    const body = await item.textContent()
    for (const hidden of ['model-x', 'model-y', 'model-z', 'example-lab', 'human_better', 'ai_better']) expect(body).not.toContain(hidden)
    await item.getByTestId('answer').first().getByRole('button', { name: 'Start from this answer' }).click()
    await item.getByLabel('Reason').fill('The method section supports A; B rests on an unchecked formula.')
    await item.getByLabel('Curator').fill('Cora')
    await item.getByRole('button', { name: 'Record' }).click()
    await expect.poll(() => page.getByTestId('adjudication-counts').textContent()).toContain('1 decided')
    expect(open).toBeGreaterThanOrEqual(1)

    const db = new Database(path, { readonly: true })
    const rows = db.prepare(`SELECT curator, reason, based_on FROM adjudications`).all() as Array<{ curator: string; reason: string; based_on: string }>
    db.close()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ curator: 'Cora', reason: 'The method section supports A; B rests on an unchecked formula.' })
    expect(JSON.parse(rows[0]!.based_on)).toHaveLength(4)
  })
})
