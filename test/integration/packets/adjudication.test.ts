import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adjudicatedLabels } from '../../../src/main/adjudication'
import { assignmentContext } from '../../../src/main/annotation/blinded'
import { gatherReportInput } from '../../../src/main/report/gather'
import { insertItems } from '../../../src/main/store/items'
import { setMeta } from '../../../src/main/store/meta'
import { Project } from '../../../src/main/store/project'
import { getInstrument } from '../../../src/shared/instruments'
import { tempDir } from '../../support/tmp'
import { annotatorSession, call, ctxFor, markedPairs } from './support'

const TAG = 'ADJ-HIDDEN'
const tmp = tempDir('assay-adjudication-')
let project: Project
const itemIds: number[] = []
const pairwise = getInstrument('pairwise-preference')

/** Canonical verdicts each annotator gives, per pair (absent: no answer). */
const PLAN: Record<string, Array<string | null>> = {
  // pair 0 agrees (same winner), 1 differs in winner, 2 differs by three steps, 3 has one answer, 4 abstain vs choice
  Ada: ['a_better', 'a_better', 'a_much_better', 'a_better', 'abstain'],
  Ben: ['a_much_better', 'b_better', 'b_much_better', null, 'b_better'],
  Cy: [null, null, 'a_better', null, null]
}

const answerIds = new Map<string, string>()

