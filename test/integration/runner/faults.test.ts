import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rateLimited, failing, startFakeProviders, type FakeProviders } from '../../fakes'
import { tempDir } from '../../support/tmp'
import type { Project } from '../../../src/main/store/project'
import { addJudge, ideaProject, KEYS, runToEnd, testEnv } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project
let n = 0

const REVIEW = 'Short analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, hangLimitMs: 5_000 })
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})
beforeEach(async () => {
  project?.close()
  fake.reset()
  fake.setScript({ responder: () => REVIEW })
  project = await ideaProject(tmp.file(`p${++n}.assay`), 3)
})

interface Row {
  status: string
  attempts: number
  error: string | null
  raw_answer: string | null
  judgement: string | null
}

function rows(runId: number): Row[] {
  return project.db.prepare(`SELECT status, attempts, error, raw_answer, judgement FROM model_calls WHERE run_id = ? ORDER BY id`).all(runId) as Row[]
}

async function run(extra: Record<string, unknown> = {}) {
  const judge = addJudge(project, fake, 'openai')
  return runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 1, ...extra })
}

describe('retries', () => {
  it('waits out a 429 for as long as Retry-After says, then succeeds', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [rateLimited({ times: 1, retryAfter: '1' })] })
    const started = Date.now()
    const result = await run()
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(result.counts).toMatchObject({ ok: 3, failed: 0 })
    expect(fake.count('openai.chat')).toBe(4)
    expect(rows(result.runId).map((r) => r.attempts)).toEqual([2, 1, 1])
  })

  it('holds every worker back while a Retry-After wait lasts', async () => {
    // Three workers; the first request is told to wait 400 ms: no request may leave during the wait.
    const arrivals: number[] = []
    fake.setScript({
      responder: () => {
        arrivals.push(Date.now())
        return REVIEW
      },
      faults: [{ times: 1, fault: { type: 'status', status: 429, headers: { 'retry-after-ms': '400' } } }]
    })
    const judge = addJudge(project, fake, 'openai')
    const started = Date.now()
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 1 })
    expect(result.counts.ok).toBe(3)
    expect(arrivals).toHaveLength(3)
    for (const t of arrivals) expect(t - started).toBeGreaterThanOrEqual(380)
  })

  it('retries a 500 with backoff and records both attempts', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [failing(500, { times: 1 })] })
    const result = await run()
    expect(result.counts).toMatchObject({ ok: 3, failed: 0 })
    expect(rows(result.runId)[0]!.attempts).toBe(2)
  })

  it('records a call as failed after its attempts, with the error, and goes on with the others', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [failing(503, { times: 2, message: 'overloaded now' })] })
    const result = await run()
    expect(result.outcome).toBe('done')
    const [first, ...others] = rows(result.runId)
    expect(first).toMatchObject({ status: 'failed', attempts: 2, raw_answer: null })
    expect(first!.error).toContain('server: openai HTTP 503: overloaded now')
    expect(others.map((r) => r.status)).toEqual(['ok', 'ok'])
    expect(fake.count('openai.chat')).toBe(4)
  })

  it('takes the attempts from the run: three tries, then failed', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [failing(502, { times: 3 })] })
    const result = await run({ attempts: 3 })
    expect(rows(result.runId)[0]).toMatchObject({ status: 'failed', attempts: 3 })
  })

  it('times out a hung request at the deadline and tries once more', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [{ times: 2, fault: { type: 'hang' } }] })
    const started = Date.now()
    const result = await run({ timeoutMs: 300, limit: 1 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(600)
    expect(rows(result.runId)[0]).toMatchObject({ status: 'failed', attempts: 2 })
    expect(rows(result.runId)[0]!.error).toMatch(/^timeout: /)
  })

  it('times out a response whose body stalls half-way', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [{ times: 1, fault: { type: 'stall_body' } }] })
    const result = await run({ timeoutMs: 300, limit: 1 })
    expect(rows(result.runId)[0]).toMatchObject({ status: 'ok', attempts: 2 })
  })

  it('retries a response body that is not JSON, or JSON cut off in transit', async () => {
    fake.setScript({ responder: () => REVIEW, faults: [{ times: 1, fault: { type: 'invalid_json' } }, { times: 1, fault: { type: 'truncated_json' } }] })
    const result = await run({ attempts: 3 })
    expect(result.counts.ok).toBe(3)
    expect(rows(result.runId).map((r) => r.attempts)).toEqual([3, 1, 1])
  })

  it('does not retry an exhausted quota', async () => {
    fake.setScript({
      responder: () => REVIEW,
      faults: [{ times: 1, fault: { type: 'status', status: 429, rawBody: JSON.stringify({ error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } }), contentType: 'application/json' } }]
    })
    const result = await run({ limit: 1 })
    expect(rows(result.runId)[0]).toMatchObject({ status: 'failed', attempts: 1 })
  })
})

