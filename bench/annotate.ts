import { join } from 'node:path'
import { existsSync } from 'node:fs'
import type { CDPSession, Page } from 'playwright-core'
import { Project } from '../src/main/store/project'
import { insertItems, type NewItem } from '../src/main/store/items'
import { assignItems } from '../src/main/annotation/assign'
import { writeAnswerLimits } from '../src/main/annotation/answer-limits'
import { launchChromium, chromiumPath } from '../test/support/browser'
import { serveProject } from '../test/support/serve'
import { median, quantile, type BenchFigures } from './measure'

/**
 * Submit → next item painted, driven by keyboard in Chromium against `assay serve`, at two queue sizes (the second is
 * the full `items`), with main's commit acknowledgement timed beside it (the answer commits in the background) and
 * the renderer's heap after a garbage collection at 100 submissions and at the end, to show it does not grow with
 * the queue or the number of items done. Baseline in the same run: the bare round trip of one `queue.item` request
 * from the page (no rendering).
 *
 * Two series per size: the keys as fast as the driver sends them (about 30 ms per item, faster than anyone reads),
 * then up to 200 more with a reading pause before each submit (`read_250ms_*`). Each reports the share of submissions
 * whose next item was already built behind the one on screen, the case a person at reading speed always meets.
 *
 * Beside them, the page's frame interval (median gap between animation frames, measured before the submissions) and
 * the share of submissions whose next item was in the first frame after the key: the frame that showed it was the
 * first one due after the key (its vsync time less than one interval after the key) and the item was in the DOM
 * before that vsync, so the frame did not wait for it. A frame already due when the key came, or one held up until
 * the item was ready, does not count. And the floor of the same "painted" time: a one-text change timed the same way,
 * on an idle page and right after the answer keys at the driver's pace (see measurePaintFloor).
 */
export async function benchAnnotate(dir: string, items = 100_000, submissions = 500): Promise<BenchFigures> {
  if (!existsSync(chromiumPath)) return { skipped: `no Chromium at ${chromiumPath}` }
  const sizes = [Math.min(1000, items), items].filter((n, i, all) => all.indexOf(n) === i)
  const figures: BenchFigures = { submissions, target_p95_ms: 16 }
  for (const size of sizes) {
    const f = await runQueue(dir, size, submissions)
    for (const [k, v] of Object.entries(f)) figures[`items_${size}_${k}`] = v
  }
  return figures
}

async function runQueue(dir: string, items: number, submissions: number): Promise<BenchFigures> {
  const path = join(dir, `annotate-${items}.assay`)
  const project = await Project.create(path)
  const rows: NewItem[] = Array.from({ length: items }, (_, i) => ({
    kind: 'idea',
    externalId: `idea-${i}`,
    set: 'ideas',
    split: 'none',
    payload: { idea: `Idea ${i}: measure whether a cheap proxy predicts the expensive assay, with a preregistered threshold.`, keywords: ['ageing'] }
  }))
  project.write((db) => insertItems(db, rows))
  assignItems(project, { instrumentId: 'idea-review', annotators: ['Bench'], overlap: 1 })
  // A scripted annotator submits far faster than a person: lift the per-session rate limit for this project.
  project.write((db) => writeAnswerLimits(db, { submissions_burst: submissions + pacedSubmissions(items, submissions) + 10, submissions_per_minute: 60_000 }))
  project.close()

  const served = await serveProject(path, ['--annotator', 'Bench'])
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    // Main's acknowledgement of each submission, timed where the page receives it.
    await page.addInitScript(() => {
      const acks: Record<number, number> = ((window as unknown as { __acks: Record<number, number> }).__acks = {})
      const original = window.fetch.bind(window)
      window.fetch = async (input, init) => {
        const res = await original(input, init)
        if (String(input).includes('/api/annotations.submit') && typeof init?.body === 'string') acks[(JSON.parse(init.body) as { assignmentId: number }).assignmentId] = performance.now()
        return res
      }
    })
    const cdp: CDPSession = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.goto(served.url)
    await page.getByTestId('queue').first().waitFor()
    await page.getByTestId('queue').first().click()
    await page.getByTestId('item').waitFor()
    const frameInterval = await measureFrameInterval(page)
    const fast = await submitSeries(page, cdp, submissions, 0, frameInterval)
    const heapAtEnd = await heapAfterGc(page, cdp)
    const paced = await submitSeries(page, cdp, pacedSubmissions(items, submissions), READING_MS, frameInterval)
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
    const floor = await measurePaintFloor(page, 200, false)
    const pacedFloor = await measurePaintFloor(page, 200, true)
    return {
      ...seriesFigures(fast, ''),
      ...seriesFigures(paced, `read_${READING_MS}ms_`),
      floor_text_change_painted_median_ms: round(median(floor)),
      floor_text_change_painted_p95_ms: round(quantile(floor, 0.95)),
      floor_at_driver_pace_painted_median_ms: round(median(pacedFloor)),
      floor_at_driver_pace_painted_p95_ms: round(quantile(pacedFloor, 0.95)),
      frame_interval_ms: round(frameInterval),
      bare_item_fetch_round_trip_median_ms: round(median(baseline)),
      renderer_heap_mb_after_100: fast.heapAt100,
      renderer_heap_mb_after_all: heapAtEnd
    }
  } finally {
    await browser.close()
    await served.stop()
  }
}

