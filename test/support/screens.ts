import type { Page } from 'playwright-core'

// Every screen of the workbench on the demo scene (scripts/screenshots-scene.ts), reached the way a person reaches
// it. The layout and accessibility walks visit each one in turn.

export interface ScreenVisit {
  name: string
  /** Brings the page to this screen and waits until its content is there. */
  open(page: Page): Promise<void>
}

async function tab(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: label, exact: true }).click()
}

async function settle(page: Page): Promise<void> {
  // Lazy screens, fonts, KaTeX and texts waiting for the parser: wait until nothing is loading and two frames have been painted.
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await page.waitForFunction(() => !document.querySelector('.screen-loading, [data-parsing]'))
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

/** Screens of a curator session. */
export const CURATOR_SCREENS: ScreenVisit[] = [
  {
    name: 'overview',
    open: async (page) => {
      await tab(page, 'Overview')
      await page.getByTestId('count-items').waitFor()
      await settle(page)
    }
  },
  {
    name: 'items',
    open: async (page) => {
      await tab(page, 'Items')
      await page.locator('.item-row').first().click()
      await page.locator('.item-view').waitFor()
      await settle(page)
    }
  },
  {
    name: 'instruments',
    open: async (page) => {
      await tab(page, 'Instruments')
      await page.getByTestId('try-form').waitFor()
      await settle(page)
    }
  },
  {
    name: 'annotate-curator',
    open: async (page) => {
      await tab(page, 'Annotate')
      await page.getByTestId('who-is-annotating').waitFor()
      await settle(page)
    }
  },
  {
    name: 'import',
    open: async (page) => {
      await tab(page, 'Import')
      await page.getByTestId('file-input').setInputFiles({
        name: 'questions.jsonl',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('{"question_id": "q1", "question": "Why?"}\n{"question_id": "q2"}\n{"question_id": "q3", "question": 5}\n')
      })
      await page.getByTestId('import-report').waitFor()
      await settle(page)
    }
  },
  {
    name: 'runs',
    open: async (page) => {
      await tab(page, 'Judges & runs')
      await page.getByTestId('runs-screen').waitFor()
      await settle(page)
    }
  },
  {
    name: 'report',
    open: async (page) => {
      await tab(page, 'Audit report')
      await page.getByTestId('report-screen').waitFor()
      await page.waitForFunction(() => !document.querySelector('[data-testid=report-screen]')!.textContent!.includes('Computing the report'), undefined, { timeout: 60_000 })
      await settle(page)
    }
  },
  {
    name: 'adjudicate',
    open: async (page) => {
      await tab(page, 'Adjudicate & packets')
      await page.getByTestId('disagreement').first().click()
      await page.getByTestId('final-form').waitFor()
      await settle(page)
    }
  },
  {
    name: 'packets',
    open: async (page) => {
      await tab(page, 'Adjudicate & packets')
      await page.getByRole('navigation', { name: 'Adjudication' }).getByRole('button', { name: 'Packets' }).click()
      await settle(page)
    }
  }
]

async function backToQueues(page: Page): Promise<void> {
  const back = page.getByRole('button', { name: /Queues/ })
  if (await back.count()) await back.first().click()
  await page.getByTestId('queue').first().waitFor()
}

function queueItem(instrument: string): ScreenVisit {
  return {
    name: `annotate-${instrument}`,
    open: async (page) => {
      await backToQueues(page)
      await page.locator(`[data-testid=queue][data-instrument="${instrument}"]`).click()
      await page.locator(`[data-testid=item][data-instrument="${instrument}"]`).waitFor()
      await settle(page)
    }
  }
}

/** Screens of a session locked to one annotator of the scene: the queues and one item of each form. */
export const ANNOTATOR_SCREENS: ScreenVisit[] = [
  {
    name: 'queues',
    open: async (page) => {
      await backToQueues(page)
      await settle(page)
    }
  },
  queueItem('pairwise-preference'),
  queueItem('flaw-audit'),
  queueItem('hypothesis-match'),
  queueItem('leak-audit'),
  queueItem('cue-rating'),
  queueItem('fs-research-grade')
]
