import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { insertItems } from '../../src/main/store/items'
import { Project } from '../../src/main/store/project'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import type { ServedProject } from '../support/serve'

// Items of kinds without a screen of their own (research questions, ideas) are shown as labelled fields with their
// text rendered — never as raw JSON.

describe.skipIf(!hasChromium)(chromiumSuite('items shown as fields'), () => {
  const suite = browserSuite('assay-fields-')
  let served: ServedProject
  let page: Page

  beforeAll(async () => {
    const path = suite.file('fields.assay')
    const project = await Project.create(path)
    project.write((db) =>
      insertItems(db, [
        {
          kind: 'research-question',
          externalId: 'rq-1',
          set: 'cues',
          split: 'none',
          payload: {
            question_id: 'rq-1',
            question: 'Does a rate of $\\frac{a}{b}$ per cell predict **survival**?',
            background: 'Cells divide about $n_h$ times.',
            key_points: ['division limit', 'survival']
          }
        }
      ])
    )
    project.close()
    served = await suite.serve(path)
    page = await suite.page()
  })

  it('shows a research question as labelled fields, with Markdown and maths rendered', async () => {
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Items' }).click()
    await page.locator('[data-external-id="rq-1"]').click()
    const view = page.getByTestId('item-view')
    await view.locator('[data-source-field="question"]').waitFor()
    expect(await view.locator('pre').count()).toBe(0)
    expect(await view.locator('[data-source-field="question"] h4').innerText()).toBe('Question')
    expect(await view.locator('[data-source-field="question"] strong').innerText()).toBe('survival')
    expect(await view.locator('[data-source-field="question"] .katex').count()).toBe(1)
    expect(await view.locator('[data-source-field="key_points"] li').allInnerTexts()).toEqual(['division limit', 'survival'])
    expect(await view.innerText()).not.toContain('"question"')
  })
})
