import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { Project } from '../src/main/store/project'
import { loadDemo } from '../src/main/demo/load-demo'
import { assignItems } from '../src/main/annotation/assign'
import { launchChromium, chromiumPath } from '../test/support/browser'
import { serveProject } from '../test/support/serve'
import { median, type BenchFigures } from './measure'

const root = join(import.meta.dirname, '..')

/**
 * Opening the workbench in Chromium on the demo, as an annotator: from navigation to the first queue item usable
 * (the queue list shown, its first queue opened at once, the item's form rendered), cold (fresh browser profile,
 * nothing cached) and again with the cache warm, each unthrottled and with the CPU slowed 4× (CDP
 * Emulation.setCPUThrottlingRate). Baseline in the same run and conditions: the same server's index.html with
 * JavaScript off, to its load event (network, HTML and CSS, no app). Also the bytes the first load transfers, by file.
 */
export async function benchOpen(dir: string, rounds = Number(process.env.BENCH_ROUNDS ?? 7)): Promise<BenchFigures> {
  if (!existsSync(chromiumPath)) return { skipped: `no Chromium at ${chromiumPath}` }
  if (!existsSync(join(root, 'out', 'renderer', 'index.html'))) return { skipped: 'the workbench is not built: run npm run build' }
  const path = join(dir, 'open.assay')
  const project = await Project.create(path)
  await loadDemo(project)
  assignItems(project, { instrumentId: 'pairwise-preference', annotators: ['Bench'], overlap: 1 })
  project.close()

  const served = await serveProject(path, ['--annotator', 'Bench'])
  const browser = await launchChromium()
  const figures: BenchFigures = { project: 'demo', rounds, target_unthrottled_ms: 600, target_throttled_4x_ms: 1500, target_annotate_transfer_kb: 400 }
  try {
    for (const rate of [1, 4]) {
      const tag = rate === 1 ? 'unthrottled' : 'throttled_4x'
      const cold: number[] = []
      const queue: number[] = []
      const warm: number[] = []
      const bare: number[] = []
      let transfer: Transfer | undefined
      for (let r = 0; r < rounds; r++) {
        const run = await openOnce(browser, served.url, rate)
        cold.push(run.cold.item)
        queue.push(run.cold.queue)
        warm.push(run.warm.item)
        transfer ??= run.transfer
        bare.push(await bareHtml(browser, served.url, rate))
      }
      figures[`${tag}_first_item_usable_cold_median_ms`] = round(median(cold))
      figures[`${tag}_queue_list_shown_cold_median_ms`] = round(median(queue))
      figures[`${tag}_first_item_usable_warm_cache_median_ms`] = round(median(warm))
      figures[`${tag}_baseline_index_html_no_js_median_ms`] = round(median(bare))
      if (rate === 1 && transfer) {
        figures.annotate_first_load_transfer_kb = round(transfer.total / 1024)
        figures.annotate_first_load_requests = transfer.files.length
        figures.annotate_first_load_bytes_by_file = transfer.files.map((f) => `${f.file} ${f.bytes}`).join('; ')
      }
    }
    figures.all_chunks_compressed_bytes = allChunks()
  } finally {
    await browser.close()
    await served.stop()
  }
  return figures
}

interface Transfer {
  total: number
  files: Array<{ file: string; bytes: number }>
}

interface Marks {
  queue: number
  item: number
}

/**
 * Records, against the page's own clock (0 = navigation start), when the queue list appears and when the item
 * does; the first queue is opened the moment it is shown, as a person's click would. The item's arrival is reported
 * through a CDP binding: waiting with Playwright's waitForFunction would inject its own script into the page while
 * the workbench loads, and its evaluation (100–150 ms here) would be counted as the workbench's.
 */
const MARKER = `(() => {
  const marks = (window.__openMarks = {})
  const seen = () => {
    if (marks.queue === undefined) {
      const q = document.querySelector('[data-testid="queue"]')
      if (q) {
        marks.queue = performance.now()
        // Clicked once React has attached the row (a task later), again if a re-render swallowed it.
        const click = () => { if (marks.item === undefined) { document.querySelector('[data-testid="queue"]')?.click(); setTimeout(click, 100) } }
        setTimeout(click, 0)
      }
    }
    if (marks.item === undefined && document.querySelector('[data-testid="item"]')) {
      marks.item = performance.now()
      window.__assayOpened?.('item')
    }
  }
  new MutationObserver(seen).observe(document, { childList: true, subtree: true })
})()`