/** Submits a canonical verdict through the annotator's own screen order. */
async function answer(name: string, pair: number, canonical: string): Promise<string> {
  const session = annotatorSession(project, name)
  const ctx = ctxFor(project, session)
  const assignment = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND item_id = ?`).get(session.annotator!.id, itemIds[pair]) as { id: number }
  const display = assignmentContext(project, session.annotator!, assignment.id).blind.display
  const judgement = canonical === 'abstain' ? { verdict: 'abstain', abstain_reason: 'outside my field' } : pairwise.toDisplay({ verdict: canonical }, display)
  const r = await call(ctx, 'annotations.submit', { assignmentId: assignment.id, judgement, activeMs: 10 })
  answerIds.set(`${name}:${pair}`, r.annotationId)
  return r.annotationId
}

beforeAll(async () => {
  project = await Project.create(tmp.file('adj.assay'))
  project.write((db) => {
    setMeta(db, 'seed', 'adjudication-seed')
    itemIds.push(...insertItems(db, markedPairs(5, TAG)))
  })
  await call(ctxFor(project), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben', 'Cy'], overlap: 3 })
  for (const [name, verdicts] of Object.entries(PLAN)) {
    for (const [pair, v] of verdicts.entries()) if (v) await answer(name, pair, v)
  }
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('disagreements', () => {
  it('lists the items where annotators disagree under the default rule', async () => {
    const list = await call(ctxFor(project), 'adjudication.list', { instrument: 'pairwise-preference' })
    expect(list.counts).toEqual({ compared: 4, disagreements: 3, adjudicated: 0, open: 3 })
    expect(list.rows.map((r: any) => [r.itemId, r.fields.map((f: any) => f.field), r.annotators])).toEqual([
      [itemIds[1], ['winner'], ['Ada', 'Ben']],
      [itemIds[2], ['verdict', 'winner'], ['Ada', 'Ben', 'Cy']],
      [itemIds[4], ['abstained'], ['Ada', 'Ben']]
    ])
    const all = await call(ctxFor(project), 'adjudication.list', { instrument: 'pairwise-preference', includeAgreeing: true })
    expect(all.rows.map((r: any) => [r.itemId, r.disagree])).toEqual([
      [itemIds[1], true],
      [itemIds[2], true],
      [itemIds[4], true],
      [itemIds[0], false]
    ])
  })

  it('follows a configured rule per instrument, refuses rules that cannot apply, and resets to the defaults', async () => {
    const curator = ctxFor(project)
    const rule = await call(curator, 'adjudication.setRule', { instrument: 'pairwise-preference', fields: { verdict: { kind: 'difference', threshold: 1 } } })
    expect(rule.fields.find((f: any) => f.name === 'verdict')).toMatchObject({ rule: { kind: 'difference', threshold: 1 }, isDefault: false })
    expect((await call(curator, 'adjudication.list', { instrument: 'pairwise-preference' })).counts.disagreements).toBe(4)
    await expect(call(curator, 'adjudication.setRule', { instrument: 'pairwise-preference', fields: { winner: { kind: 'difference', threshold: 1 } } })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(call(curator, 'adjudication.setRule', { instrument: 'pairwise-preference', fields: { nonsense: { kind: 'any' } } })).rejects.toMatchObject({ code: 'invalid_input' })
    await call(curator, 'adjudication.setRule', { instrument: 'pairwise-preference', fields: null })
    expect((await call(curator, 'adjudication.rule', { instrument: 'pairwise-preference' })).fields.every((f: any) => f.isDefault)).toBe(true)
    expect((await call(curator, 'adjudication.list', { instrument: 'pairwise-preference' })).counts.disagreements).toBe(3)
  })

  it('is for curators only', async () => {
    const ada = ctxFor(project, annotatorSession(project, 'Ada'))
    await expect(call(ada, 'adjudication.list', { instrument: 'pairwise-preference' })).rejects.toMatchObject({ code: 'forbidden' })
    await expect(call(ada, 'adjudication.item', { instrument: 'pairwise-preference', itemId: itemIds[1] })).rejects.toMatchObject({ code: 'forbidden' })
  })
})

describe('adjudicating', () => {
  let first: string
  let pair2Canonical: string

  it('shows the answers side by side in canonical order, with names, pseudonyms, revision times and who saw which side where', async () => {
    const { externalId, title, ...item } = await call(ctxFor(project), 'adjudication.item', { instrument: 'pairwise-preference', itemId: itemIds[1] })
    // Named as people name it: by its id in the imported file and its title.
    expect([externalId, title]).toEqual([`${TAG}-pair-1`, `${TAG}-pair-1 · Topic 1`])
    // Otherwise the curator sees the item blinded too: no origin, generator or label.
    expect(JSON.stringify(item)).not.toContain(TAG)
    expect(item.sides).toBe('canonical')
    const seen = (name: string) => {
      const session = annotatorSession(project, name)
      const assignment = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND item_id = ?`).get(session.annotator!.id, itemIds[1]) as { id: number }
      return assignmentContext(project, session.annotator!, assignment.id).blind.display.swapped
    }
    expect(item.answers.map((a: any) => a.sawSwapped)).toEqual([seen('Ada'), seen('Ben')])
    expect(item.answers.map((a: any) => [a.annotator, a.pseudonym, a.annotationId])).toEqual([
      ['Ada', 'A01', answerIds.get('Ada:1')],
      ['Ben', 'A02', answerIds.get('Ben:1')]
    ])
    expect(item.answers[0].revisions).toEqual([{ id: answerIds.get('Ada:1'), createdAt: item.answers[0].createdAt, retracted: false }])
    // Left is canonical A whatever order the annotators saw; their answers are shown in that frame.
    expect(item.view.a.markdown).toContain('proposal A in pair 1')
    expect(item.view.b.markdown).toContain('proposal B in pair 1')
    expect(item.answers.map((a: any) => a.judgement.verdict)).toEqual(['a_better', 'b_better'])
    expect(item.fields).toEqual([{ field: 'winner', label: 'Better proposal', units: 1 }])
    expect(item.current).toBeNull()
  })

  it("records a final label from the screen's order in canonical terms, with reason, curator and the answers it rests on", async () => {
    const curator = ctxFor(project)
    const item = await call(curator, 'adjudication.item', { instrument: 'pairwise-preference', itemId: itemIds[1] })
    const bens = item.answers.find((a: any) => a.annotator === 'Ben').judgement
    const r = await call(curator, 'adjudication.record', {
      instrument: 'pairwise-preference',
      itemId: itemIds[1],
      judgement: bens,
      reason: 'B has the sounder design',
      curator: 'Eve',
      expectedCurrent: null
    })
    first = r.id
    expect(r.supersedes).toBeNull()
    const row = project.db.prepare(`SELECT * FROM adjudications WHERE id = ?`).get(r.id) as any
    expect(JSON.parse(row.judgement)).toEqual({ verdict: 'b_better' })
    expect(row).toMatchObject({ reason: 'B has the sounder design', curator: 'Eve', supersedes: null })
    expect(JSON.parse(row.based_on)).toEqual([answerIds.get('Ada:1'), answerIds.get('Ben:1')])
    const list = await call(curator, 'adjudication.list', { instrument: 'pairwise-preference' })
    expect(list.counts).toEqual({ compared: 4, disagreements: 3, adjudicated: 1, open: 2 })
    expect(list.rows.find((x: any) => x.itemId === itemIds[1])).toMatchObject({ adjudication: { id: r.id, curator: 'Eve' }, stale: false })
  })

  it('supersedes instead of overwriting, refuses a decision made on an outdated screen, and refuses bad input', async () => {
    const curator = ctxFor(project)
    const second = await call(curator, 'adjudication.record', {
      instrument: 'pairwise-preference',
      itemId: itemIds[1],
      judgement: { verdict: 'abstain', abstain_reason: 'both flawed' },
      reason: 'On a second reading neither is sound',
      curator: 'Eve',
      basedOn: [answerIds.get('Ben:1')!, answerIds.get('Ada:1')!],
      expectedCurrent: first
    })
    expect(second.supersedes).toBe(first)
    await expect(
      call(curator, 'adjudication.record', { instrument: 'pairwise-preference', itemId: itemIds[1], judgement: { verdict: 'a_better' }, reason: 'r', curator: 'Eve', expectedCurrent: first })
    ).rejects.toMatchObject({ code: 'conflict' })
    await expect(
      call(curator, 'adjudication.record', { instrument: 'pairwise-preference', itemId: itemIds[1], judgement: { verdict: 'c_better' }, reason: 'r', curator: 'Eve' })
    ).rejects.toMatchObject({ code: 'invalid_answer' })
    await expect(
      call(curator, 'adjudication.record', { instrument: 'pairwise-preference', itemId: itemIds[1], judgement: { verdict: 'a_better' }, reason: '  ', curator: 'Eve' })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(
      call(curator, 'adjudication.record', { instrument: 'pairwise-preference', itemId: itemIds[1], judgement: { verdict: 'a_better' }, reason: 'r', curator: 'Eve', basedOn: [answerIds.get('Ada:2')!] })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    const item = await call(curator, 'adjudication.item', { instrument: 'pairwise-preference', itemId: itemIds[1] })
    expect(item.history.map((h: any) => h.id)).toEqual([first, second.id])
    expect(item.current).toMatchObject({ id: second.id, supersedes: first, basedOn: [answerIds.get('Ben:1'), answerIds.get('Ada:1')], judgement: { verdict: 'abstain' } })
    expect(project.db.prepare(`SELECT count(*) AS n FROM adjudications`).get()).toEqual({ n: 2 })
  })

  it('marks an adjudication stale when an answer arrives after it', async () => {
    const curator = ctxFor(project)
    // "A better" as the adjudication screen shows pair 2: the left proposal, which is canonical A.
    const shown = await call(curator, 'adjudication.item', { instrument: 'pairwise-preference', itemId: itemIds[2] })
    expect(shown.view.a.markdown).toContain('proposal A in pair 2')
    pair2Canonical = 'a_better'
    await call(curator, 'adjudication.record', { instrument: 'pairwise-preference', itemId: itemIds[2], judgement: { verdict: 'a_better' }, reason: 'majority', curator: 'Eve' })
    expect((await call(curator, 'adjudication.list', { instrument: 'pairwise-preference' })).counts).toMatchObject({ adjudicated: 2, open: 1 })
    await answer('Cy', 1, 'a_much_better')
    const list = await call(curator, 'adjudication.list', { instrument: 'pairwise-preference' })
    expect(list.rows.find((x: any) => x.itemId === itemIds[1])).toMatchObject({ stale: true, answers: 3 })
    expect(list.counts).toMatchObject({ adjudicated: 1, open: 2 })
  })

  it('feeds the audit and the label export with the final labels and their provenance', () => {
    const input = gatherReportInput(project.db, { instrument: 'pairwise-preference' })
    const adjudicated = input.sources.find((s) => s.kind === 'adjudicated')!
    expect(adjudicated.calls.map((c) => c.itemId).sort()).toEqual([itemIds[1], itemIds[2]].sort())
    const labels = adjudicatedLabels(project.db, { instrument: 'pairwise-preference' })
    expect(labels.map((l) => [l.item, (l.judgement as { verdict: string }).verdict, l.curator, l.supersedes !== null])).toEqual([
      [`${TAG}-pair-1`, 'abstain', 'Eve', true],
      [`${TAG}-pair-2`, pair2Canonical, 'Eve', false]
    ])
    expect(labels[1]!.based_on).toEqual([answerIds.get('Ada:2'), answerIds.get('Ben:2'), answerIds.get('Cy:2')])
    expect(labels[1]!.reason).toBe('majority')
  })
})
