import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { tempDir } from '../../support/tmp'
import type { Project } from '../../../src/main/store/project'
import { executeRun, parseRunSpec, prepareRun } from '../../../src/main/runner'
import { addJudge, demoProject, ideaProject, KEYS, protocolResponder, runToEnd, testEnv } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project
let n = 0
const REVIEW = 'Short analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai } })
})
afterAll(async () => {
  project?.close()
  await fake.close()
  tmp.cleanup()
})
beforeEach(() => {
  project?.close()
  fake.reset()
  fake.setScript({ responder: () => REVIEW })
})

/** How often the server received each distinct user message. */
function sentPerPrompt(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const r of fake.requestsTo('openai.chat')) {
    const user = (r.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content
    counts.set(user, (counts.get(user) ?? 0) + 1)
  }
  return counts
}

describe('never pay twice', () => {
  it('answers a repeated run from the cache, and a second trial is a new sample', async () => {
    project = await ideaProject(tmp.file(`r${++n}.assay`), 4)
    const judge = addJudge(project, fake, 'openai')
    const first = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id })
    expect(first.requests).toBe(4)
    // The same definition resumes the same run: nothing left to do, nothing sent.
    const again = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id })
    expect(again.runId).toBe(first.runId)
    expect(again.requests).toBe(0)
    // Another seed is another run, with identical requests: every answer comes from the cache, at no cost.
    const other = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, seed: 'another' })
    expect(other.runId).not.toBe(first.runId)
    expect(other.requests).toBe(0)
    expect(other.counts).toMatchObject({ ok: 4, cached: 4, costUsd: 0 })
    // Three trials: trial 0 is cached, trials 1 and 2 are new samples.
    const trials = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, trials: 3 })
    expect(trials.counts).toMatchObject({ total: 12, ok: 12, cached: 4 })
    expect(trials.requests).toBe(8)
    expect(fake.count('openai.chat')).toBe(12)
  })

  it('asks each pair in both orders, with the second order the mirror of the first', async () => {
    project = await demoProject(tmp.file(`r${++n}.assay`))
    fake.setScript({ responder: protocolResponder })
    const judge = addJudge(project, fake, 'openai')
    const result = await runToEnd(project, { instrument: 'pairwise-preference', judgeId: judge.id, bothOrders: true, seed: '42' })
    expect(result.counts).toMatchObject({ total: 24, ok: 24 })
    const calls = project.db.prepare(`SELECT item_id, order_index, display, judgement, prompt FROM model_calls WHERE run_id = ? ORDER BY item_id, order_index`).all(result.runId) as {
      item_id: number
      order_index: number
      display: string
      judgement: string
      prompt: string
    }[]
    for (let i = 0; i < calls.length; i += 2) {
      const [a, b] = [calls[i]!, calls[i + 1]!]
      expect(a.item_id).toBe(b.item_id)
      const [da, db] = [JSON.parse(a.display) as { swapped: boolean }, JSON.parse(b.display) as { swapped: boolean }]
      expect(db.swapped).toBe(!da.swapped)
      // The responder always answers "A_better": in canonical order that is a_better when not swapped, b_better when swapped.
      expect((JSON.parse(a.judgement) as { verdict: string }).verdict).toBe(da.swapped ? 'b_better' : 'a_better')
      expect((JSON.parse(b.judgement) as { verdict: string }).verdict).toBe(db.swapped ? 'b_better' : 'a_better')
      const [ua, ub] = [JSON.parse(a.prompt).user as string, JSON.parse(b.prompt).user as string]
      const sections = (u: string) => [u.split('=== PROPOSAL A ===\n')[1]!.split('\n=== END OF PROPOSAL A ===')[0], u.split('=== PROPOSAL B ===\n')[1]!.split('\n=== END OF PROPOSAL B ===')[0]]
      expect(sections(ub)).toEqual(sections(ua).reverse())
    }
  })

  it('resumes a cancelled run without repeating a completed call', async () => {
    project = await ideaProject(tmp.file(`r${++n}.assay`), 30)
    fake.setScript({ responder: () => REVIEW, faults: [{ fault: { type: 'delay', ms: 20 } }] })
    const judge = addJudge(project, fake, 'openai')
    const spec = parseRunSpec({ instrument: 'idea-review', judgeId: judge.id, concurrency: 3 })
    const prepared = prepareRun(project, spec)
    const controller = new AbortController()
    const first = await executeRun(project, prepared.runId, testEnv(), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 8) controller.abort()
      }
    })
    expect(first.outcome).toBe('cancelled')
    expect(first.counts.ok).toBeGreaterThanOrEqual(8)
    expect(first.counts.ok).toBeLessThan(30)
    expect((project.db.prepare(`SELECT status FROM runs WHERE id = ?`).get(prepared.runId) as { status: string }).status).toBe('cancelled')
    const completed = new Set(
      (project.db.prepare(`SELECT prompt FROM model_calls WHERE run_id = ? AND status = 'ok'`).all(prepared.runId) as { prompt: string }[]).map(
        (r) => JSON.parse(r.prompt).user as string
      )
    )
    const resumed = await runToEnd(project, spec)
    expect(resumed.runId).toBe(prepared.runId)
    expect(resumed.counts).toMatchObject({ ok: 30, pending: 0 })
    const sent = sentPerPrompt()
    for (const user of completed) expect(sent.get(user)).toBe(1)
    expect(sent.size).toBe(30)
  })

  it('takes new items of the selection into a resumed run', async () => {
    project = await ideaProject(tmp.file(`r${++n}.assay`), 2)
    const judge = addJudge(project, fake, 'openai')
    const first = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, set: 'ideas' })
    project.write(() =>
      project.db
        .prepare(`INSERT INTO items (kind, external_id, set_name, split, payload, created_at) VALUES ('idea', 'late', 'ideas', 'none', ?, '2026-01-01')`)
        .run(JSON.stringify({ idea: 'A late idea.' }))
    )
    const second = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, set: 'ideas' })
    expect(second.runId).toBe(first.runId)
    expect(second.counts.total).toBe(3)
    expect(second.requests).toBe(1)
  })
})

