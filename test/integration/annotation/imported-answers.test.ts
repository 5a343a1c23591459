import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { exportPacket, mergePackets } from '../../../src/main/packets'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'
import { annotatorSession, call, ctxFor } from '../packets/support'

// Answers an annotator gave elsewhere and a curator imported (`assay import labels`) are that annotator's answers:
// done in their queue, shown as their answer and in their history, and carried in their packet, which merges back.

const side = (origin: string) => ({ markdown: `A ${origin} proposal.`, origin })
const answer = (item: string, verdict: string) => JSON.stringify({ item, instrument: 'pairwise-preference', source: 'Ada', source_kind: 'human', judgement: { verdict } })

describe('imported answers of an annotator', () => {
  let tmp: ReturnType<typeof tempDir>
  let project: Project
  beforeEach(async () => {
    tmp = tempDir('assay-imported-answers-')
    project = await Project.create(tmp.file('p.assay'))
    writeFileSync(tmp.file('pairs.jsonl'), ['p1', 'p2', 'p3'].map((id) => JSON.stringify({ pair_id: id, a: side('human'), b: side('ai') })).join('\n'))
    expect((await importFile(project, 'pairs', tmp.file('pairs.jsonl'))).errors).toEqual([])
  })
  afterEach(() => {
    project.close()
    tmp.cleanup()
  })

  const importAnswers = async (...lines: string[]) => {
    writeFileSync(tmp.file('labels.jsonl'), lines.join('\n'))
    expect((await importFile(project, 'labels', tmp.file('labels.jsonl'))).errors).toEqual([])
  }
  const assign = () => call(ctxFor(project), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada'], overlap: 1 })

  async function expectCounted(): Promise<void> {
    const ada = ctxFor(project, annotatorSession(project, 'Ada'))
    const [queue] = (await call(ada, 'queue.summary', {})).queues
    expect(queue).toMatchObject({ instrument_id: 'pairwise-preference', total: 3, done: 2 })
    const rows = (await call(ada, 'queue.list', { instrument: 'pairwise-preference' })).rows as Array<{ assignmentId: number; status: string }>
    const itemOf = (id: number) => (project.db.prepare(`SELECT i.external_id AS e FROM assignments s JOIN items i ON i.id = s.item_id WHERE s.id = ?`).get(id) as { e: string }).e
    for (const row of rows) {
      const answered = itemOf(row.assignmentId) !== 'p3'
      expect(row.status).toBe(answered ? 'done' : 'pending')
      const item = await call(ada, 'queue.item', { assignmentId: row.assignmentId })
      expect(item.answer !== null).toBe(answered)
      const history = await call(ada, 'annotations.history', { assignmentId: row.assignmentId })
      expect(history.revisions).toHaveLength(answered ? 1 : 0)
    }
    const packet = await exportPacket(project, { annotator: 'Ada', out: tmp.file('ada.assay') })
    expect(packet).toMatchObject({ assignments: 3, answers: 2 })
    // Merged back untouched, the imported answers are recognised as already present.
    const [merged] = await mergePackets(project, [tmp.file('ada.assay')])
    expect(merged).toMatchObject({ added: 0, alreadyPresent: 2 })
  }

  it('count as done when imported after the items were assigned', async () => {
    await assign()
    await importAnswers(answer('p1', 'a_better'), answer('p2', 'b_better'))
    await expectCounted()
  })

  it('count as done when the items are assigned after the import', async () => {
    await importAnswers(answer('p1', 'a_better'), answer('p2', 'b_better'))
    await assign()
    await expectCounted()
  })

  it('can be undone by the annotator like an answer of their own', async () => {
    await assign()
    await importAnswers(answer('p1', 'a_better'))
    const ada = ctxFor(project, annotatorSession(project, 'Ada'))
    const id = (project.db.prepare(`SELECT s.id FROM assignments s JOIN items i ON i.id = s.item_id WHERE i.external_id = 'p1'`).get() as { id: number }).id
    const item = await call(ada, 'queue.item', { assignmentId: id })
    await call(ada, 'annotations.undo', { annotationId: item.answer.id })
    const after = await call(ada, 'queue.item', { assignmentId: id })
    expect(after).toMatchObject({ status: 'pending', answer: null })
  })
})
