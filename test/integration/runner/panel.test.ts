import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { dispatch } from '../../../src/main/api/dispatch'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import type { ProviderKind } from '../../../src/main/providers'
import { addJudge, runToEnd } from './helpers'

// Four judges of four companies score hypothesis sets of two generators; the outcome of each hypothesis is decided by
// the three judges of other companies than its generator's.

const tmp = tempDir()
let fake: FakeProviders
let project: Project

/** GOOD hypotheses get 4 from everyone but Grok (0); BAD ones get 5 from Claude and 1 from the rest. */
function judgeByModel(p: Prompt): string {
  const labels = [...p.user.matchAll(/^\[(P\d)\] (\S+)/gm)].map((m) => ({ id: m[1]!, kind: m[2]! }))
  const scores = labels.map(({ id, kind }) => {
    const match = kind === 'GOOD' ? (/grok/.test(p.model) ? 0 : 4) : /claude/.test(p.model) ? 5 : 1
    return { id, match, compatible: true, plausibility: 3, reason: 'r' }
  })
  return JSON.stringify({ scores })
}

beforeAll(async () => {
  fake = await startFakeProviders({ responder: judgeByModel })
  project = await Project.create(tmp.file('panel.assay'))
  const hypotheses = [
    { id: 'g', statement: 'GOOD claim.', mechanism: 'm', prediction: 'p' },
    { id: 'b', statement: 'BAD claim.', mechanism: 'm', prediction: 'p' }
  ]
  project.write((db) =>
    insertItems(db, [
      { kind: 'rediscovery-task', externalId: 't1', set: 'tasks', split: 'none', payload: { task_id: 't1', background: 'bg', question: 'q', finding: 'f', key_points: ['k'] } },
      { kind: 'hypothesis-set', externalId: 's-openai', set: 'sets', split: 'none', payload: { set_id: 's-openai', task_id: 't1', generator: 'gpt-5', company: 'openai', hypotheses } },
      { kind: 'hypothesis-set', externalId: 's-anthropic', set: 'sets', split: 'none', payload: { set_id: 's-anthropic', task_id: 't1', generator: 'claude-opus-4-5', hypotheses } }
    ])
  )
})
afterAll(async () => {
  project.close()
  await fake.close()
  tmp.cleanup()
})

describe('the match panel over four judges’ runs', () => {
  it('decides each hypothesis by the judges of the other three companies', async () => {
    const runIds: number[] = []
    for (const kind of ['openai', 'anthropic', 'google', 'openai-compatible'] as ProviderKind[]) {
      const judge = addJudge(project, fake, kind)
      const result = await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, set: 'sets' })
      expect(result.counts.ok).toBe(2)
      runIds.push(result.runId)
    }
    const env = await dispatch(contextFor(project), 'panel.match', { runIds })
    if (!env.ok) throw new Error(env.error.message)
    const outcomes = (env.value as { outcomes: { setId: string; hypothesisId: string; matched: boolean | null; votesFor: number; generatorCompany: string; panel: { company: string }[] }[] }).outcomes
    const byKey = Object.fromEntries(outcomes.map((o) => [`${o.setId}/${o.hypothesisId}`, o]))
    expect(byKey['s-openai/g']).toMatchObject({ matched: true, votesFor: 2, generatorCompany: 'openai' })
    expect(byKey['s-openai/b']).toMatchObject({ matched: false, votesFor: 1 })
    expect(byKey['s-openai/g']!.panel.map((v) => v.company)).toEqual(['anthropic', 'google', 'xai'])
    // The anthropic set's generator company comes from its model name; Claude's 5 for the BAD claim does not count.
    expect(byKey['s-anthropic/g']).toMatchObject({ matched: true, votesFor: 2, generatorCompany: 'anthropic' })
    expect(byKey['s-anthropic/b']).toMatchObject({ matched: false, votesFor: 0 })
    expect(byKey['s-anthropic/b']!.panel.map((v) => v.company)).toEqual(['openai', 'google', 'xai'])
  })
})
