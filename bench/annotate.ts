import { join } from 'node:path'
import { existsSync } from 'node:fs'
import type { CDPSession } from 'playwright-core'
import { Project } from '../src/main/store/project'
import { insertItems, type NewItem } from '../src/main/store/items'
import { assignItems } from '../src/main/annotation/assign'
import { writeAnswerLimits } from '../src/main/annotation/answer-limits'
import { launchChromium, chromiumPath } from '../test/support/browser'
import { serveProject } from '../test/support/serve'
import { median, quantile, type BenchFigures } from './measure'

/**
 * Submit → next item fully rendered, in a 100,000-item project, driven by keyboard in Chromium against `assay serve`.
 * Baseline in the same run: the bare round trip of one `queue.item` request from the page (no rendering).
 */
export async function benchAnnotate(dir: string, items = 100_000, submissions = 500): Promise<BenchFigures> {
  if (!existsSync(chromiumPath)) return { skipped: `no Chromium at ${chromiumPath}` }
  const path = join(dir, 'annotate.assay')
  const project = await Project.create(path)
  const rows: NewItem[] = Array.from({ length: items }, (_, i) => ({
    kind: 'idea',
    externalId: `idea-${i}`,
    set: 'ideas',
    split: 'none',
    payload: { idea: `Idea ${i}: measure whether a cheap proxy predicts the expensive assay, with a preregistered threshold.`, keywords: ['ageing'] }
  }))
  project.write(() => insertItems(project.db, rows))
  assignItems(project, { instrumentId: 'idea-review', annotators: ['Bench'], overlap: 1 })
  // A scripted annotator submits far faster than a person: lift the per-session rate limit for this project.
  project.write(() => writeAnswerLimits(project.db, { submissions_burst: submissions + 10, submissions_per_minute: 60_000 }))
  project.close()

  const served = await serveProject(path, ['--annotator', 'Bench'])
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    const cdp: CDPSession = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.goto(served.url)
    await page.getByTestId('queue').first().waitFor()
    await page.getByTestId('queue').first().click()
    await page.getByTestId('item').waitFor()
    const latencies: number[] = []
    for (let i = 0; i < submissions; i++) {
      const current = await page.getByTestId('item').getAttribute('data-assignment')
      // Leave the analysis box, answer the three scales by digit keys, then submit; time from the submit key to the
      // next item in the DOM.
      await page.keyboard.press('Escape')
      await page.keyboard.press('j')
      await page.keyboard.press('5')
      await page.keyboard.press('6')
      await page.keyboard.press('7')
      const ms = await page.evaluate(async (prev) => {
        const t0 = performance.now()
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }))
        for (;;) {
          const el = document.querySelector('[data-testid="item"]')
          if (el && el.getAttribute('data-assignment') !== prev) {
            await new Promise((r) => requestAnimationFrame(() => r(null)))
            return performance.now() - t0
          }
          await new Promise((r) => setTimeout(r, 0))
        }
      }, current)
      latencies.push(ms)
    }
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }
    const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null
    const someAssignment = Number(await page.getByTestId('item').getAttribute('data-assignment'))
    const baseline: number[] = await page.evaluate(async (assignmentId) => {
      const out: number[] = []
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now()
        await fetch('/api/queue.item', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ assignmentId }) }).then((r) => r.json())
        out.push(performance.now() - t0)
      }
      return out
    }, someAssignment)
    return {
      items,
      submissions,
      submit_to_next_rendered_median_ms: median(latencies),
      submit_to_next_rendered_p95_ms: quantile(latencies, 0.95),
      target_p95_ms: 50,
      bare_item_fetch_round_trip_median_ms: median(baseline),
      renderer_js_heap_mb_after_submissions: heap === null ? null : heap / 1024 / 1024
    }
  } finally {
    await browser.close()
    await served.stop()
  }
}
