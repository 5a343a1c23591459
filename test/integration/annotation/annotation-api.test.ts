import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { Project } from '../../../src/main/store/project'
import { EventHub } from '../../../src/main/events'
import { tempDir } from '../../support/tmp'
import { assignmentContext } from '../../../src/main/annotation/blinded'

const tmp = tempDir()
let project: Project
const hub = new EventHub()

function curator(): ApiContext {
  return { project, session: curatorSession(), events: hub }
}

async function annotatorCtx(name: string): Promise<ApiContext> {
  const ctx: ApiContext = { project, session: curatorSession(), events: hub }
  await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
  return ctx
}

async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

beforeAll(async () => {
  project = await Project.create(tmp.file('a.assay'))
  await loadDemo(project)
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('annotation in main', () => {
  it('assigns each pair to k annotators, balanced, in a different seeded order per person', async () => {
    const r = await call(curator(), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben', 'Cy'], overlap: 2 })
    expect(r.items).toBe(12)
    expect(r.created).toBe(24)
    expect(Object.values(r.perAnnotator)).toEqual([8, 8, 8])
    const again = await call(curator(), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben', 'Cy'], overlap: 2 })
    expect(again.created).toBe(0)
    const perItem = project.db.prepare(`SELECT item_id, count(*) AS n FROM assignments GROUP BY item_id`).all() as Array<{ n: number }>
    expect(perItem.every((r) => r.n === 2)).toBe(true)
    const ada = await annotatorCtx('Ada')
    const ben = await annotatorCtx('Ben')
    const orderOf = async (ctx: ApiContext) =>
      (await call(ctx, 'queue.list', { instrument: 'pairwise-preference' })).rows.map((r: { assignmentId: number }) => r.assignmentId)
    const adaItems = project.db.prepare(`SELECT item_id FROM assignments WHERE id IN (${(await orderOf(ada)).join(',')})`).all()
    expect(adaItems).toHaveLength(8)
    expect(await orderOf(ada)).toEqual(await orderOf(ada))
    await expect(call(ben, 'queue.item', { assignmentId: (await orderOf(ada))[0] })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('refuses overlap larger than the number of annotators', async () => {
    await expect(call(curator(), 'assignments.create', { instrument: 'cue-rating', annotators: ['Ada'], overlap: 2 })).rejects.toMatchObject({ code: 'invalid_input' })
  })

  it('sends annotators a blinded view only, and refuses curator operations', async () => {
    const ada = await annotatorCtx('Ada')
    const { rows } = await call(ada, 'queue.list', { instrument: 'pairwise-preference' })
    const item = await call(ada, 'queue.item', { assignmentId: rows[0].assignmentId })
    const text = JSON.stringify(item)
    for (const hidden of ['"origin"', '"generator"', '"company"', '"citations"', '"label"', '"probe"', 'model-x', 'model-y', 'model-z', 'example-lab', 'human_better']) {
      expect(text).not.toContain(hidden)
    }
    await expect(call(ada, 'items.list', {})).rejects.toMatchObject({ code: 'forbidden' })
    await expect(call(ada, 'items.get', { id: 1 })).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('stores answers in canonical order, keeps revisions, restores drafts and undoes', async () => {
    const ada = await annotatorCtx('Ada')
    const { rows } = await call(ada, 'queue.list', { instrument: 'pairwise-preference' })
    // Find an assignment whose display is swapped (computed as main does), so the mapping is exercised.
    let swappedRow: number | undefined
    const me = project.db.prepare(`SELECT id, name FROM annotators WHERE name = 'Ada'`).get() as { id: number; name: string }
    for (const r of rows) {
      if (assignmentContext(project, me, r.assignmentId).blind.display.swapped === true) {
        swappedRow = r.assignmentId
        break
      }
    }
    expect(swappedRow).toBeDefined()
    const id = swappedRow!
    await call(ada, 'annotations.saveDraft', { assignmentId: id, data: { verdict: 'a_better' }, activeMs: 1200 })
    expect((await call(ada, 'queue.item', { assignmentId: id })).draft).toMatchObject({ data: { verdict: 'a_better' }, activeMs: 1200 })

    // "a" in display terms is the proposal shown left, which is canonical B here.
    const first = await call(ada, 'annotations.submit', { assignmentId: id, judgement: { verdict: 'a_much_better' }, activeMs: 5000 })
    const stored = project.db.prepare(`SELECT judgement, display FROM annotations WHERE id = ?`).get(first.annotationId) as { judgement: string; display: string }
    expect(JSON.parse(stored.judgement).verdict).toBe('b_much_better')
    expect(JSON.parse(stored.display)).toMatchObject({ swapped: true })
    const item = await call(ada, 'queue.item', { assignmentId: id })
    expect(item.draft).toBeNull()
    expect(item.status).toBe('done')
    expect(item.answer.judgement.verdict).toBe('a_much_better')

    const second = await call(ada, 'annotations.submit', { assignmentId: id, judgement: { verdict: 'b_better' }, activeMs: 800 })
    expect(second.supersedes).toBe(first.annotationId)
    // Undoing a correction gives the answer before it back: the item stays answered, as it was before the correction.
    expect(await call(ada, 'annotations.undo', { annotationId: second.annotationId })).toEqual({ assignmentId: id, restored: true })
    const after = await call(ada, 'queue.item', { assignmentId: id })
    expect(after.status).toBe('done')
    expect(after.answer.judgement.verdict).toBe('a_much_better')
    expect(after.draft).toBeNull()
    const history = await call(ada, 'annotations.history', { assignmentId: id })
    expect(history.revisions.map((r: { retracted: boolean }) => r.retracted)).toEqual([false, false, false])
    // Only the latest answer can be undone; the first, superseded twice, cannot.
    await expect(call(ada, 'annotations.undo', { annotationId: first.annotationId })).rejects.toMatchObject({ code: 'conflict' })
    // Each undo returns to what stood before the latest revision: undoing the restored answer gives the correction back.
    const restoredHead = history.revisions[history.revisions.length - 1] as { id: string }
    expect(await call(ada, 'annotations.undo', { annotationId: restoredHead.id })).toMatchObject({ restored: true })
    expect((await call(ada, 'queue.item', { assignmentId: id })).answer.judgement.verdict).toBe('b_better')
  })

  it('refuses invalid answers in main with the field', async () => {
    await call(curator(), 'assignments.create', { instrument: 'cue-rating', annotators: ['Ada'], overlap: 1 })
    const ada = await annotatorCtx('Ada')
    const { rows } = await call(ada, 'queue.list', { instrument: 'cue-rating' })
    const bad = { score: 2, input_score: 1, alternative_score: 0, cue_excerpt: 'words that are not in the question at all', rationale: 'r', hidden: 'the mechanism' }
    const err = await call(ada, 'annotations.submit', { assignmentId: rows[0].assignmentId, judgement: bad, activeMs: 10 }).catch((e) => e)
    expect(err.code).toBe('invalid_answer')
    expect(err.details.map((d: { field: string }) => d.field)).toContain('cue_excerpt')
    const outOfRange = await call(ada, 'annotations.submit', { assignmentId: rows[0].assignmentId, judgement: { ...bad, score: 7, cue_excerpt: '' }, activeMs: 10 }).catch((e) => e)
    expect(outOfRange.code).toBe('invalid_answer')
    expect(project.db.prepare(`SELECT count(*) AS n FROM annotations WHERE instrument_id = 'cue-rating'`).get()).toEqual({ n: 0 })
  })

  it('names hypotheses by their display labels in errors, never by their hidden ids', async () => {
    await call(curator(), 'assignments.create', { instrument: 'hypothesis-match', annotators: ['Ada'], overlap: 1 })
    const ada = await annotatorCtx('Ada')
    const { rows } = await call(ada, 'queue.list', { instrument: 'hypothesis-match' })
    const item = await call(ada, 'queue.item', { assignmentId: rows[0].assignmentId })
    const labels = (item.view.hypotheses as Array<{ id: string }>).map((h) => h.id)
    const scores = labels.slice(0, 4).map((id) => ({ id, match: 3, compatible: true, plausibility: 4, reason: 'r' }))
    const err = await call(ada, 'annotations.submit', { assignmentId: rows[0].assignmentId, judgement: { scores }, activeMs: 10 }).catch((e) => e)
    expect(err.code).toBe('invalid_answer')
    const a = project.db.prepare(`SELECT item_id FROM assignments WHERE id = ?`).get(rows[0].assignmentId) as { item_id: number }
    const hidden = (JSON.parse((project.db.prepare(`SELECT payload FROM items WHERE id = ?`).get(a.item_id) as { payload: string }).payload).hypotheses as Array<{ id: string }>).map((h) => h.id)
    const text = JSON.stringify({ message: err.message, details: err.details })
    expect(text).toContain(labels[4])
    for (const id of hidden.filter((id) => !labels.includes(id))) expect(text).not.toMatch(new RegExp(`\\b${id}\\b`))
  })

  it('requires a reason to skip or flag', async () => {
    const ada = await annotatorCtx('Ada')
    const { rows } = await call(ada, 'queue.list', { instrument: 'cue-rating' })
    await expect(call(ada, 'queue.setStatus', { assignmentId: rows[1].assignmentId, status: 'flagged' })).rejects.toMatchObject({ code: 'invalid_input' })
    await call(ada, 'queue.setStatus', { assignmentId: rows[1].assignmentId, status: 'flagged', reason: 'question is ambiguous' })
    const summary = await call(ada, 'queue.summary', {})
    expect(summary.queues.find((q: { instrument_id: string }) => q.instrument_id === 'cue-rating')).toMatchObject({ total: 3, flagged: 1 })
  })

  it('runs a worked check for any session', async () => {
    const ada = await annotatorCtx('Ada')
    expect(await call(ada, 'checks.run', { code: 'console.log(2 + 2)' })).toMatchObject({ output: '4', error: null })
  })
})
