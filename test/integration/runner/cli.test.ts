import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { failing, startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { progressLine, resultLine } from '../../../src/main/cli/commands/judge'
import { demoProject, KEYS, protocolResponder } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let path: string
const saved = { ...process.env }

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai, 'openai-compatible': KEYS['openai-compatible'] }, responder: protocolResponder })
  path = tmp.file('cli.assay')
  ;(await demoProject(path)).close()
})
afterEach(() => {
  process.env = { ...saved }
  fake.reset()
  fake.setScript({ responder: protocolResponder })
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})

const judge = (...extra: string[]) => ['judge', path, '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), ...extra]

describe('assay judge', () => {
  it('prints the dry run and writes and sends nothing', async () => {
    const r = await runCli(...judge('--instrument', 'fs-olympiad-grade', '--trials', '20', '--max-tokens', '1000', '--dry-run'))
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe('Dry run: fs-olympiad-grade by gpt-4.1-mini (openai) with fs-olympiad-grade@1')
    expect(lines[1]).toBe('  items 2 · calls 40 · cached 0 · to send 40')
    expect(lines[2]).toMatch(/^ {2}tokens ≈ [\d,]+ in \+ 40,000 out/)
    expect(lines[3]).toMatch(/^ {2}cost ≈ \$0\.\d{4} at \$0\.4\/\$1\.6 per million tokens \(gpt-4\.1-mini, default price\)$/)
    const json = await runCli(...judge('--instrument', 'fs-olympiad-grade', '--dry-run', '--json'))
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, judge: 'gpt-4.1-mini', calls: 2, template: 'fs-olympiad-grade@1' })
    const project = await Project.open(path)
    const counts = project.db.prepare(`SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM judges) AS judges, (SELECT count(*) FROM prices) AS prices`).get()
    project.close()
    expect(counts).toEqual({ runs: 0, judges: 0, prices: 0 })
    expect(fake.requests).toHaveLength(0)
  })

  it('runs, prints progress on stderr and the result on stdout, and answers JSON when asked', async () => {
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli(...judge('--instrument', 'hypothesis-match', '--seed', 'cli', '--json'))
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ resumed: false, outcome: 'done', requests: 6, counts: { total: 6, ok: 6, failed: 0 } })
    expect(r.stderr).toMatch(/run \d+: 6\/6 done \(100%\) · 0 failed · \$0\.\d{4}\n$/)
  })

  it('exits 1 when calls failed after their retries, and a rerun retries only those', async () => {
    process.env.OPENAI_API_KEY = KEYS.openai
    fake.setScript({ responder: protocolResponder, faults: [failing(500, { times: 2 })] })
    const first = await runCli(...judge('--instrument', 'pairwise-preference', '--concurrency', '1', '--limit', '3'))
    expect(first.code).toBe(1)
    expect(first.stdout).toMatch(/: 2 ok, 0 unparseable, 1 failed, 0 pending of 3;/)
    expect(first.stderr).toContain('1 call failed after retries; run the same command again to retry them')
    const again = await runCli(...judge('--instrument', 'pairwise-preference', '--concurrency', '1', '--limit', '3'))
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/: 3 ok, 0 unparseable, 0 failed, 0 pending of 3; 0 from cache; 1 request sent;/)
  })

  it('reads a compatible endpoint’s key from ASSAY_KEY_<NAME> or from --api-key-env', async () => {
    // One pair, so that each run has a call to make (a selection with nothing to ask exits 1).
    const compatible = ['judge', path, '--instrument', 'pairwise-preference', '--limit', '1', '--provider', 'openai-compatible', '--model', 'grok-4', '--base-url', fake.url('openai-compatible')]
    const none = await runCli(...compatible, '--key-name', 'xai')
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('No API key for grok-4 (named:XAI): set ASSAY_KEY_XAI in the environment')
    process.env.ASSAY_KEY_XAI = KEYS['openai-compatible']
    expect((await runCli(...compatible, '--key-name', 'xai')).code).toBe(0)
    delete process.env.ASSAY_KEY_XAI
    process.env.MY_VAR = KEYS['openai-compatible']
    const viaVar = await runCli(...compatible, '--key-name', 'xai', '--api-key-env', 'MY_VAR', '--seed', 'other')
    expect(viaVar.code).toBe(0)
    expect(fake.requestsTo('compatible.chat').length).toBeGreaterThan(0)
    expect(fake.requestsTo('compatible.chat').every((q) => q.headers['authorization'] === `Bearer ${KEYS['openai-compatible']}`)).toBe(true)
  })

  it('refuses bad usage with exit 2', async () => {
    expect((await runCli('judge', path, '--instrument', 'nope', '--provider', 'openai', '--model', 'm')).code).toBe(2)
    const noUrl = await runCli('judge', path, '--instrument', 'idea-review', '--provider', 'openai-compatible', '--model', 'llama', '--dry-run')
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain('An OpenAI-compatible judge needs a base URL')
    const orders = await runCli(...judge('--instrument', 'hypothesis-match', '--both-orders', '--dry-run'))
    expect(orders.code).toBe(2)
    expect(orders.stderr).toContain('Both orders apply to pairs (pairwise-preference, idea-similarity); hypothesis-match has no sides to swap')
  })
})

describe('progress lines', () => {
  it('show done of total, failures, cost so far and the time left', () => {
    expect(progressLine({ runId: 3, done: 50, failed: 2, total: 200, costUsd: 0.01234, etaMs: 95_000 })).toBe('run 3: 50/200 done (25%) · 2 failed · $0.0123 · ETA 1m 35s')
    expect(progressLine({ runId: 3, done: 200, failed: 0, total: 200, costUsd: 12.5, etaMs: 0 })).toBe('run 3: 200/200 done (100%) · 0 failed · $12.50')
    // A model without a price has cost something unknown, not nothing.
    expect(progressLine({ runId: 3, done: 50, failed: 0, total: 200, costUsd: 0, etaMs: null }, false)).toBe('run 3: 50/200 done (25%) · 0 failed · price unknown')
  })

  it('end with the cost said as the progress said it: an unpriced run with no answer cost nothing, and says why', () => {
    const counts = { total: 4, pending: 0, ok: 0, unparseable: 0, failed: 4, cached: 0, costUsd: 0, unpriced: 0, inputTokens: 0, outputTokens: 0 }
    const run = { runId: 7, outcome: 'done' as const, counts, requests: 4 }
    expect(resultLine(run, false)).toMatch(/; cost \$0\.0000 \(no call answered; no price for this model\)$/)
    expect(resultLine(run, true)).toMatch(/; cost \$0\.0000$/)
    expect(resultLine({ ...run, counts: { ...counts, ok: 2, failed: 2, unpriced: 2 } }, false)).toMatch(/; cost price unknown$/)
  })
})
