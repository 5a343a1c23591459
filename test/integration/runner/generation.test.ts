import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { tempDir } from '../../support/tmp'
import type { Project } from '../../../src/main/store/project'
import { callDetail, executeRun, generatedSetsOf, parseRunSpec, prepareRun } from '../../../src/main/runner'
import { getItemByExternalId } from '../../../src/main/store/items'
import { addJudge, demoProject, KEYS, protocolResponder, runToEnd, testEnv } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
let project: Project
let n = 0
let seq = 0

/** Plain text for stages 1-3, five new hypotheses for the JSON stages, and a selection naming C2 and an unknown id. */
function generator(p: Prompt): string {
  if (p.user.includes('Write plain text.')) return `Analysis ${++seq}.`
  if (p.user.includes('Return JSON {"selected"')) return 'Best first.\n{"selected":["C2","C99"]}'
  const hypotheses = Array.from({ length: 5 }, () => ({ statement: `Claim ${++seq}.`, mechanism: 'Because.', prediction: 'It shows.', domain_category: 'x' }))
  return JSON.stringify({ hypotheses, notes: '' })
}

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { anthropic: KEYS.anthropic } })
})
afterAll(async () => {
  project?.close()
  await fake.close()
  tmp.cleanup()
})
beforeEach(async () => {
  project?.close()
  fake.reset()
  fake.setScript({ responder: generator })
  project = await demoProject(tmp.file(`g${++n}.assay`))
})

