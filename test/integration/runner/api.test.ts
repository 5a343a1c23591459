import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { dispatch } from '../../../src/main/api/dispatch'
import { setRunEnvironment } from '../../../src/main/api/run-environment'
import type { Envelope } from '../../../src/shared/contract/client'
import type { Project } from '../../../src/main/store/project'
import { demoProject, ideaProject, KEYS, protocolResponder, testEnv } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project
let n = 0
let restoreEnvironment: () => void

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai } })
  restoreEnvironment = setRunEnvironment(() => testEnv())
})
afterAll(async () => {
  restoreEnvironment()
  project?.close()
  await fake.close()
  tmp.cleanup()
})
beforeEach(() => {
  project?.close()
  fake.reset()
  fake.setScript({ responder: protocolResponder })
})

function value<T = any>(env: Envelope): T {
  if (!env.ok) throw new Error(`${env.error.code}: ${env.error.message}`)
  return env.value as T
}

function count(sql: string): number {
  return (project.db.prepare(sql).get() as { n: number }).n
}

describe('runs through the contract', () => {
  it('estimates without writing, starts in the background, pushes progress, and lists calls', async () => {
    project = await ideaProject(tmp.file(`a${++n}.assay`), 6, 'test')
    const ctx = contextFor(project)
    const judge = value(await dispatch(ctx, 'judges.create', { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') }))
    expect(judge).toMatchObject({ name: 'gpt-4.1-mini', effectiveCompany: 'openai', options: {} })
    // A key in a URL would be stored with the judge: refused.
    for (const baseUrl of ['http://127.0.0.1:1/v1?key=AIzaSecret', 'http://user:sk-secret@127.0.0.1:1/v1']) {
      expect(await dispatch(ctx, 'judges.create', { provider: 'openai', model: 'm', baseUrl })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    }

    const estimate = value(await dispatch(ctx, 'runs.estimate', { instrument: 'idea-review', judgeId: judge.id }))
    expect(estimate).toMatchObject({ items: 6, calls: 6, cached: 0, toSend: 6, template: 'idea-review@1', batch: false })
    // 600 answer tokens assumed per JSON-block answer; gpt-4.1-mini's default price.
    expect(estimate.outputTokens).toBe(3600)
    expect(estimate.price).toMatchObject({ model: 'gpt-4.1-mini', inputPerMtok: 0.4, outputPerMtok: 1.6, source: 'default' })
    expect(estimate.costUsd).toBeCloseTo((estimate.inputTokens * 0.4 + 3600 * 1.6) / 1e6, 12)
    expect(count(`SELECT count(*) AS n FROM runs`)).toBe(0)
    expect(fake.count('openai.chat')).toBe(0)

    const progress: Array<{ done: number; total: number }> = []
    const finished = new Promise<void>((resolve) =>
      ctx.hub.subscribe((event, payload) => {
        if (event !== 'run.progress') return
        const p = payload as { done: number; total: number }
        progress.push(p)
        if (p.done === p.total) resolve()
      })
    )
    const started = value(await dispatch(ctx, 'runs.start', { instrument: 'idea-review', judgeId: judge.id, concurrency: 2 }))
    expect(started).toEqual({ runId: 1, resumed: false })
    await finished
    await expect.poll(async () => value(await dispatch(ctx, 'runs.get', { runId: 1 })).status).toBe('done')
    const run = value(await dispatch(ctx, 'runs.get', { runId: 1 }))
    expect(run).toMatchObject({ instrument: 'idea-review', template: 'idea-review@1', active: false, counts: { total: 6, ok: 6 }, judge: { company: 'openai' } })
    expect(progress.at(-1)).toMatchObject({ done: 6, total: 6 })

    const page = value(await dispatch(ctx, 'runs.calls', { runId: 1, limit: 4 }))
    expect(page.total).toBe(6)
    expect(page.rows).toHaveLength(4)
    expect(page.rows[0]).not.toHaveProperty('rawAnswer')

    // Looking at a test item's judge output is an exposure; listing calls is not.
    expect(count(`SELECT count(*) AS n FROM exposures`)).toBe(0)
    const detail = value(await dispatch(ctx, 'runs.call', { callId: page.rows[0].id }))
    expect(detail.prompt.user).toContain('Please evaluate the following scientific idea:')
    expect(detail.rawAnswer).toContain('"originality": 7')
    expect(detail.judgement).toEqual({ originality: 7, feasibility: 6, clarity: 8 })
    expect(detail.parse).toEqual({ status: 'ok', error: null })
    expect(project.db.prepare(`SELECT item_id, kind, actor FROM exposures`).all()).toEqual([{ item_id: page.rows[0].itemId, kind: 'judge_output_viewed', actor: 'curator' }])
  })

  it('cancels a running run and resumes it', async () => {
    project = await ideaProject(tmp.file(`a${++n}.assay`), 40)
    fake.setScript({ responder: protocolResponder, faults: [{ fault: { type: 'delay', ms: 30 } }] })
    const ctx = contextFor(project)
    const judge = value(await dispatch(ctx, 'judges.create', { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') }))
    value(await dispatch(ctx, 'runs.start', { instrument: 'idea-review', judgeId: judge.id, concurrency: 2 }))
    await expect.poll(() => count(`SELECT count(*) AS n FROM model_calls WHERE status = 'ok'`)).toBeGreaterThan(3)
    // The same run cannot execute twice at once.
    expect(await dispatch(ctx, 'runs.start', { instrument: 'idea-review', judgeId: judge.id })).toMatchObject({ ok: false, error: { code: 'conflict' } })
    expect(value(await dispatch(ctx, 'runs.cancel', { runId: 1 }))).toEqual({ cancelled: true })
    await expect.poll(async () => value(await dispatch(ctx, 'runs.get', { runId: 1 })).status).toBe('cancelled')
    const before = value(await dispatch(ctx, 'runs.get', { runId: 1 })).counts
    expect(before.pending).toBeGreaterThan(0)
    const answered = new Set((project.db.prepare(`SELECT prompt FROM model_calls WHERE status = 'ok'`).all() as { prompt: string }[]).map((r) => JSON.parse(r.prompt).user))
    expect(value(await dispatch(ctx, 'runs.cancel', { runId: 1 }))).toEqual({ cancelled: false })

    expect(value(await dispatch(ctx, 'runs.resume', { runId: 1 }))).toEqual({ runId: 1, resumed: true })
    await expect.poll(async () => value(await dispatch(ctx, 'runs.get', { runId: 1 })).status, { timeout: 10_000 }).toBe('done')
    expect(value(await dispatch(ctx, 'runs.get', { runId: 1 })).counts).toMatchObject({ ok: 40, pending: 0 })
    const sent = new Map<string, number>()
    for (const r of fake.requestsTo('openai.chat')) {
      const user = (r.body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content
      sent.set(user, (sent.get(user) ?? 0) + 1)
    }
    // Every call answered before the cancel was sent exactly once.
    for (const user of answered) expect(sent.get(user)).toBe(1)
    expect(sent.size).toBe(40)
  }, 15_000)

  it('runs a curator template, and refuses to overwrite a built-in one', async () => {
    project = await ideaProject(tmp.file(`a${++n}.assay`), 2)
    const ctx = contextFor(project)
    const refused = await dispatch(ctx, 'templates.create', { id: 'idea-review', version: 1, instrument: 'idea-review', user: 'x {{idea}}', answerFormat: 'json' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } })
    const unknown = await dispatch(ctx, 'templates.create', { id: 'my-review', instrument: 'idea-review', user: 'Rate {{proposal_a}}', answerFormat: 'json' })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const mine = value(await dispatch(ctx, 'templates.create', { id: 'idea-review', instrument: 'idea-review', system: 'Be terse.', user: 'Score this idea 1-10 on originality, feasibility, clarity as JSON:\n{{idea}}', answerFormat: 'json' }))
    expect(mine).toMatchObject({ ref: 'idea-review@2', builtIn: false, placeholders: ['idea'] })
    const listed = value(await dispatch(ctx, 'templates.list', { instrument: 'idea-review' })).templates.map((t: { ref: string }) => t.ref)
    expect(listed).toEqual(['idea-review@1', 'idea-review@2'])

    fake.setScript({ responder: () => '{"originality": 3, "feasibility": 4, "clarity": 5}' })
    const judge = value(await dispatch(ctx, 'judges.create', { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') }))
    const est = value(await dispatch(ctx, 'runs.estimate', { instrument: 'idea-review', judgeId: judge.id, template: 'idea-review@2' }))
    expect(est.template).toBe('idea-review@2')
    value(await dispatch(ctx, 'runs.start', { instrument: 'idea-review', judgeId: judge.id, template: 'idea-review@2' }))
    await expect.poll(async () => value(await dispatch(ctx, 'runs.get', { runId: 1 })).status).toBe('done')
    const body = fake.requestsTo('openai.chat')[0]!.body as { messages: { role: string; content: string }[] }
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be terse.' })
    expect(body.messages[1]!.content).toMatch(/^Score this idea 1-10 on originality, feasibility, clarity as JSON:\nIdea number \d: /)
  })

  it('estimates from the project price table once the curator has edited it', async () => {
    project = await demoProject(tmp.file(`a${++n}.assay`))
    const ctx = contextFor(project)
    const judge = value(await dispatch(ctx, 'judges.create', { provider: 'openai', model: 'gpt-4.1-mini-2025-04-14', baseUrl: fake.url('openai'), options: { maxTokens: 100 } }))
    value(await dispatch(ctx, 'prices.set', { provider: 'openai', model: 'gpt-4.1-mini', inputPerMtok: 1, outputPerMtok: 10, batchDiscount: 0.5 }))
    const e = value(await dispatch(ctx, 'runs.estimate', { instrument: 'fs-olympiad-grade', judgeId: judge.id, trials: 20, batch: true }))
    // Two olympiad items × 20 trials; 100 answer tokens each as the judge caps them; half price in a batch.
    expect(e).toMatchObject({ items: 2, calls: 40, outputTokens: 4000, price: { source: 'project', inputPerMtok: 1, outputPerMtok: 10 } })
    expect(e.costUsd).toBeCloseTo(((e.inputTokens * 1 + 4000 * 10) / 1e6) * 0.5, 12)
  })
})