describe('answers that cannot be read', () => {
  it('stores an answer cut at the token limit raw, as unparseable, without asking again', async () => {
    fake.setScript({ responder: () => ({ text: 'Analysis.\n{"originality": 7, "feasi', finish: 'length' }) })
    const result = await run({ limit: 1 })
    const row = rows(result.runId)[0]!
    expect(row).toMatchObject({ status: 'unparseable', attempts: 1, raw_answer: 'Analysis.\n{"originality": 7, "feasi', judgement: null })
    expect(row.error).toContain('cut at the token limit')
    expect(fake.count('openai.chat')).toBe(1)
  })

  it('stores prose without the requested JSON as unparseable, and an out-of-range score too', async () => {
    const answers = ['I think it is a fine idea.', 'Fine.\n{"originality": 11, "feasibility": 6, "clarity": 8}', REVIEW]
    let i = 0
    fake.setScript({ responder: () => answers[i++ % 3]! })
    const result = await run()
    const r = rows(result.runId)
    expect(r.map((x) => x.status)).toEqual(['unparseable', 'unparseable', 'ok'])
    expect(r[0]!.error).toBe('no JSON object in the answer')
    expect(r[1]!.error).toContain('originality')
    expect(JSON.parse(r[2]!.judgement!)).toEqual({ originality: 7, feasibility: 6, clarity: 8 })
    // Unparseable answers were paid for: they are in the cache and never asked again.
    expect((project.db.prepare(`SELECT count(*) AS n FROM response_cache`).get() as { n: number }).n).toBe(3)
  })
})

describe('a key the provider refuses', () => {
  it('stops the run at the first refusal instead of failing every call', async () => {
    project.close()
    project = await ideaProject(tmp.file(`p${++n}.assay`), 5)
    const judge = addJudge(project, fake, 'openai')
    const env = testEnv()
    await env.keyStore.set('openai', 'sk-wrong-key-abcdef0123456789')
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 1 }, env)
    expect(result.outcome).toBe('failed')
    expect(result.fatal).toContain('HTTP 401')
    expect(result.fatal).not.toContain('sk-wrong-key-abcdef0123456789')
    expect(fake.count('openai.chat')).toBe(1)
    expect(result.counts).toMatchObject({ failed: 1, pending: 4 })
    expect((project.db.prepare(`SELECT status FROM runs WHERE id = ?`).get(result.runId) as { status: string }).status).toBe('failed')
  })
})

describe('concurrency', () => {
  it('keeps at most N requests in flight and uses all N', async () => {
    project.close()
    project = await ideaProject(tmp.file(`p${++n}.assay`), 20)
    let inFlight = 0
    let peak = 0
    fake.setScript({
      responder: async () => {
        inFlight++
        peak = Math.max(peak, inFlight)
        await new Promise((r) => setTimeout(r, 30))
        inFlight--
        return REVIEW
      }
    })
    const judge = addJudge(project, fake, 'openai')
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 4 })
    expect(result.counts.ok).toBe(20)
    expect(peak).toBe(4)
  })
})