describe('generation runs', () => {
  it('single: one request per task, each answer stored as a new hypothesis set with its provenance', async () => {
    const judge = addJudge(project, fake, 'anthropic')
    const result = await runToEnd(project, { instrument: 'generation', scheme: 'single', judgeId: judge.id, outSet: 'mine' })
    expect(result).toMatchObject({ outcome: 'done', requests: 3, counts: { total: 3, ok: 3 } })
    const sets = generatedSetsOf(project.db, result.runId)
    expect(sets).toEqual(['demo-task-01', 'demo-task-02', 'demo-task-03'].map((t) => `${t}.claude-haiku-4-5.single.run${result.runId}`))
    const item = getItemByExternalId(project.db, 'hypothesis-set', sets[0]!)!
    expect(item.set_name).toBe('mine')
    const payload = JSON.parse(item.payload)
    expect(payload).toMatchObject({ task_id: 'demo-task-01', generator: 'claude-haiku-4-5', company: 'anthropic', scheme: 'single' })
    expect(payload.hypotheses.map((h: { id: string }) => h.id)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5'])
    expect(payload.provenance).toMatchObject({ run_id: result.runId, judge: 'claude-haiku-4-5', provider: 'anthropic', templates: ['hypothesis-single@1'], candidates: 5 })
    expect(payload.provenance.call_ids).toHaveLength(1)
    // The call inspector reads a generation answer too.
    const detail = callDetail(project.db, payload.provenance.call_ids[0], 'curator', (fn) => project.write(fn))
    expect(detail).toMatchObject({ status: 'ok', template: 'hypothesis-single@1', parse: { status: 'ok', error: null } })
    expect(detail.judgement).toMatchObject({ hypotheses: [{ statement: expect.stringMatching(/^Claim \d+\.$/) }, {}, {}, {}, {}] })
  })

  it('omega-point: five stages and a selection per task, the set filled in proposal order, and it can be judged', async () => {
    const judge = addJudge(project, fake, 'anthropic')
    const result = await runToEnd(project, { instrument: 'generation', scheme: 'omega-point', judgeId: judge.id, limit: 1 })
    expect(result.counts).toMatchObject({ total: 6, ok: 6 })
    const [setId] = generatedSetsOf(project.db, result.runId)
    const payload = JSON.parse(getItemByExternalId(project.db, 'hypothesis-set', setId!)!.payload)
    // Stage 4 proposed C1-C5, stage 5 C6-C10; the answer named C2 (and an unknown C99): C2 then C1, C3, C4, C5.
    expect(payload.hypotheses.map((h: { id: string }) => h.id)).toEqual(['C2', 'C1', 'C3', 'C4', 'C5'])
    expect(payload.provenance.selection).toEqual({ from_answer: ['C2'], filled: ['C1', 'C3', 'C4', 'C5'], unknown: ['C99'], duplicates: [], overflow: [] })
    expect(payload.provenance.omega).toEqual({ hash: 'sha256-mod-v1', lens: 'cybernetic-control-systems', fourth_role: true })
    expect(payload.provenance.templates).toContain('omega-stage-4-granted@1')
    const sent = fake.requestsTo('anthropic.messages').map((r) => r.body as { system: string })
    expect(sent[3]!.system).toContain('ROLE DIRECTIVE')

    // The new set is judged like any other: its task is found by task_id.
    fake.setScript({ responder: protocolResponder })
    const judging = await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, set: `generated-run${result.runId}` })
    expect(judging.counts).toMatchObject({ total: 1, ok: 1 })
  })

  it('resumes a stopped sequence from its last recorded answer', async () => {
    const judge = addJudge(project, fake, 'anthropic')
    const spec = parseRunSpec({ instrument: 'generation', scheme: 'multi-stage', judgeId: judge.id, limit: 1, concurrency: 1 })
    const prepared = prepareRun(project, spec)
    const controller = new AbortController()
    fake.setScript({
      responder: (p) => {
        if (fake.count('anthropic.messages') >= 3) controller.abort()
        return generator(p)
      }
    })
    const first = await executeRun(project, prepared.runId, testEnv(), { signal: controller.signal })
    expect(first.outcome).toBe('cancelled')
    const recorded = first.counts.ok
    expect(recorded).toBeGreaterThanOrEqual(2)
    fake.setScript({ responder: generator })
    const resumed = await runToEnd(project, spec)
    expect(resumed.runId).toBe(prepared.runId)
    expect(resumed.counts).toMatchObject({ total: 6, ok: 6 })
    // Every stage reached the server once, except a request cancelled in flight.
    expect(fake.count('anthropic.messages')).toBeLessThanOrEqual(7)
    const users = fake.requestsTo('anthropic.messages').map((r) => JSON.stringify(r.body))
    expect(new Set(users).size).toBe(6)
    expect(generatedSetsOf(project.db, prepared.runId)).toHaveLength(1)
  })

  it('multi-stage: asks further requests until its generated tokens come near the Omega Point run’s on the same task', async () => {
    const judge = addJudge(project, fake, 'anthropic')
    // The Omega Point run writes longer analyses (60 words at stages 1-3) than the chain (2 words).
    fake.setScript({ responder: (p) => (p.user.includes('Write plain text.') ? 'word '.repeat(60) : generator(p)) })
    const omega = await runToEnd(project, { instrument: 'generation', scheme: 'omega-point', judgeId: judge.id, limit: 1 })
    const budget = (project.db.prepare(`SELECT sum(output_tokens) AS n FROM model_calls WHERE run_id = ?`).get(omega.runId) as { n: number }).n
    fake.setScript({ responder: generator })
    const chain = await runToEnd(project, { instrument: 'generation', scheme: 'multi-stage', judgeId: judge.id, limit: 1, tokenBudgetRun: omega.runId })
    const steps = project.db.prepare(`SELECT json_extract(display, '$.step') AS step, output_tokens FROM model_calls WHERE run_id = ? ORDER BY order_index`).all(chain.runId) as { step: string; output_tokens: number }[]
    const further = steps.filter((s) => s.step === 'further').length
    expect(further).toBeGreaterThan(3)
    expect(steps.at(-1)!.step).toBe('selection')
    const beforeSelection = steps.slice(0, -1).reduce((sum, s) => sum + s.output_tokens, 0)
    const lastFurther = steps.at(-2)!.output_tokens
    // Stopped where one more request would have moved away from the budget.
    expect(Math.abs(budget - beforeSelection)).toBeLessThanOrEqual(lastFurther / 2)
    const [setId] = generatedSetsOf(project.db, chain.runId)
    const provenance = JSON.parse(getItemByExternalId(project.db, 'hypothesis-set', setId!)!.payload).provenance
    expect(provenance).toMatchObject({ token_budget: budget, candidates: 10 + 5 * further })
  })

  it('refuses what does not apply to generation', async () => {
    const judge = addJudge(project, fake, 'anthropic')
    expect(() => prepareRun(project, parseRunSpec({ instrument: 'generation', judgeId: judge.id }))).toThrow('scheme: choose single, multi-stage or omega-point')
    expect(() => prepareRun(project, parseRunSpec({ instrument: 'generation', scheme: 'single', judgeId: judge.id, trials: 3 }))).toThrow('trials')
  })
})
