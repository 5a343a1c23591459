import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../fakes'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { runCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'
import { Project } from '../../src/main/store/project'
import { listProbes } from '../../src/main/store/probes'
import { KEYS } from '../integration/runner/helpers'

// Probes end to end from the demo: deterministic formula-error probes and model-made inflated-framing probes (the
// loopback fake writes them), each checked in the browser by keyboard with the probe-check instrument, a judge run
// on the probe pairs, and the detection rates read on the report screen.

const MARK = 'This paradigm-shifting, first-ever study will transform the field.'
let planted: string[] = []

function responder(p: Prompt): string {
  if (p.user.includes('<proposal>')) {
    const original = /<proposal>\n([\s\S]*)\n<\/proposal>/.exec(p.user)?.[1] ?? ''
    return JSON.stringify({ probe: original.replace(/\n## /, `\n${MARK}\n\n## `), change: 'An overclaiming sentence.' })
  }
  const a = /=== PROPOSAL A ===([\s\S]*?)=== PROPOSAL B ===/.exec(p.user)?.[1] ?? ''
  const b = p.user.slice(p.user.indexOf('=== PROPOSAL B ==='))
  const verdict = a.includes(MARK) ? 'A_better' : b.includes(MARK) ? 'B_better' : planted.some((e) => a.includes(e)) ? 'B_better' : 'A_better'
  return `\`\`\`json\n{"analysis":"ok","verdict":"${verdict}","fatal_flaws":[]}\n\`\`\``
}

describe.skipIf(!hasChromium)(chromiumSuite('probes from the demo to the report'), () => {
  const tmp = tempDir('assay-probes-')
  const path = tmp.file('demo.assay')
  const saved = { ...process.env }
  let fake: FakeProviders
  let server: ServedProject | undefined
  let browser: Browser
  let page: Page
  const model = () => ['--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai')]

  beforeAll(async () => {
    fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder })
    process.env.OPENAI_API_KEY = KEYS.openai
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    const formula = await runCli('probe', 'make', path, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', '2', '--seed', '5')
    expect(formula.code, formula.stderr).toBe(0)
    const framing = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--n', '1', '--origin', 'human', ...model())
    expect(framing.code, framing.stderr).toBe(0)
    const project = await Project.open(path, { readonly: true })
    planted = listProbes(project.db).flatMap((p) => (p.provenance.edit ? [p.provenance.edit.equation.after] : []))
    project.close()
    expect(planted).toHaveLength(2)
    expect((await runCli('annotators', 'add', path, 'Ada')).code).toBe(0)
    const assigned = await runCli('assign', path, '--instrument', 'probe-check', '--annotators', 'Ada', '--overlap', '1', '--set', 'probes')
    expect(assigned.code, assigned.stderr).toBe(0)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(15_000)
  }, 120_000)

  afterAll(async () => {
    process.env = { ...saved }
    await browser?.close()
    await server?.stop()
    await fake?.close()
    tmp.cleanup()
  })

  it('checks each probe by keyboard: the probe beside its original, its changes highlighted there and listed rendered', async () => {
    await server?.stop()
    server = await serveProject(path, ['--annotator', 'Ada'])
    await page.goto(server.url)
    await page.locator('[data-testid=queue][data-instrument="probe-check"]').waitFor()
    const order = await page.locator('[data-testid=queue]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.instrument))
    await page.keyboard.press(String(order.indexOf('probe-check') + 1))
    let rejected = false
    for (let i = 0; i < 3; i++) {
      const item = page.locator('[data-testid=item][data-instrument="probe-check"]')
      await item.waitFor()
      const id = await item.getAttribute('data-assignment')
      const source = item.getByTestId('source')
      await source.locator('[data-source="intended_flaw"]').waitFor()
      const changes = source.getByTestId('probe-changes')
      await changes.locator('[data-testid=probe-change]').first().waitFor()
      // The probe beside its original: the same section of both in one row, the probe on the right.
      const sides = await source.getByTestId('probe-pair').evaluate((el) => {
        const row = [...el.querySelectorAll('[data-section-row]')].find((r) => r.querySelector('.pair-cell[data-side="a"] .markdown') && r.querySelector('.pair-cell[data-side="b"] .markdown'))!
        const a = row.querySelector('.pair-cell[data-side="a"]')!.getBoundingClientRect()
        const b = row.querySelector('.pair-cell[data-side="b"]')!.getBoundingClientRect()
        return { sameRow: Math.abs(a.top - b.top) < 2, probeRight: b.left >= a.right - 1, heads: el.querySelector('.pair-head')!.textContent }
      })
      expect(sides).toEqual({ sameRow: true, probeRight: true, heads: 'OriginalProbe' })
      // Each change is highlighted in the rendered text, and listed rendered: a formula by KaTeX, no LaTeX as written.
      await expect
        .poll(() => page.evaluate(() => (CSS.highlights.get('assay-probe-added')?.size ?? 0) + (CSS.highlights.get('assay-probe-removed')?.size ?? 0)))
        .toBeGreaterThan(0)
      if ((await source.locator('[data-source="intended_flaw"]').innerText()).includes('Formula error')) {
        expect(await changes.locator('.md-math').count()).toBeGreaterThan(0)
        expect(await changes.locator('.change-added').first().innerText()).not.toMatch(/\$/)
      }
      // The first formula-error probe is rejected (no flaw), the others verified as major.
      const reject = !rejected && (await source.locator('[data-source="intended_flaw"]').innerText()).includes('Formula error')
      if (reject) rejected = true
      if (reject) for (const key of ['n', 'y', '0']) await page.keyboard.press(key)
      else for (const key of ['y', 'y', '2']) await page.keyboard.press(key)
      await page.keyboard.press('Control+Enter')
      await page.locator(`[data-testid=commit-status][data-assignment="${id}"][data-state="saved"]`).waitFor()
    }
    await page.locator('[data-testid=queue-finished]').or(page.locator('[data-testid=queue]').first()).waitFor()
    await server.stop()
    server = undefined
    const listed = await runCli('probe', 'list', path, '--json')
    const statuses = (JSON.parse(listed.stdout) as Array<{ verification: { status: string } }>).map((p) => p.verification.status).sort()
    expect(statuses).toEqual(['rejected', 'verified', 'verified'])
  }, 120_000)

  it('runs a judge on the probe pairs and shows detection rates on the report screen', async () => {
    const judged = await runCli('judge', path, '--instrument', 'pairwise-preference', ...model(), '--set', 'probes')
    expect(judged.code, judged.stderr).toBe(0)
    await server?.stop()
    server = await serveProject(path)
    await page.goto(server.url)
    await page.getByRole('button', { name: 'Audit report' }).click()
    await page.getByLabel('Instrument').selectOption('pairwise-preference')
    await page.locator('.summary-card').first().waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'Expand all' }).click()
    const counts = await page.getByTestId('probe-counts').innerText()
    expect(counts).toContain('3 probes in scope: 2 verified, 1 rejected')
    // What the HTML report says of probes, said here too: ties left out, each kind with the verdict it expects.
    expect(counts).toContain('split evenly is counted as a tie, left out of the probes and the rate')
    expect(await page.getByRole('table', { name: 'Probe kinds' }).innerText()).toMatch(/formula-error\s+the original is better\s+1\s+1\s+0/)
    const detection = page.getByRole('table', { name: 'Probe detection' })
    const judgeRow = detection.locator('tr', { hasText: 'judge' }).first()
    expect(await judgeRow.innerText()).toMatch(/formula-error/)
    expect((await detection.innerText()).length).toBeGreaterThan(0)
    const framing = page.getByRole('table', { name: 'Framing preference' })
    // Inflated wins / probes, then its families, then the rate.
    expect(await framing.locator('tr', { hasText: 'judge' }).first().innerText()).toMatch(/1 \/ 1\s+1\s+100\.0%/)
  }, 180_000)
})
