import { createServer, type Server } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { build } from 'vite'
import react from '@vitejs/plugin-react'
import { buildReport, type ReportInput, type ReportSourceInput, type FlawRecord, type Report } from '../../src/shared/report'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { repoRoot, tempDir } from '../support/tmp'

// The report screen shows the sections on generated ideas and on judges' flaw audits, from reports built on
// hand-made inputs (the screen is the same React tree the workbench mounts).

const tmp = tempDir('assay-report-judge-flaws-')
let server: Server
let browser: Browser
let origin: string
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

const flaw = (side: 'a' | 'b', type: string, severity: string, evidence = 'the words'): FlawRecord => ({ side, type, severity, evidence })
const calls = (audits: Record<number, FlawRecord[]>) => Object.entries(audits).map(([item, flaws]) => ({ itemId: Number(item), trial: 0, order: 0, status: 'ok' as const, observations: [], flaws, unparseableFlaws: 1 }))

function flawReport(): Report {
  const sources: ReportSourceInput[] = [
    { id: 'annotator:x', kind: 'annotator', name: 'x', detail: {}, calls: calls({ 1: [flaw('b', 'unsound_method', 'fatal')] }) },
    { id: 'run:7', kind: 'judge_run', name: 'auditor · run 7', detail: {}, calls: calls({ 1: [flaw('b', 'unsound_method', 'fatal'), flaw('a', 'infeasible', 'minor')] }) }
  ]
  const input: ReportInput = {
    project: { name: 'p', id: 'p' },
    instrument: { id: 'flaw-audit', title: 'Flaws of each proposal', itemKind: 'proposal-pair', versions: [2], fields: [{ name: 'has_fatal', label: 'Has a fatal flaw', level: 'nominal', categories: [false, true] }] },
    split: 'all',
    items: [{ id: 1, externalId: 'p1', set: 's', split: 'none', exposures: [] }],
    sources,
    flawAudits: []
  }
  return buildReport(input, { resamples: 2000 })
}

function ideaReport(): Report {
  const items = [1, 2, 3, 4].map((id) => ({ id, externalId: `i${id}`, set: 'g', split: 'none' as const, exposures: [], generatedIdea: { selected: id % 2 === 1, scheme: 'omega-point', group: `1\u0000k${id > 2 ? 2 : 1}` } }))
  const input: ReportInput = {
    project: { name: 'p', id: 'p' },
    instrument: { id: 'idea-review', title: 'Review of an idea', itemKind: 'idea', versions: [1], fields: [{ name: 'originality', label: 'Originality', level: 'ordinal', categories: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }] },
    split: 'all',
    items,
    sources: [{ id: 'run:3', kind: 'judge_run', name: 'reviewer · run 3', detail: {}, calls: items.map((i) => ({ itemId: i.id, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'idea', values: { originality: i.id + 4 } }] })) }],
    flawAudits: []
  }
  return buildReport(input, { resamples: 2000 })
}

async function open(report: Report): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } })
  await page.addInitScript((data) => {
    ;(window as unknown as { assayReport: unknown }).assayReport = data
  }, report)
  await page.goto(`${origin}/`)
  await page.getByRole('button', { name: 'Expand all' }).click()
  return page
}

describe.skipIf(!hasChromium)(chromiumSuite('generated ideas and judge flaw audits on the report screen'), () => {
  beforeAll(async () => {
    const outDir = tmp.file('screen')
    await build({ root: join(repoRoot, 'test/e2e/report-screen'), logLevel: 'silent', plugins: [react()], build: { outDir, emptyOutDir: true, target: 'es2022' } })
    server = createServer((req, res) => {
      const path = join(outDir, (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').split('?')[0]!)
      readFile(path).then((body) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body), () => res.writeHead(404).end())
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((done) => server?.close(done))
    tmp.cleanup()
  })

  it('shows each judge’s recall and precision by severity and type against the experts’ flaws', async () => {
    const page = await open(flawReport())
    const table = page.locator('.report-table').filter({ hasText: 'Quote overlap' })
    await expect.poll(() => table.count()).toBe(1)
    const text = await table.textContent()
    expect(text).toContain('auditor · run 7')
    expect(text).toContain('severity: fatal')
    expect(text).toContain('type: unsound_method')
    expect(text).toContain('50.0% (1/2)')
    await page.close()
  })

  it('shows the originality of chosen beside excluded ideas', async () => {
    const page = await open(ideaReport())
    const table = page.locator('.report-table').filter({ hasText: 'Excluded (n)' })
    await expect.poll(() => table.count()).toBe(1)
    // Chosen: ideas 1 and 3 (5, 7); excluded: 2 and 4 (6, 8).
    expect(await table.textContent()).toContain('6.000 (2)')
    expect(await table.textContent()).toContain('7.000 (2)')
    await page.close()
  })
})