async function openOnce(browser: Browser, url: string, rate: number): Promise<{ cold: Marks; warm: Marks; transfer: Transfer }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(MARKER)
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    const transfer = await recordTransfer(cdp)
    const cold = await navigate(page, cdp, url)
    // The bytes it took to show the first item (the parser's chunk and the next items follow it, in the background).
    const firstLoad = transfer()
    // The same profile again, once the first tab is closed (left open, its work after the first item would compete
    // with the second load): hashed assets come from the cache without a request.
    await page.close()
    const again = await context.newPage()
    const cdp2 = await context.newCDPSession(again)
    await cdp2.send('Emulation.setCPUThrottlingRate', { rate })
    const warm = await navigate(again, cdp2, url.replace(/\?token=.*$/, ''))
    return { cold, warm, transfer: firstLoad }
  } finally {
    await context.close()
  }
}

async function navigate(page: Page, cdp: CDPSession, url: string): Promise<Marks> {
  let opened!: () => void
  const itemShown = new Promise<void>((resolve) => (opened = resolve))
  cdp.on('Runtime.bindingCalled', (e: { name: string }) => {
    if (e.name === '__assayOpened') opened()
  })
  await cdp.send('Runtime.enable')
  await cdp.send('Runtime.addBinding', { name: '__assayOpened' })
  await page.goto(url, { waitUntil: 'commit' })
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([itemShown, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out after 30 s')), 30_000)))])
  } catch (e) {
    const marks = await page.evaluate(() => JSON.stringify((window as unknown as { __openMarks?: Marks }).__openMarks))
    const screen = (await page.locator('#root').innerHTML().catch(() => '')).slice(0, 400)
    throw new Error(`the first item did not open (marks ${String(marks)}): ${screen}`, { cause: e })
  } finally {
    clearTimeout(timer)
  }
  return page.evaluate(() => (window as unknown as { __openMarks: Marks }).__openMarks)
}

async function recordTransfer(cdp: CDPSession): Promise<() => Transfer> {
  await cdp.send('Network.enable')
  const urls = new Map<string, string>()
  const bytes = new Map<string, number>()
  cdp.on('Network.responseReceived', (e: { requestId: string; response: { url: string } }) => urls.set(e.requestId, e.response.url))
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => bytes.set(e.requestId, e.encodedDataLength))
  return () => {
    const files = [...bytes]
      .map(([id, n]) => ({ url: new URL(urls.get(id) ?? 'http://x/?'), bytes: n }))
      // A data: URL (a font inlined in a stylesheet) came with the file that holds it.
      .filter(({ url }) => url.protocol !== 'data:' && !url.pathname.startsWith('/api/'))
      .map(({ url, bytes: n }) => ({ file: url.pathname, bytes: n }))
      .sort((a, b) => b.bytes - a.bytes)
    return { total: files.reduce((s, f) => s + f.bytes, 0), files }
  }
}

async function bareHtml(browser: Browser, url: string, rate: number): Promise<number> {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    await page.goto(url, { waitUntil: 'load' })
    return await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd)
  } finally {
    await context.close()
  }
}

/** Every chunk's compressed size, from the build's chunk graph and its .br files. */
function allChunks(): string {
  const graph = JSON.parse(readFileSync(join(root, 'out', 'renderer-chunks.json'), 'utf8')) as { chunks: Record<string, { name: string }> }
  return Object.keys(graph.chunks)
    .map((f) => {
      const p = join(root, 'out', 'renderer', f)
      // The build may have been replaced while the benchmark ran (another build in the same tree).
      if (!existsSync(p)) return `${graph.chunks[f]!.name} (rebuilt since)`
      const br = existsSync(`${p}.br`) ? readFileSync(`${p}.br`).length : readFileSync(p).length
      return `${graph.chunks[f]!.name} ${br}`
    })
    .join('; ')
}

const round = (x: number) => Math.round(x * 10) / 10
