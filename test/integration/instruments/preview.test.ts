import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { EventHub } from '../../../src/main/events'
import { Project } from '../../../src/main/store/project'
import { insertItems } from '../../../src/main/store/items'
import { repoRoot, tempDir } from '../../support/tmp'

// `instruments.preview`: an instrument tried on one of the project's items before use. The view is the blinded one,
// an answer is checked exactly as a submission is, the judge's request is the one a run would send, and nothing is written.

const DECLARATION = readFileSync(join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml'), 'utf8')

describe('instruments.preview', () => {
  const tmp = tempDir('assay-preview-')
  let project: Project
  let ctx: ApiContext
  let n = 0

  async function call(name: string, input: unknown, as: ApiContext = ctx) {
    const envelope = await dispatch(as, name as never, input as never)
    if (!envelope.ok) throw Object.assign(new Error(envelope.error.message), { code: envelope.error.code })
    return envelope.value as any
  }

  beforeEach(async () => {
    project = await Project.create(tmp.file(`p${++n}.assay`))
    ctx = { project, session: curatorSession(), events: new EventHub() }
    await call('instruments.add', { text: DECLARATION, file: 'idea-study.yaml' })
    project.write((db) =>
      insertItems(db, [
        { kind: 'idea', externalId: 'i1', set: 's', split: 'none', payload: { idea: 'Trap atoms in an optical lattice.', idea_model: 'secret-model' } },
        { kind: 'idea', externalId: 'i2', set: 's', split: 'none', payload: { idea: 'Heat trapped ions.', idea_model: 'other-model' } }
      ])
    )
  })
  afterEach(() => project.close())

  it('shows the first item blinded, with the request a judge would be sent', async () => {
    const p = await call('instruments.preview', { instrument: 'idea-study' })
    expect(p.items.map((i: { externalId: string }) => i.externalId)).toEqual(['i1', 'i2'])
    expect(p.item.externalId).toBe('i1')
    expect(p.view).toEqual({ text: 'Trap atoms in an optical lattice.' })
    expect(JSON.stringify(p)).not.toContain('secret-model')
    expect(p.request.template).toBe('idea-study@1')
    expect(p.request.user).toContain('Trap atoms in an optical lattice.')
    expect(p.request.user).toContain('"verdict" (Overall): one of "reject", "borderline", "accept".')
    expect(p.check).toBeNull()
  })

  it('checks an answer as a submission is: refused field by field, or the stored form; nothing is written', async () => {
    const refused = await call('instruments.preview', { instrument: 'idea-study', answer: { novelty: 11, excitement: 2, feasibility: 3, verdict: 'accept' } })
    expect(refused.check.ok).toBe(false)
    expect(refused.check.issues.map((i: { field: string }) => i.field)).toContain('novelty')
    const accepted = await call('instruments.preview', { instrument: 'idea-study', itemId: refused.items[1].id, answer: { novelty: 8, excitement: 7, feasibility: 6, verdict: 'accept', rationale: 'ok' } })
    expect(accepted.item.externalId).toBe('i2')
    expect(accepted.check).toEqual({ ok: true, issues: [], canonical: { novelty: 8, excitement: 7, feasibility: 6, verdict: 'accept', rationale: 'ok' } })
    expect(project.db.prepare('SELECT count(*) AS n FROM annotations').get()).toEqual({ n: 0 })
  })

  it('works for a built-in instrument too, and names an item of the wrong kind or an unknown instrument', async () => {
    const p = await call('instruments.preview', { instrument: 'idea-review' })
    expect(p.item.externalId).toBe('i1')
    expect(p.request?.user ?? p.requestProblem).toBeTruthy()
    const none = await call('instruments.preview', { instrument: 'pairwise-preference' })
    expect(none).toMatchObject({ items: [], item: null, view: null })
    await expect(call('instruments.preview', { instrument: 'vibes' })).rejects.toMatchObject({ code: 'invalid_input' })
  })

  it('is a curator’s: an annotator session is refused', async () => {
    await call('annotators.create', { name: 'Ada' })
    const annotator: ApiContext = { project, session: curatorSession(), events: new EventHub() }
    await call('session.setRole', { role: 'annotator', annotator: 'Ada' }, annotator)
    await expect(call('instruments.preview', { instrument: 'idea-study' }, annotator)).rejects.toMatchObject({ code: 'forbidden' })
  })
})
