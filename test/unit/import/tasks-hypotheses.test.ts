import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

const task = (id: string, extra: Record<string, unknown> = {}) => ({
  task_id: id,
  background: 'Known context.',
  question: 'What drives it?',
  subject: 'ageing clocks',
  finding: 'X drives it.',
  key_points: ['X', 'drives'],
  ...extra
})

describe('tasks, hypotheses and questions importers', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('imports tasks with a second reference and skips unsuitable or leaking ones', async () => {
    const file = s.write(
      'tasks.jsonl',
      jsonl([
        task('T1', { reference_b: { finding: 'X, per reader B.', key_points: ['X'] } }),
        task('T2', { suitable: false, reason: 'descriptive atlas' }),
        task('T3', { leak: true, evidence: 'names X' })
      ])
    )
    const r = await importFile(s.project, 'tasks', file)
    expect(r).toMatchObject({ imported: 1, skipped: 2 })
    expect(r.warnings.map((w) => [w.line, w.field])).toEqual([
      [2, 'suitable'],
      [3, 'leak']
    ])
    expect(payloadOf(s.project, 'rediscovery-task', 'T1').reference_b).toEqual({ finding: 'X, per reader B.', key_points: ['X'] })
  })

  it('names a task missing its finding', async () => {
    const { finding: _f, ...noFinding } = task('T9')
    const file = s.write('tasks.jsonl', jsonl([task('T8'), noFinding]))
    const r = await importFile(s.project, 'tasks', file)
    expect(r.errors).toEqual([{ file, line: 2, field: 'finding', message: expect.any(String) }])
    expect(s.count()).toBe(0)
  })

  it('imports hypothesis sets whose task is in the project, numbering hypotheses without ids', async () => {
    await importFile(s.project, 'tasks', s.write('tasks.jsonl', jsonl([task('T1')])))
    const file = s.write(
      'sets.jsonl',
      jsonl([
        {
          set_id: 'S1',
          task_id: 'T1',
          generator: 'model-a',
          company: 'acme',
          scheme: 'single',
          hypotheses: [{ statement: 'A', mechanism: 'm', prediction: 'p', domain_category: 'c' }, 'B as a bare string']
        }
      ])
    )
    const r = await importFile(s.project, 'hypotheses', file)
    expect(r.errors).toEqual([])
    expect(payloadOf(s.project, 'hypothesis-set', 'S1').hypotheses).toEqual([
      { id: 'H1', statement: 'A', mechanism: 'm', prediction: 'p', domain_category: 'c' },
      { id: 'H2', statement: 'B as a bare string', mechanism: '', prediction: '' }
    ])
  })

  it('refuses a set whose task is unknown, an unknown scheme and repeated hypothesis ids', async () => {
    const file = s.write(
      'sets.jsonl',
      jsonl([
        { set_id: 'S1', task_id: 'nope', hypotheses: [{ statement: 'A' }] },
        { set_id: 'S2', task_id: 'nope', scheme: 'guess', hypotheses: [{ id: 'h', statement: 'A' }, { id: 'h', statement: 'B' }] }
      ])
    )
    const r = await importFile(s.project, 'hypotheses', file)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [1, 'task_id'],
      [2, 'hypotheses.1.id']
    ])
    const scheme = await importFile(s.project, 'hypotheses', s.write('s2.jsonl', jsonl([{ set_id: 'S3', task_id: 'x', scheme: 'guess', hypotheses: ['A'] }])))
    expect(scheme.errors.map((e) => e.field)).toContain('scheme')
  })

  it('takes a set\'s task from the same manifest', async () => {
    const manifest = { tasks: [task('T5')], sets: [{ set_id: 'S5', task_id: 'T5', hypotheses: ['A'] }, { set_id: 'S6', task_id: 'T6', hypotheses: ['B'] }] }
    const file = s.write('manifest.json', JSON.stringify(manifest, null, 2))
    const r = await importFile(s.project, 'hypotheses', file)
    expect(r.errors.map((e) => [e.field, e.message])).toEqual([['task_id', 'task "T6" is not in the project; import the tasks first']])
    manifest.sets.pop()
    const ok = await importFile(s.project, 'hypotheses', s.write('manifest2.json', JSON.stringify(manifest)))
    expect(ok.errors).toEqual([])
    expect(ok.summary).toEqual({ sets: 1, tasks: 1 })
    expect(s.count(`SELECT count(*) AS n FROM items WHERE kind IN ('rediscovery-task', 'hypothesis-set')`)).toBe(2)
  })

  it('imports research questions, taking task_id as the id when there is no question_id', async () => {
    const file = s.write(
      'q.jsonl',
      jsonl([
        { question_id: 'Q1', question: 'Why?', background: 'b', reference_answer: 'r' },
        { task_id: 'T7', question: 'How?' },
        { question: 'no id' }
      ])
    )
    const r = await importFile(s.project, 'questions', file)
    expect(r.errors).toEqual([{ file, line: 3, field: 'question_id', message: 'missing question_id' }])
    const ok = await importFile(s.project, 'questions', s.write('q2.jsonl', jsonl([{ task_id: 'T7', question: 'How?' }])))
    expect(ok.imported).toBe(1)
    expect(payloadOf(s.project, 'research-question', 'T7')).toMatchObject({ question_id: 'T7', $extra: { task_id: 'T7' } })
  })
})
