import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../fakes'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { spawnCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'

// Model runs through the web bridge of a real `assay serve`: keys go in through the API and never come back out, in
// any response or pushed event; a run started from a client reports its progress over the event stream. Then the runs
// screen in Chromium, where the workbench shows it.

const KEY = 'sk-e2e-runs-0123456789abcdefghij'
const ANSWER = 'Checked both.\n{"analysis":"A holds up","verdict":"A_better","fatal_flaws":[]}'
const tmp = tempDir()
let fake: FakeProviders
let served: ServedProject

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEY }, responder: () => ANSWER })
  const path = tmp.file('runs.assay')
  expect(spawnCli(['new', path, '--demo']).code).toBe(0)
  served = await serveProject(path)
})
afterAll(async () => {
  await served?.stop()
  await fake?.close()
  tmp.cleanup()
})

function token(): string {
  return new URL(served.url).searchParams.get('token')!
}

async function call(op: string, input: unknown): Promise<{ text: string; value: any }> {
  const res = await fetch(`${served.origin}/api/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` },
    body: JSON.stringify(input)
  })
  const text = await res.text()
  const env = JSON.parse(text) as { ok: boolean; value?: unknown; error?: { message: string } }
  if (!env.ok) throw new Error(env.error?.message)
  return { text, value: env.value }
}

/** Reads the server's event stream until `until` says stop; returns all that arrived. */
async function events(until: (text: string) => boolean, started: () => Promise<void>): Promise<string> {
  const controller = new AbortController()
  const res = await fetch(`${served.origin}/api/events`, { headers: { authorization: `Bearer ${token()}` }, signal: controller.signal })
  const reader = res.body!.getReader()
  let text = ''
  await started()
  const deadline = Date.now() + 30_000
  while (!until(text) && Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  controller.abort()
  return text
}

describe('runs over the web bridge', () => {
  it('takes a key without ever returning it, runs, and pushes progress to the client', async () => {
    const outputs: string[] = []
    const missing = await fetch(`${served.origin}/api/runs.start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` },
      body: JSON.stringify({ instrument: 'pairwise-preference', judgeId: 1 })
    })
    outputs.push(await missing.text())

    const judge = await call('judges.create', { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') })
    outputs.push(judge.text)
    const before = await call('runs.start', { instrument: 'pairwise-preference', judgeId: judge.value.id }).catch((e: Error) => e.message)
    expect(before).toContain('No API key for gpt-4.1-mini (openai)')
    const stored = await call('keys.set', { ref: 'openai', key: KEY })
    outputs.push(stored.text)
    expect(stored.value.keys).toEqual([{ ref: 'openai', source: 'memory' }])
    expect(stored.value.storage.warning).toContain('memory only')

    const estimate = await call('runs.estimate', { instrument: 'pairwise-preference', judgeId: judge.value.id })
    expect(estimate.value).toMatchObject({ items: 12, calls: 12, toSend: 12 })

    const stream = await events(
      (t) => /"done":12,"failed":0,"total":12/.test(t),
      async () => {
        const started = await call('runs.start', { instrument: 'pairwise-preference', judgeId: judge.value.id })
        outputs.push(started.text)
        expect(started.value).toEqual({ runId: 1, resumed: false })
      }
    )
    outputs.push(stream)
    expect(stream).toContain('event: run.progress')
    expect(stream).toMatch(/"runId":1,"done":12,"failed":0,"total":12/)
    await expect.poll(async () => (await call('runs.get', { runId: 1 })).value.status).toBe('done')
    const calls = await call('runs.calls', { runId: 1 })
    const detail = await call('runs.call', { callId: calls.value.rows[0].id })
    const status = await call('keys.status', {})
    outputs.push(calls.text, detail.text, status.text, (await call('runs.list', {})).text)
    expect(detail.value).toMatchObject({ status: 'ok', parse: { status: 'ok', error: null } })
    expect(fake.count('openai.chat')).toBe(12)
    for (const text of outputs) expect(text).not.toContain(KEY)
  })
})

// The runs screen is reached from the workbench's tab bar once App.tsx shows it; until then only the bridge is tested.

describe.skipIf(!hasChromium)(chromiumSuite('the runs screen in Chromium'), () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await launchChromium()
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows the estimate, live progress, and a call with its prompt, raw answer and parse result', async () => {
    await page.goto(served.url)
    await page.getByRole('button', { name: 'Runs' }).click()
    await expect.poll(() => page.getByTestId('judge-list').textContent()).toContain('gpt-4.1-mini')
    await page.getByLabel('Instrument').selectOption('pairwise-preference')
    await page.getByLabel('Seed').fill('screen')
    await expect.poll(() => page.getByTestId('estimate-calls').textContent()).toBe('12')
    await page.getByRole('button', { name: 'Start run' }).click()
    await expect.poll(() => page.getByTestId('run-progress-2').textContent(), { timeout: 20_000 }).toBe('12/12')
    await page.locator('[data-run-id="2"]').click()
    await page.locator('[data-call-id]').first().click()
    await expect.poll(() => page.getByTestId('call-status').textContent()).toBe('ok')
    expect(await page.getByTestId('prompt-user').textContent()).toContain('=== PROPOSAL A ===')
    expect(await page.getByTestId('raw-answer').textContent()).toBe(ANSWER)
    expect(await page.getByTestId('parse-result').textContent()).toBe('ok')
    expect(await page.content()).not.toContain(KEY)
  })
})
