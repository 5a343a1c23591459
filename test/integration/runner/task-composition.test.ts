import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { insertItems } from '../../../src/main/store/items'
import { KEYS } from './helpers'

// Composing rediscovery tasks from papers with the quoted task-composition request, through the command line against
// the loopback fake: each paper of the preprint pairs once; a suitable paper becomes a task that generation runs on.

const tmp = tempDir()
let fake: FakeProviders
let path: string
const saved = { ...process.env }

function composer(p: Prompt): string {
  if (p.user.startsWith('Paper title: Senolytic')) {
    return JSON.stringify({ suitable: true, reason: 'A causal finding.', background: 'Senescent cells accumulate with age.', question: 'What clears them?', subject: 'senescent cell clearance', finding: 'Drug X clears senescent cells.', key_points: ['drug X', 'clearance'] })
  }
  if (p.user.startsWith('Paper title:')) return JSON.stringify({ suitable: false, reason: 'A resource paper.', background: '', question: '', subject: '', finding: '', key_points: [] })
  return JSON.stringify({ hypotheses: [{ statement: 'S.', mechanism: 'M.', prediction: 'P.', domain_category: 'd' }], notes: '' })
}

const pair = (id: string, title: string, abstract: string) => ({
  kind: 'preprint-pair' as const,
  externalId: id,
  set: 'papers',
  split: 'none' as const,
  payload: { paper: { title, abstract, journal: 'Nature Aging' }, preprint: { title: `${title} (preprint)`, abstract } }
})

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: composer })
  path = tmp.file('tasks.assay')
  const project = await Project.create(path)
  project.write((db) =>
    insertItems(db, [
      pair('pp-1', 'Senolytic drug X clears senescent cells', 'We show that drug X clears senescent cells in aged mice.'),
      // The same paper against a second preprint: composed once.
      pair('pp-2', 'Senolytic drug X clears senescent cells', 'We show that drug X clears senescent cells in aged mice.'),
      pair('pp-3', 'An atlas of ageing tissues', 'We profile 20 tissues across the lifespan.')
    ])
  )
  project.close()
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

describe('task composition through the CLI', () => {
  it('asks the quoted request once per paper, keeps the suitable ones as rediscovery tasks, and generation runs on them', async () => {
    process.env.OPENAI_API_KEY = KEYS.openai
    const judge = ['judge', path, '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai')]
    const wrong = await runCli(...judge, '--instrument', 'generation', '--generate', 'tasks', '--scheme', 'omega-point')
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toContain('a task is composed from a paper in a single request')
    const r = await runCli(...judge, '--instrument', 'generation', '--generate', 'tasks', '--scheme', 'single', '--out-set', 'composed', '--json')
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ outcome: 'done', requests: 2, counts: { total: 2, ok: 2 } })
    expect(out.tasks).toHaveLength(1)
    const sent = fake.requestsTo('openai.chat').map((x) => (x.body as { messages: { role: string; content: string }[] }).messages)
    expect(sent[0]![0]!.content).toBe('You turn the abstract of a published research paper in the biology of ageing into a hypothesis-rediscovery task. Answer with JSON only.')
    expect(sent[0]![1]!.content.startsWith('Paper title: Senolytic drug X clears senescent cells\nJournal: Nature Aging\n\nAbstract:\nWe show that drug X')).toBe(true)
    const project = await Project.open(path)
    try {
      const row = project.db.prepare(`SELECT set_name, payload FROM items WHERE kind = 'rediscovery-task'`).get() as { set_name: string; payload: string }
      expect(row.set_name).toBe('composed')
      expect(JSON.parse(row.payload)).toMatchObject({ question: 'What clears them?', finding: 'Drug X clears senescent cells.', key_points: ['drug X', 'clearance'], composition: { reason: 'A causal finding.', template: 'task-composition@1' } })
    } finally {
      project.close()
    }
    const gen = await runCli(...judge, '--instrument', 'generation', '--scheme', 'single', '--set', 'composed', '--json')
    expect(gen.code, gen.stderr).toBe(0)
    expect(JSON.parse(gen.stdout).sets).toHaveLength(1)
  })
})