/** The pause before each submission of the second series: far shorter than a person's reading, long enough to settle. */
const READING_MS = 250

/** The second series' length: up to 200 submissions, within what the queue has left after the first. */
function pacedSubmissions(items: number, submissions: number): number {
  return Math.max(0, Math.min(200, items - submissions - 1))
}

interface Series {
  painted: number[]
  dom: number[]
  ack: number[]
  inFirstFrame: number
  /** Submissions made while the next item was already built behind the one on screen. */
  ontoHeld: number
  heapAt100: number | null
}

/**
 * `n` keyboard submissions, each after the answer's keys and `readingMs` of pause: time from the submit key to the
 * first frame painted with the next item (a task queued from the frame's callback runs after its paint).
 */
async function submitSeries(page: Page, cdp: CDPSession, n: number, readingMs: number, frameInterval: number): Promise<Series> {
  const out: Series = { painted: [], dom: [], ack: [], inFirstFrame: 0, ontoHeld: 0, heapAt100: null }
  const pending: Promise<unknown>[] = []
  for (let i = 0; i < n; i++) {
    const current = Number(await page.getByTestId('item').getAttribute('data-assignment'))
    for (const key of ANSWER_KEYS) await page.keyboard.press(key)
    if (readingMs) await new Promise((r) => setTimeout(r, readingMs))
    // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
    const r = (await page.evaluate(`(async (prev) => {
      const held = document.querySelector('[data-testid="item-held"]') !== null
      const moved = () => {
        const el = document.querySelector('[data-testid="item"]')
        return el !== null && el.getAttribute('data-assignment') !== String(prev)
      }
      let t0 = 0
      // Asked for before the key, so this frame callback runs before any the page asks for on the key, and the task
      // it queues is the first after the frame's paint: work the page queues for after its paint is not counted.
      // A frame that does not show the next item yet is passed over for the following one.
      const painted = new Promise((resolve) => {
        const onFrame = (at) => {
          if (!moved()) return requestAnimationFrame(onFrame)
          const ch = new MessageChannel()
          ch.port1.onmessage = () => resolve({ painted: performance.now() - t0, frame: at - t0 })
          ch.port2.postMessage(null)
        }
        requestAnimationFrame(onFrame)
      })
      t0 = performance.now()
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }))
      if (!moved()) {
        await new Promise((resolve) => {
          const obs = new MutationObserver(() => {
            if (moved()) { obs.disconnect(); resolve() }
          })
          obs.observe(document.body, { childList: true, subtree: true, attributes: true })
        })
      }
      const dom = performance.now() - t0
      // The frame's time is its vsync, whenever its callbacks run.
      const { painted: p, frame } = await painted
      return { t0, dom, painted: p, frame, held }
    })(${current})`)) as { t0: number; dom: number; painted: number; frame: number; held: boolean }
    out.painted.push(r.painted)
    out.dom.push(r.dom)
    if (r.held) out.ontoHeld++
    if (r.frame >= r.dom && r.frame < frameInterval) out.inFirstFrame++
    // The acknowledgement is read later, so the next submission never waits for it.
    pending.push(
      page
        .waitForFunction((id) => (window as unknown as { __acks: Record<number, number> }).__acks[id] !== undefined, current, { polling: 20, timeout: 60_000 })
        .then(() => page.evaluate(({ id, t0 }) => (window as unknown as { __acks: Record<number, number> }).__acks[id]! - t0, { id: current, t0: r.t0 }))
        .then((ms) => out.ack.push(ms))
    )
    if (i === 99) out.heapAt100 = await heapAfterGc(page, cdp)
  }
  await Promise.all(pending)
  await new Promise((r) => setTimeout(r, 100))
  return out
}

