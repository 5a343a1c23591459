import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { createJudge } from '../../../src/main/runner'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import type { ProviderKind } from '../../../src/main/providers'
import { addJudge, runToEnd } from '../runner/helpers'

// The cross-company panel in the report: its members are named or the sources' default (the newest judge of each
// company), shown with the rule, kept when the report is narrowed to some judges, and a judge that scored the sets
// in several runs keeps every set.

const tmp = tempDir()
let fake: FakeProviders
let path: string

function judgeByModel(p: Prompt): string {
  const labels = [...p.user.matchAll(/^\[(P\d)\] (\S+)/gm)].map((m) => ({ id: m[1]!, kind: m[2]! }))
  return JSON.stringify({ scores: labels.map(({ id, kind }) => ({ id, match: kind === 'GOOD' ? 4 : 1, compatible: true, plausibility: 3, reason: 'r' })) })
}

const report = async (...extra: string[]) => {
  const r = await runCli('report', path, '--instrument', 'hypothesis-match', '--json', ...extra)
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as { settings: { panel_rule: string | null }; sources: { id: string; n_items: number; detail: Record<string, unknown> }[] }
}
const panelOf = (rep: Awaited<ReturnType<typeof report>>) => rep.sources.find((s) => s.id === 'panel')

beforeAll(async () => {
  fake = await startFakeProviders({ responder: judgeByModel })
  path = tmp.file('panel.assay')
  const project = await Project.create(path)
  const hypotheses = [
    { id: 'g', statement: 'GOOD claim.', mechanism: 'm', prediction: 'p' },
    { id: 'b', statement: 'BAD claim.', mechanism: 'm', prediction: 'p' }
  ]
  try {
    project.write((db) =>
      insertItems(db, [
        { kind: 'rediscovery-task', externalId: 't1', set: 'tasks', split: 'none', payload: { task_id: 't1', background: 'bg', question: 'q', finding: 'f', key_points: ['k'] } },
        { kind: 'hypothesis-set', externalId: 's-openai', set: 'first', split: 'none', payload: { set_id: 's-openai', task_id: 't1', generator: 'gpt-5', company: 'openai', hypotheses } },
        { kind: 'hypothesis-set', externalId: 's-anthropic', set: 'second', split: 'none', payload: { set_id: 's-anthropic', task_id: 't1', generator: 'claude-opus-4-5', hypotheses } }
      ])
    )
    // Every judge scores the sets set by set: one run per set.
    for (const kind of ['openai', 'anthropic', 'google', 'openai-compatible'] as ProviderKind[]) {
      const judge = addJudge(project, fake, kind)
      for (const set of ['first', 'second']) expect((await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, set })).counts.ok).toBe(1)
    }
  } finally {
    project.close()
  }
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})

describe('the cross-company panel in the report', () => {
  it('takes by default the newest judge of each company, over all its runs, and shows its members', async () => {
    const rep = await report()
    expect(panelOf(rep)).toMatchObject({ n_items: 2, detail: { n_undecided: 0, members_chosen: 'default' } })
    expect(rep.settings.panel_rule).toContain('members (by default the newest judge of each company): gpt-4.1-mini (openai), claude-haiku-4-5 (anthropic), gemini-2.5-flash (google), grok-4 (xai)')
    // Narrowed to one judge, the panel stays.
    const one = await report('--source', 'run:1')
    expect(one.sources.filter((s) => s.id.startsWith('run:')).map((s) => s.id)).toEqual(['run:1'])
    expect(panelOf(one)).toMatchObject({ n_items: 2 })
  })

  it('forms no default panel over a fifth company, and takes the members named', async () => {
    const project = await Project.open(path)
    try {
      const judge = project.write((db) => createJudge(db, { name: 'llama', provider: 'openai-compatible', model: 'llama-4', company: 'meta', baseUrl: fake.url('openai-compatible'), options: { keyName: 'XAI' } }))
      for (const set of ['first', 'second']) expect((await runToEnd(project, { instrument: 'hypothesis-match', judgeId: judge.id, set })).counts.ok).toBe(1)
    } finally {
      project.close()
    }
    const five = await report()
    expect(panelOf(five)).toBeUndefined()
    expect(five.settings.panel_rule).toContain('no panel: judges of 5 companies')
    expect(five.settings.panel_rule).toContain('name the four members with --panel')
    const chosen = await report('--panel', 'llama,claude-haiku-4-5,run:5,grok-4')
    // The anthropic set is decided by meta, google and xai; for the openai set all four are of other companies, more
    // than the rule's three, so its two hypotheses stay undecided.
    expect(panelOf(chosen)).toMatchObject({ n_items: 2, detail: { n_undecided: 2, members_chosen: 'chosen', members: 'llama (meta), claude-haiku-4-5 (anthropic), gemini-2.5-flash (google), grok-4 (xai)' } })
    // Why they are undecided is said beside the count.
    expect(panelOf(chosen)!.detail.undecided_why).toBe('2: the panel has 4 judges from other companies; the rule needs 3')
    expect(chosen.settings.panel_rule).toContain('or where more than 3 members are of other companies than the generator')
    const wrong = await runCli('report', path, '--instrument', 'hypothesis-match', '--panel', 'nobody')
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toContain('No judge "nobody" for the panel; judges: gpt-4.1-mini, claude-haiku-4-5, gemini-2.5-flash, grok-4, llama')
  })
})
