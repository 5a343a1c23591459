import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { insertItems } from '../../../src/main/store/items'
import { annotatorSession, call, ctxFor } from '../packets/support'
import { repoRoot, tempDir } from '../../support/tmp'

// A declared instrument in the curator's rooms: its disagreements found field by field under the default rules of
// each field's level, adjudicated to a final label, and the final label counted in the report.

const tmp = tempDir()
const STUDY = readFileSync(join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml'), 'utf8')
let project: Project
const itemIds: number[] = []

const SCORES: Record<string, Array<[number, number, number, string]>> = {
  // novelty, excitement, feasibility, verdict per idea
  Ada: [[8, 7, 6, 'accept'], [3, 3, 5, 'reject'], [6, 6, 4, 'borderline']],
  Ben: [[8, 7, 6, 'accept'], [3, 3, 5, 'accept'], [2, 6, 4, 'borderline']]
}

beforeAll(async () => {
  project = await Project.create(tmp.file('adj.assay'))
  await call(ctxFor(project), 'instruments.add', { text: STUDY, file: 'idea-study.yaml' })
  project.write((db) => {
    itemIds.push(...insertItems(db, ['Cold atoms.', 'Warm ions.', 'Soft robots.'].map((idea, n) => ({ kind: 'idea' as const, externalId: `i${n + 1}`, set: 'study', split: 'none' as const, payload: { idea } }))))
  })
  await call(ctxFor(project), 'assignments.create', { instrument: 'idea-study', annotators: ['Ada', 'Ben'], overlap: 2 })
  for (const [name, rows] of Object.entries(SCORES)) {
    const session = annotatorSession(project, name)
    for (const [n, [novelty, excitement, feasibility, verdict]] of rows.entries()) {
      const assignment = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND item_id = ?`).get(session.annotator!.id, itemIds[n]) as { id: number }
      await call(ctxFor(project, session), 'annotations.submit', { assignmentId: assignment.id, judgement: { novelty, excitement, feasibility, verdict, rationale: 'r' }, activeMs: 10 })
    }
  }
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('a declared instrument in adjudication', () => {
  it('lists the disagreements by field, adjudicates one, and the report counts the final label', async () => {
    const curator = ctxFor(project)
    const list = await call(curator, 'adjudication.list', { instrument: 'idea-study' })
    // The verdict differs on i2; novelty differs by 4 on i3 (an ordinal scale: more than one point apart).
    expect(list.rows.map((r: any) => [r.itemId, r.fields.map((f: any) => f.field)])).toEqual([
      [itemIds[1], ['verdict']],
      [itemIds[2], ['novelty']]
    ])
    const item = await call(curator, 'adjudication.item', { instrument: 'idea-study', itemId: itemIds[1] })
    expect(item.answers).toHaveLength(2)
    // A final label is held to the declared form: out of range is refused, a whole answer is kept.
    await expect(
      call(curator, 'adjudication.record', { instrument: 'idea-study', itemId: itemIds[1], judgement: { novelty: 30, excitement: 3, feasibility: 5, verdict: 'reject', rationale: '' }, reason: 'r', curator: 'Cat' })
    ).rejects.toMatchObject({ code: 'invalid_answer' })
    await call(curator, 'adjudication.record', { instrument: 'idea-study', itemId: itemIds[1], judgement: { novelty: 3, excitement: 3, feasibility: 5, verdict: 'reject', rationale: 'Discussed.' }, reason: 'Ben misread the method.', curator: 'Cat' })
    const after = await call(curator, 'adjudication.list', { instrument: 'idea-study' })
    expect(after.counts).toMatchObject({ disagreements: 2, adjudicated: 1, open: 1 })

    const report = await call(curator, 'report.build', { instrument: 'idea-study' })
    // The adjudicated final labels are a criterion of their own beside the human majority.
    expect(report.criteria).toEqual(expect.arrayContaining(['adjudicated', 'human-majority']))
  })
})
