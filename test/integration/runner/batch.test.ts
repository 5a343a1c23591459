import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeEndpoint, type FakeProviders } from '../../fakes'
import { tempDir } from '../../support/tmp'
import type { Project } from '../../../src/main/store/project'
import type { ProviderKind } from '../../../src/main/providers'
import { executeRun, parseRunSpec, prepareRun, priceFor } from '../../../src/main/runner'
import { COMPLETE_ENDPOINT } from '../providers/helpers'
import { addJudge, ideaProject, KEYS, runToEnd, testEnv } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project
let n = 0
const REVIEW = 'Short analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'

const CREATE: Record<Exclude<ProviderKind, 'openai-compatible'>, FakeEndpoint> = {
  openai: 'openai.batches.create',
  anthropic: 'anthropic.batches.create',
  google: 'google.batches.create'
}

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai, anthropic: KEYS.anthropic, google: KEYS.google } })
})
afterAll(async () => {
  project?.close()
  await fake.close()
  tmp.cleanup()
})
beforeEach(async () => {
  project?.close()
  fake.reset()
  project = await ideaProject(tmp.file(`b${++n}.assay`), 5)
})

describe.each(['openai', 'anthropic', 'google'] as const)('a batch run through %s', (kind) => {
  it('submits once, polls, and ingests every answer into the same records and cache, at the batch price', async () => {
    let i = 0
    fake.setScript({
      responder: () => (++i === 2 ? { error: { status: 500, message: 'item failed' } } : REVIEW),
      batchPollsUntilDone: 3
    })
    const judge = addJudge(project, fake, kind)
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, batch: true, pollIntervalMs: 10 })
    expect(result.outcome).toBe('done')
    expect(result.counts).toMatchObject({ total: 5, ok: 4, failed: 1, pending: 0 })
    expect(fake.count(CREATE[kind])).toBe(1)
    expect(fake.count(COMPLETE_ENDPOINT[kind])).toBe(0)
    const rows = project.db.prepare(`SELECT status, cost_usd, input_tokens, output_tokens, error, attempts FROM model_calls WHERE run_id = ? ORDER BY id`).all(result.runId) as {
      status: string
      cost_usd: number | null
      input_tokens: number
      output_tokens: number
      error: string | null
      attempts: number
    }[]
    const price = priceFor(project.db, judge.provider, judge.model)!
    for (const r of rows.filter((x) => x.status === 'ok')) {
      expect(r.cost_usd).toBeCloseTo(((r.input_tokens * price.inputPerMtok + r.output_tokens * price.outputPerMtok) / 1e6) * 0.5, 12)
      expect(r.attempts).toBe(1)
    }
    expect(rows.find((r) => r.status === 'failed')!.error).toContain('item failed')
    expect((project.db.prepare(`SELECT count(*) AS n FROM response_cache`).get() as { n: number }).n).toBe(4)

    // The failed item is retried on the next pass, in a new batch of one; the others come from nowhere.
    fake.setScript({ responder: () => REVIEW, batchPollsUntilDone: 1 })
    const again = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, batch: true, pollIntervalMs: 10 })
    expect(again.counts).toMatchObject({ ok: 5, failed: 0 })
    expect(fake.count(CREATE[kind])).toBe(2)
  })
})

describe.each(['openai', 'anthropic', 'google'] as const)('an expired batch through %s', (kind) => {
  it('keeps what was answered before the deadline, records the rest as failed, and a rerun submits only those', async () => {
    let i = 0
    fake.setScript({ responder: () => (++i <= 2 ? { expired: true } : REVIEW), batchPollsUntilDone: 2 })
    const judge = addJudge(project, fake, kind)
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, batch: true, pollIntervalMs: 10 })
    expect(result.outcome).toBe('done')
    expect(result.counts).toMatchObject({ total: 5, ok: 3, failed: 2, pending: 0 })
    const errors = (project.db.prepare(`SELECT error FROM model_calls WHERE run_id = ? AND status = 'failed'`).all(result.runId) as { error: string }[]).map((r) => r.error)
    expect(errors).toHaveLength(2)
    for (const e of errors) expect(e).toMatch(kind === 'google' ? /returned no result/ : /^timeout: .*expire/)

    fake.setScript({ responder: () => REVIEW, batchPollsUntilDone: 1 })
    const again = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, batch: true, pollIntervalMs: 10 })
    expect(again.counts).toMatchObject({ ok: 5, failed: 0 })
    expect(fake.count(CREATE[kind])).toBe(2)
    // Only the two expired requests went out again: they alone were tried twice.
    const attempts = (project.db.prepare(`SELECT attempts FROM model_calls WHERE run_id = ? ORDER BY id`).all(again.runId) as { attempts: number }[]).map((r) => r.attempts)
    expect(attempts.sort()).toEqual([1, 1, 1, 2, 2])
  })
})

describe('a batch run stopped while its batch is out', () => {
  it('polls the same batch when resumed instead of submitting again', async () => {
    fake.setScript({ responder: () => REVIEW, batchPollsUntilDone: 1000 })
    const judge = addJudge(project, fake, 'anthropic')
    const spec = parseRunSpec({ instrument: 'idea-review', judgeId: judge.id, batch: true, pollIntervalMs: 10 })
    const prepared = prepareRun(project, spec)
    const controller = new AbortController()
    let polls = 0
    const first = await executeRun(project, prepared.runId, testEnv(), {
      signal: controller.signal,
      onProgress: () => {
        if (++polls >= 3) controller.abort()
      }
    })
    expect(first.outcome).toBe('cancelled')
    expect(first.counts.pending).toBe(5)
    const state = JSON.parse((project.db.prepare(`SELECT batch FROM runs WHERE id = ?`).get(prepared.runId) as { batch: string }).batch) as { jobs: { id: string; ingested: boolean }[] }
    expect(state.jobs).toHaveLength(1)
    expect(state.jobs[0]!.ingested).toBe(false)

    fake.setScript({ responder: () => REVIEW, batchPollsUntilDone: 1 })
    const resumed = await runToEnd(project, spec)
    expect(resumed.counts).toMatchObject({ ok: 5, pending: 0 })
    expect(fake.count('anthropic.batches.create')).toBe(1)
  })

  it('refuses a batch for a provider without a batch API', async () => {
    const judge = addJudge(project, fake, 'openai-compatible')
    await expect(runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, batch: true })).rejects.toThrow('OpenAI-compatible servers have no batch API; run without batch')
  })
})
