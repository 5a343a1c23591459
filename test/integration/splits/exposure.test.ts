import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { EventHub } from '../../../src/main/events'
import { createSplit } from '../../../src/main/splits/stratified-split'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
let project: Project
let ctx: ApiContext

async function call<T = any>(op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw new Error(`${op}: ${env.error.message}`)
  return env.value as T
}

const exposures = () =>
  project.db.prepare(`SELECT item_id, kind, detail FROM exposures ORDER BY id`).all() as Array<{ item_id: number; kind: string; detail: string }>

beforeAll(async () => {
  project = await Project.create(tmp.file('e.assay'))
  await loadDemo(project)
  // The demo's items are in no split yet, so they may be split although they already have answers.
  createSplit(project, { testFraction: 0.5, seed: 'x', kind: 'proposal-pair' })
  ctx = { project, session: curatorSession(), events: new EventHub() }
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('exposure of held-out items', () => {
  it('logs a revealed test label, and marks that item when a prompt is revised afterwards', async () => {
    const test = project.db.prepare(`SELECT id FROM items WHERE kind = 'proposal-pair' AND split = 'test' ORDER BY id`).all() as Array<{ id: number }>
    expect(test.length).toBe(6)
    const seen = test[0]!.id
    expect((await call('items.get', { id: seen })).withheld).toContain('label')
    await call('items.reveal', { id: seen })
    expect(exposures()).toEqual([{ item_id: seen, kind: 'label_viewed', detail: expect.stringContaining('label') }])

    const user = ['Compare.', '=== PROPOSAL A ===', '{{proposal_a}}', '=== PROPOSAL B ===', '{{proposal_b}}'].join('\n\n')
    const t = await call<{ id: string; version: number }>('templates.create', { id: 'my-ranker', instrument: 'pairwise-preference', user, answerFormat: 'json' })
    const revisions = exposures().filter((e) => e.kind === 'prompt_revision')
    expect(revisions).toEqual([{ item_id: seen, kind: 'prompt_revision', detail: `revised my-ranker@${t.version}` }])
    // Items nobody looked at stay held out.
    expect(revisions.some((e) => e.item_id === test[1]!.id)).toBe(false)
  })
})
