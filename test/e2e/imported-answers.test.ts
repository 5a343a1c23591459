import { writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { dispatch } from '../../src/main/api/dispatch'
import { importFile } from '../../src/main/import'
import { insertItems } from '../../src/main/store/items'
import { Project } from '../../src/main/store/project'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { contextFor } from '../support/project'

// An annotator's answer given elsewhere and imported is done in their queue, and the History panel shows each
// answer as its form (the fields by their labels, with the answer in the form's words), never as JSON.

describe.skipIf(!hasChromium)(chromiumSuite('imported answers and the history panel, in Chromium'), () => {
  const suite = browserSuite('assay-imported-answers-')
  let page: Page
  /** Ada's queue, in its order: which item each place holds. */
  let order: string[]

  beforeAll(async () => {
    const path = suite.file('p.assay')
    const project = await Project.create(path)
    const ideas = [0, 1, 2].map((i) => ({ kind: 'idea' as const, externalId: `idea-${i}`, set: 'ideas', split: 'none' as const, payload: { idea: `Idea ${i}: a cheap proxy for an expensive assay.` } }))
    project.write((db) => insertItems(db, ideas))
    const res = await dispatch(contextFor(project), 'assignments.create', { instrument: 'idea-review', annotators: ['Ada'], overlap: 1 })
    expect(res.ok).toBe(true)
    const judgement = { originality: 7, feasibility: 4, clarity: 1, analysis: 'Reviewed on paper, typed in later.' }
    writeFileSync(suite.file('labels.jsonl'), JSON.stringify({ item: 'idea-0', instrument: 'idea-review', source: 'Ada', source_kind: 'human', judgement }))
    expect((await importFile(project, 'labels', suite.file('labels.jsonl'))).errors).toEqual([])
    order = (project.db.prepare(`SELECT i.external_id AS e FROM assignments s JOIN items i ON i.id = s.item_id ORDER BY s.position, s.id`).all() as { e: string }[]).map((r) => r.e)
    project.close()
    const served = await suite.serve(path, ['--annotator', 'Ada'])
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
    page.setDefaultTimeout(10_000)
  })

  it('counts the imported answer as done in the queue', async () => {
    await expect.poll(() => page.getByTestId('queue-counts').first().textContent()).toBe('1 done · 0 skipped · 0 flagged · of 3')
  })

  it('shows the imported answer on its item and, in History, as its form', async () => {
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    // The queue opens at its first pending item; the imported one is reached by Alt+← or Alt+→.
    const from = order.findIndex((e) => e !== 'idea-0')
    const to = order.indexOf('idea-0')
    for (let i = 0; i < Math.abs(to - from); i++) {
      const at = await item.getAttribute('data-assignment')
      await page.keyboard.press(to > from ? 'Alt+ArrowRight' : 'Alt+ArrowLeft')
      await expect.poll(() => item.getAttribute('data-assignment')).not.toBe(at)
    }
    // The text is drawn once the Markdown parser has arrived, which may come after the item.
    await expect.poll(() => item.textContent()).toContain('Idea 0:')
    expect(await item.getByTestId('item-status').innerText()).toBe('done')
    await page.keyboard.press('h')
    const revision = item.getByTestId('revision')
    await revision.waitFor()
    const answer = revision.getByTestId('answer-view')
    const field = (label: string) => answer.locator('.answer-field', { has: page.locator('dt', { hasText: label }) }).locator('dd')
    expect(await field('Originality').innerText()).toBe('7 of 1–10 · excellent')
    expect(await field('Clarity').innerText()).toBe('1 of 1–10 · poor')
    expect(await field('Brief analysis').innerText()).toBe('Reviewed on paper, typed in later.')
    expect(await revision.textContent()).not.toContain('{')
  })
})
