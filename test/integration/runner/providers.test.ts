import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { tempDir } from '../../support/tmp'
import type { Project } from '../../../src/main/store/project'
import type { ProviderKind } from '../../../src/main/providers'
import { COMPLETE_ENDPOINT } from '../providers/helpers'
import { addJudge, demoProject, KEYS, MODELS, protocolResponder, runToEnd } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai, anthropic: KEYS.anthropic, google: KEYS.google, 'openai-compatible': KEYS['openai-compatible'] } })
  project = await demoProject(tmp.file('demo.assay'))
})
afterAll(async () => {
  project.close()
  await fake.close()
  tmp.cleanup()
})
beforeEach(() => {
  fake.reset()
  fake.setScript({ responder: protocolResponder })
})

interface CallRow {
  id: number
  item_id: number
  status: string
  prompt: string
  display: string
  raw_answer: string
  judgement: string
  input_tokens: number
  output_tokens: number
  cost_usd: number | null
  attempts: number
  latency_ms: number
  request_hash: string
}

describe.each(['openai', 'anthropic', 'google', 'openai-compatible'] as ProviderKind[])('a hypothesis-match run through %s', (kind) => {
  it('sends each set once, records the prompt it sent, and stores the scores under the hypothesis ids', async () => {
    const judge = addJudge(project, fake, kind)
    const result = await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, concurrency: 3 })
    expect(result.outcome).toBe('done')
    // Six demo sets, one request each.
    expect(result.counts).toMatchObject({ total: 6, ok: 6, failed: 0, unparseable: 0, pending: 0 })
    expect(fake.count(COMPLETE_ENDPOINT[kind])).toBe(6)
    expect(result.requests).toBe(6)

    const calls = project.db.prepare(`SELECT * FROM model_calls WHERE run_id = ? ORDER BY id`).all(result.runId) as CallRow[]
    const sent = fake.requestsTo(COMPLETE_ENDPOINT[kind])
    for (const call of calls) {
      const prompt = JSON.parse(call.prompt) as { system: string; user: string; template: string }
      expect(prompt.template).toBe('match-judge@1')
      // What the record says was sent is what the server received.
      const match = sent.filter((r) => JSON.stringify(r.body).includes(JSON.stringify(prompt.user)))
      expect(match).toHaveLength(1)
      const display = JSON.parse(call.display) as { order: string[] }
      const judgement = JSON.parse(call.judgement) as { scores: { id: string; match: number }[] }
      // The responder gives P1 match 0, P2 match 1, ...: mapped back, the hypothesis shown as Pn has match n-1.
      expect(judgement.scores.map((s) => s.id)).toEqual(display.order)
      expect(judgement.scores.map((s) => s.match)).toEqual([0, 1, 2, 3, 4])
      expect(call.attempts).toBe(1)
      expect(call.input_tokens).toBeGreaterThan(100)
      expect(call.output_tokens).toBeGreaterThan(0)
      expect(call.latency_ms).toBeGreaterThanOrEqual(0)
    }
    // The judge's key reached the server (a wrong key would be refused) and its company is known for panels.
    expect(judge.effectiveCompany).toBe({ openai: 'openai', anthropic: 'anthropic', google: 'google', 'openai-compatible': 'xai' }[kind])
    expect(MODELS[kind]).toBeTruthy()
  })
})

describe('Grok requests', () => {
  it('carry the Grok text in the system instruction and the user message, and the JSON-only sentence', async () => {
    const judge = addJudge(project, fake, 'openai-compatible', { name: 'grok-judge-2', options: { temperature: 0 } })
    await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, limit: 1 })
    const body = fake.requestsTo('compatible.chat')[0]!.body as { messages: { role: string; content: string }[] }
    expect(body.messages[0]!.content).toMatch(/Never describe what you are going to do; do it now\.$/)
    expect(body.messages[1]!.content).toMatch(/Your reply must start with \{ and be only the JSON object\.$/)
  })
})
