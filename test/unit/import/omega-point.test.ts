import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { jsonAnswer } from '../../../src/main/import/formats/omega-point'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

const h = (statement: string) => ({ statement, mechanism: `m ${statement}`, prediction: `p ${statement}`, domain_category: 'c' })
const TASK = { task_id: 'T1', background: 'bg', question: 'q?', finding: 'f', key_points: ['k'] }

function run(extra: Record<string, unknown> = {}) {
  return {
    task_id: 'T1',
    generator: 'model-a',
    company: 'acme',
    scheme: 'omega-point',
    lens: 'Reliability Engineering',
    phenomenon_role: false,
    stages: [
      { stage: 1, answer: 'pillars' },
      { stage: 2, answer: 'frontier map' },
      { stage: 3, answer: 'gap questions' },
      // Raw model text with the JSON inside, as a transcript keeps it.
      { stage: 4, answer: `Here you go:\n\`\`\`json\n${JSON.stringify({ hypotheses: [h('a'), h('b'), h('c')], notes: '' })}\n\`\`\`` },
      { stage: 5, answer: { hypotheses: [{ ...h('a2'), operation: 'refined', parent: '1' }] } }
    ],
    further: [{ answer: { hypotheses: [h('d'), h('e'), h('f')] } }],
    selected: ['C6', 'C2', 'C4'],
    ...extra
  }
}

describe('omega-point importer', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('numbers candidates in proposal order and fills a short selection from them', async () => {
    await importFile(s.project, 'tasks', s.write('tasks.jsonl', jsonl([TASK])))
    const r = await importFile(s.project, 'omega-point', s.write('run.json', JSON.stringify(run())))
    expect(r.errors).toEqual([])
    expect(r.warnings.map((w) => w.message)).toEqual(['3 selected; filled with C1, C3 in the order proposed'])
    const set = payloadOf(s.project, 'hypothesis-set', 'T1__model-a__omega-point')
    expect(set.hypotheses.map((x: { id: string; statement: string }) => `${x.id}:${x.statement}`)).toEqual(['C6:e', 'C2:b', 'C4:a2', 'C1:a', 'C3:c'])
    expect(set.candidates).toHaveLength(7)
    expect(set).toMatchObject({ $extra: { lens: 'Reliability Engineering', phenomenon_role: false }, scheme: 'omega-point', company: 'acme' })
    expect(set.hypotheses[2]).toMatchObject({ stage: 5, operation: 'refined', parent: '1' })
  })

  it('imports a session export: its tasks and one set per run', async () => {
    const session = {
      session: { name: 'pilot' },
      tasks: [TASK],
      runs: [run({ selected: { selected: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6'] } }), run({ generator: 'model-b', scheme: 'multi-stage', selected: ['C1', 'C9'] })]
    }
    const r = await importFile(s.project, 'omega-point', s.write('session.json', JSON.stringify(session, null, 1)))
    expect(r.errors).toEqual([])
    expect(r.summary).toEqual({ tasks: 1, sets: 2, setsFilledToFive: 1 })
    expect(r.warnings.map((w) => w.message)).toEqual([
      'more than 5 selected; left out: C6',
      'not candidates, ignored: C9',
      '1 selected; filled with C2, C3, C4, C5 in the order proposed'
    ])
    expect(payloadOf(s.project, 'rediscovery-task', 'T1').finding).toBe('f')
    expect(payloadOf(s.project, 'hypothesis-set', 'T1__model-b__multi-stage').hypotheses.map((x: { id: string }) => x.id)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5'])
  })

  it('refuses a run whose task is unknown or whose stage 4 has no hypotheses', async () => {
    const file = s.write(
      'runs.jsonl',
      jsonl([run({ task_id: 'nope' }), run({ stages: [{ stage: 4, answer: 'I will now think about it.' }], further: [] })])
    )
    const r = await importFile(s.project, 'omega-point', file)
    expect(r.errors).toEqual([
      { file, line: 1, field: 'task_id', message: 'task "nope" is not in the project; import the tasks first' },
      { file, line: 2, field: 'stages.0.answer', message: 'stage 4 answer has no hypotheses array' }
    ])
  })

  it('reads JSON out of model text', () => {
    expect(jsonAnswer('{"a": 1}')).toEqual({ a: 1 })
    expect(jsonAnswer('noise {"selected": ["C1"]} trailing')).toEqual({ selected: ['C1'] })
    expect(jsonAnswer('no json')).toBeNull()
  })
})
