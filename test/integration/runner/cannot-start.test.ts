import { writeFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { payloadWithContext } from '../../../src/main/annotation/item-context'
import { importFile } from '../../../src/main/import'
import { getItemByExternalId } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { failing, startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { KEYS, protocolResponder } from './helpers'

const tmp = tempDir('assay-cannot-start-')
let fake: FakeProviders
const saved = { ...process.env }

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: protocolResponder })
})
afterEach(() => {
  process.env = { ...saved }
  fake.reset()
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})

const side = (origin: string) => ({ markdown: `# ${origin}\n\n## Introduction\nA ${origin} proposal.`, origin })

async function pairsProject(name: string): Promise<string> {
  const path = tmp.file(name)
  const project = await Project.create(path)
  const pairs = tmp.file(`${name}.pairs.jsonl`)
  writeFileSync(pairs, ['p1', 'p2'].map((id) => JSON.stringify({ pair_id: id, topic: 't', a: side('human'), b: side('ai') })).join('\n'))
  expect((await importFile(project, 'pairs', pairs)).errors).toEqual([])
  project.close()
  return path
}

async function recorded(path: string): Promise<{ runs: number; calls: number }> {
  const p = await Project.open(path)
  try {
    return p.db.prepare(`SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM model_calls) AS calls`).get() as { runs: number; calls: number }
  } finally {
    p.close()
  }
}

describe('a judge run that cannot start records nothing', () => {
  it('without a key', async () => {
    const path = await pairsProject('nokey.assay')
    delete process.env.OPENAI_API_KEY
    const r = await runCli('judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('No API key')
    expect(await recorded(path)).toEqual({ runs: 0, calls: 0 })
  })

  it('when the endpoint does not answer, or the model name is wrong', async () => {
    const path = await pairsProject('unreachable.assay')
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli('judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', 'http://127.0.0.1:9/v1', '--attempts', '1', '--json')
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ runId: null, outcome: 'could_not_start' })
    expect(await recorded(path)).toEqual({ runs: 0, calls: 0 })

    fake.setScript({ responder: protocolResponder, faults: [failing(404, { times: 100, message: 'The model does-not-exist does not exist' })] })
    const wrong = await runCli('judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'does-not-exist', '--base-url', fake.url('openai'), '--attempts', '1')
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('could not start')
    expect(await recorded(path)).toEqual({ runs: 0, calls: 0 })
  })

  it('when the batch API refuses the batch', async () => {
    const path = await pairsProject('batch.assay')
    process.env.OPENAI_API_KEY = KEYS.openai
    fake.setScript({ responder: protocolResponder, faults: [{ endpoint: 'openai.batches.create', fault: { type: 'status', status: 400, message: 'Batch API is not enabled for this organization' } }] })
    const r = await runCli('judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--batch', '--poll-interval', '0.01', '--json')
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ runId: null, outcome: 'could_not_start', error: expect.stringContaining('Batch API is not enabled') })
    expect(await recorded(path)).toEqual({ runs: 0, calls: 0 })
  })

  it('reports skipped items with their reasons and exits 1 when nothing can be asked', async () => {
    const path = await pairsProject('nothing.assay')
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli('judge', path, '--instrument', 'pairwise-preference', '--template', 'pairwise-ranker-lr', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--json')
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ runId: null, outcome: 'nothing_to_ask', skippedCount: 2 })
    expect(out.skipped.map((s: { externalId: string }) => s.externalId)).toEqual(['p1', 'p2'])
    expect(out.skipped[0].reason).toContain('literature')
    expect(await recorded(path)).toEqual({ runs: 0, calls: 0 })
    expect(fake.requests).toHaveLength(0)
  })
})

describe('fields a file brings of its own', () => {
  it('cannot shadow the task Assay attaches to a hypothesis set, and are kept as written', async () => {
    const path = tmp.file('own-task.assay')
    const project = await Project.create(path)
    try {
      const tasks = tmp.file('tasks.jsonl')
      writeFileSync(tasks, JSON.stringify({ task_id: 'T1', background: 'Cells age.', question: 'Why?', finding: 'Clocks drift.', key_points: ['drift'] }))
      expect((await importFile(project, 'tasks', tasks)).errors).toEqual([])
      const sets = tmp.file('sets.jsonl')
      writeFileSync(sets, JSON.stringify({ set_id: 'S1', task_id: 'T1', task: 'our own note', hypotheses: ['Clocks drift with age.'] }))
      expect((await importFile(project, 'hypotheses', sets)).errors).toEqual([])
      const row = getItemByExternalId(project.db, 'hypothesis-set', 'S1')!
      expect(JSON.parse(row.payload).$extra).toEqual({ task: 'our own note' })
      expect(payloadWithContext(project.db, row).task).toMatchObject({ task_id: 'T1', finding: 'Clocks drift.' })
    } finally {
      project.close()
    }
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli('judge', path, '--instrument', 'hypothesis-match', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--json')
    expect(r.stderr).not.toContain('needs the task')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ counts: { total: 1, failed: 0, pending: 0 }, skipped: [] })
  })
})