function seriesFigures(s: Series, prefix: string): BenchFigures {
  const n = s.painted.length
  if (!n) return {}
  return {
    [`${prefix}submissions`]: n,
    [`${prefix}submit_to_next_in_dom_median_ms`]: round(median(s.dom)),
    [`${prefix}submit_to_next_in_dom_p95_ms`]: round(quantile(s.dom, 0.95)),
    [`${prefix}submit_to_next_painted_median_ms`]: round(median(s.painted)),
    [`${prefix}submit_to_next_painted_p95_ms`]: round(quantile(s.painted, 0.95)),
    [`${prefix}next_item_in_first_frame_share`]: round(s.inFirstFrame / n),
    [`${prefix}next_item_already_built_share`]: round(s.ontoHeld / n),
    [`${prefix}commit_acknowledged_median_ms`]: s.ack.length ? round(median(s.ack)) : null,
    [`${prefix}commit_acknowledged_p95_ms`]: s.ack.length ? round(quantile(s.ack, 0.95)) : null
  }
}

/** The keys that answer an item before its submission: leave the analysis box, then answer the three scales. */
const ANSWER_KEYS = ['Escape', 'j', '5', '6', '7']

/**
 * The floor of "painted", timed exactly as a submission is: a change of one short text in a small box, to the same
 * frame-and-task mark. What it measures is the wait for a frame plus a frame with almost nothing to draw: no work on
 * the key can make a next item paint sooner. `paced`: the change comes right after the same answer keys as a
 * submission at the driver's pace, so the page is drawing a frame for each key and the change waits for the next
 * one; otherwise it comes at a random moment of an idle page, whose next frame starts at once.
 */
async function measurePaintFloor(page: Page, rounds: number, paced: boolean): Promise<number[]> {
  await page.evaluate(`(() => {
    const box = document.createElement('div')
    box.id = 'bench-floor'
    box.style.cssText = 'position:fixed;right:0;bottom:0;font:12px monospace;pointer-events:none'
    document.body.append(box)
  })()`)
  const out: number[] = []
  for (let i = 0; i < rounds; i++) {
    if (paced) {
      // Back in the analysis box, as each next item opens; answers that differ from the round before, so each key
      // changes what is drawn, as on a new item.
      await page.evaluate(`document.querySelector('[data-testid="item"] [data-stop] [data-primary]').focus()`)
      for (const key of i % 2 ? ['Escape', 'j', '6', '7', '8'] : ANSWER_KEYS) await page.keyboard.press(key)
    }
    out.push(
      (await page.evaluate(`(async (i, paced) => {
        // Any moment of a frame, as a key can come at any moment.
        if (!paced) await new Promise((resolve) => setTimeout(resolve, Math.random() * 17))
        const painted = new Promise((resolve) => requestAnimationFrame(() => {
          const ch = new MessageChannel()
          ch.port1.onmessage = () => resolve()
          ch.port2.postMessage(null)
        }))
        const t0 = performance.now()
        document.getElementById('bench-floor').textContent = String(i)
        await painted
        return performance.now() - t0
      })(${i}, ${paced})`)) as number
    )
  }
  await page.evaluate(`document.getElementById('bench-floor').remove()`)
  return out
}

/** The median gap between the page's animation frames over 120 frames (their vsync times). */
async function measureFrameInterval(page: Page): Promise<number> {
  const gaps = (await page.evaluate(`new Promise((resolve) => {
    const at = []
    const tick = (t) => {
      at.push(t)
      if (at.length > 120) resolve(at.slice(1).map((x, i) => x - at[i]))
      else requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })`)) as number[]
  return median(gaps)
}

async function heapAfterGc(page: Page, cdp: CDPSession): Promise<number | null> {
  await cdp.send('HeapProfiler.collectGarbage')
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)))
  const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }
  const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value
  return heap === undefined ? null : round(heap / 1024 / 1024)
}

const round = (x: number) => Math.round(x * 100) / 100
