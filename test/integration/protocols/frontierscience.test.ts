import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { KEYS } from '../runner/helpers'
import { fixture } from './fixtures'

// FrontierScience from the public data file (a committed excerpt of its form): a model answers the problems, each
// trial a request of its own, the answers become problems to grade, and the quoted graders grade them.

const tmp = tempDir()
let fake: FakeProviders
const saved = { ...process.env }

function model(p: Prompt): string {
  if (p.user.startsWith('You are grading an attempted answer to a science olympiad problem')) {
    return `The attempted answer matches the reference.\nVERDICT: ${p.user.includes('telomerase.') ? 'CORRECT' : 'INCORRECT'}`
  }
  if (p.user.startsWith('You are grading a science exam.')) return 'Items 1 and 3 are met.\nVERDICT: 7'
  if (p.user.startsWith('Name the enzyme')) return 'It is telomerase.'
  if (p.user.startsWith('A ball')) return 'h = v^2 / 2g = 2.0 m'
  return 'Treat aged mice with a senolytic, compare with vehicle-treated aged mice, and measure frailty.'
}

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: model })
  process.env.OPENAI_API_KEY = KEYS.openai
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

describe('FrontierScience: answering, then grading', () => {
  it('answers every problem once per trial with the problem alone, and grades the answers with the quoted graders', async () => {
    const path = tmp.file('fs.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const imp = await runCli('import', path, 'auto', fixture('frontierscience.jsonl'), '--set', 'gold', '--json')
    expect(imp.code, imp.stderr).toBe(0)
    const judge = (...rest: string[]) => runCli('judge', path, '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), ...rest)

    const dry = await judge('--instrument', 'generation', '--generate', 'responses', '--scheme', 'single', '--trials', '2', '--set', 'gold', '--dry-run', '--json')
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ items: 3, calls: 6, template: 'fs-answer@1' })
    const answered = await judge('--instrument', 'generation', '--generate', 'responses', '--scheme', 'single', '--trials', '2', '--set', 'gold', '--out-set', 'answers', '--json')
    expect(answered.code, answered.stderr).toBe(0)
    const a = JSON.parse(answered.stdout)
    expect(a).toMatchObject({ outcome: 'done', requests: 6, counts: { total: 6, ok: 6 } })
    expect(a.responses).toEqual([
      'fs-olympiad-fs-demo-o1.gpt-4.1-mini.run1.t1',
      'fs-olympiad-fs-demo-o1.gpt-4.1-mini.run1.t2',
      'fs-olympiad-fs-demo-o2.gpt-4.1-mini.run1.t1',
      'fs-olympiad-fs-demo-o2.gpt-4.1-mini.run1.t2',
      'fs-research-fs-demo-r1.gpt-4.1-mini.run1.t1',
      'fs-research-fs-demo-r1.gpt-4.1-mini.run1.t2'
    ])
    const sent = fake.requestsTo('openai.chat').map((r) => (r.body as { messages: { role: string; content: string }[] }).messages)
    // The problem alone, as the data file has it, with no system instruction.
    expect(sent[0]).toEqual([{ role: 'user', content: 'A ball is thrown straight up at 6.7 m/s. Taking g = 9.8 m/s^2, how high does it rise, in metres?' }])
    // Running the same command again asks nothing: every trial is recorded.
    const again = await judge('--instrument', 'generation', '--generate', 'responses', '--scheme', 'single', '--trials', '2', '--set', 'gold', '--out-set', 'answers', '--json')
    expect(JSON.parse(again.stdout)).toMatchObject({ resumed: true, requests: 0 })

    const project = await Project.open(path)
    try {
      const row = project.db.prepare(`SELECT payload FROM items WHERE external_id = ?`).get('fs-research-fs-demo-r1.gpt-4.1-mini.run1.t2') as { payload: string }
      expect(JSON.parse(row.payload)).toMatchObject({ track: 'research', rubric: [{ points: 4 }, { points: 3 }, { points: 3 }], response: expect.stringContaining('senolytic'), responder: 'gpt-4.1-mini', answering: { run_id: 1, trial: 2, template: 'fs-answer@1' } })
    } finally {
      project.close()
    }

    const olympiad = await judge('--instrument', 'fs-olympiad-grade', '--set', 'answers', '--json')
    expect(olympiad.code, olympiad.stderr).toBe(0)
    expect(JSON.parse(olympiad.stdout)).toMatchObject({ outcome: 'done', counts: { total: 4, ok: 4 } })
    const research = await judge('--instrument', 'fs-research-grade', '--set', 'answers', '--json')
    expect(research.code, research.stderr).toBe(0)
    expect(JSON.parse(research.stdout)).toMatchObject({ outcome: 'done', counts: { total: 2, ok: 2 } })
    // The graders see the response, never who wrote it.
    const graded = fake.requestsTo('openai.chat').slice(6).map((r) => JSON.stringify(r.body))
    expect(graded.every((b) => b.includes('attempted answer') || b.includes('attemped answer'))).toBe(true)
    expect(graded.some((b) => b.includes('gpt-4.1-mini') && b.includes('responder'))).toBe(false)

    const rep = await runCli('report', path, '--instrument', 'fs-olympiad-grade', '--json')
    expect(rep.code, rep.stderr).toBe(0)
    const report = JSON.parse(rep.stdout)
    // The olympiad track: the four answers; the file's two problems carry no response, so nothing to grade there.
    expect(report.scope).toMatchObject({ n_items: 4 })
    expect(report.sources.map((s: { id: string; n_answered: number }) => [s.id, s.n_answered])).toEqual([['run:2', 4]])
  })

  it('refuses trials for other generation and names the import a grader needs', async () => {
    const path = tmp.file('empty.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const judge = (...rest: string[]) => runCli('judge', path, '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), ...rest)
    const trials = await judge('--instrument', 'generation', '--scheme', 'single', '--trials', '3')
    expect(trials.code).not.toBe(0)
    expect(trials.stderr).toContain('trials apply to answering problems')
    const none = await judge('--instrument', 'fs-research-grade')
    expect(none.stderr).toContain(`fs-research-grade needs fs-problem items: import them with \`assay import ${path} frontierscience <path>\``)
  })
})