describe('identical requests', () => {
  it('are sent once within a run and across runs executing at the same time', async () => {
    project = await ideaProject(tmp.file(`r${++n}.assay`), 6)
    // Two more items with the text of the first two: their requests are identical.
    project.write(() => {
      const rows = project.db.prepare(`SELECT payload FROM items ORDER BY id LIMIT 2`).all() as { payload: string }[]
      rows.forEach((r, i) =>
        project.db.prepare(`INSERT INTO items (kind, external_id, set_name, split, payload, created_at) VALUES ('idea', ?, 'ideas', 'none', ?, '2026-01-01')`).run(`copy-${i}`, r.payload)
      )
    })
    fake.setScript({ responder: () => REVIEW, faults: [{ fault: { type: 'delay', ms: 30 } }] })
    const judge = addJudge(project, fake, 'openai')
    const [a, b] = await Promise.all([
      runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 4 }),
      runToEnd(project, { instrument: 'idea-review', judgeId: judge.id, concurrency: 4, seed: 'twin' })
    ])
    expect(a!.runId).not.toBe(b!.runId)
    expect(a!.counts).toMatchObject({ total: 8, ok: 8 })
    expect(b!.counts).toMatchObject({ total: 8, ok: 8 })
    // Six distinct requests over sixteen calls.
    expect(fake.count('openai.chat')).toBe(6)
    expect(a!.requests + b!.requests).toBe(6)
    expect(a!.counts.cached + b!.counts.cached).toBe(10)
  })
})

describe('progress', () => {
  it('reports done, failed, total, cost and an ETA, ending at the total', async () => {
    project = await ideaProject(tmp.file(`r${++n}.assay`), 5)
    const judge = addJudge(project, fake, 'openai')
    const result = await runToEnd(project, { instrument: 'idea-review', judgeId: judge.id }, testEnv())
    const last = result.progress.at(-1)!
    expect(last).toMatchObject({ runId: result.runId, done: 5, failed: 0, total: 5, etaMs: 0 })
    expect(last.costUsd).toBeCloseTo(result.counts.costUsd, 12)
    expect(last.costUsd).toBeGreaterThan(0)
    const dones = result.progress.map((p) => p.done)
    expect(dones).toEqual([...dones].sort((a, b) => a - b))
  })
})
