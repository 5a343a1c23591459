import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { jsonl, scratch, type Scratch } from './helpers'

// Final labels in a labels file: adjudications are stored (ids kept, re-imports idempotent), human majorities are
// recomputed from the answers the project will hold and only checked.

const side = (origin: string) => ({ markdown: `${origin} text`, origin })
const ADJ_ID = '7d1c1f0e-0000-4000-8000-000000000001'

const human = (item: string, source: string, verdict: string, annotation_id?: string) => ({
  item,
  instrument: 'pairwise-preference',
  source,
  source_kind: 'human',
  judgement: { verdict },
  ...(annotation_id ? { annotation_id } : {})
})

const adjudicated = (over: Record<string, unknown> = {}) => ({
  item: 'p1',
  instrument: 'pairwise-preference',
  source: 'adjudication',
  source_kind: 'final',
  final_from: 'adjudication',
  judgement: { verdict: 'b_better' },
  adjudication_id: ADJ_ID,
  curator: 'Eve',
  reason: 'B has the sounder design',
  based_on: ['ans-ada-p1', 'ans-bo-p1'],
  created_at: '2025-04-01T09:00:00.000Z',
  ...over
})

const majority = (item: string, over: Record<string, unknown> = {}) => ({
  item,
  instrument: 'pairwise-preference',
  source: 'majority',
  source_kind: 'final',
  final_from: 'majority',
  majority: 'decided',
  judgement: { verdict: 'a_better' },
  n_answers: 2,
  n_agreeing: 2,
  ...over
})

describe('final labels in the labels importer', () => {
  let s: Scratch
  const adjudications = () => s.project.db.prepare(`SELECT * FROM adjudications ORDER BY rowid`).all() as Array<Record<string, any>>

  beforeEach(async () => {
    s = await scratch()
    await importFile(s.project, 'pairs', s.write('pairs.jsonl', jsonl(['p1', 'p2', 'p3'].map((pair_id) => ({ pair_id, a: side('human'), b: side('ai') })))))
    await importFile(s.project, 'tasks', s.write('t.jsonl', jsonl([{ task_id: 'T1', background: 'b', question: 'q', finding: 'f' }])))
    await importFile(
      s.project,
      'hypotheses',
      s.write('h.jsonl', jsonl([{ set_id: 'S1', task_id: 'T1', hypotheses: [{ id: 'H1', statement: 'x' }, { id: 'H2', statement: 'y' }] }]))
    )
  })
  afterEach(() => s.dispose())

  it('stores an adjudication with its id, curator, reason, basis and time, resting on answers that keep their ids', async () => {
    const file = s.write('labels.jsonl', jsonl([human('p1', 'Ada', 'a_better', 'ans-ada-p1'), human('p1', 'Bo', 'b_much_better', 'ans-bo-p1'), adjudicated()]))
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    expect(r).toMatchObject({ labels: 2, summary: { adjudications: 1, adjudicationsUnchanged: 0 } })
    const ids = (s.project.db.prepare(`SELECT id FROM annotations ORDER BY rowid`).all() as { id: string }[]).map((x) => x.id)
    expect(ids).toEqual(['ans-ada-p1', 'ans-bo-p1'])
    const [row] = adjudications()
    expect(row).toMatchObject({ id: ADJ_ID, instrument_id: 'pairwise-preference', reason: 'B has the sounder design', curator: 'Eve', supersedes: null, created_at: '2025-04-01T09:00:00.000Z' })
    expect(JSON.parse(row!.judgement)).toEqual({ verdict: 'b_better' })
    expect(JSON.parse(row!.based_on)).toEqual(['ans-ada-p1', 'ans-bo-p1'])

    // The same file again: the answers and the adjudication are known, nothing is added.
    const again = await importFile(s.project, 'labels', file)
    expect(again.errors).toEqual([])
    expect(again).toMatchObject({ labels: 0, summary: { unchanged: 2, adjudications: 0, adjudicationsUnchanged: 1 } })
    expect(s.count('SELECT count(*) AS n FROM annotations')).toBe(2)
    expect(adjudications()).toHaveLength(1)

    // A later adjudication of the same item supersedes the current one: the chain is append-only.
    const later = await importFile(s.project, 'labels', s.write('later.jsonl', jsonl([adjudicated({ adjudication_id: undefined, judgement: { verdict: 'a_better' }, reason: 'Second reading' })])))
    expect(later.errors).toEqual([])
    const chain = adjudications()
    expect(chain).toHaveLength(2)
    expect(chain[1]).toMatchObject({ supersedes: ADJ_ID, reason: 'Second reading' })
    expect(chain[1]!.id).not.toBe(ADJ_ID)
  })

  it('refuses adjudications without curator or reason, with an unknown final_from, or reusing an id for another judgement', async () => {
    await importFile(s.project, 'labels', s.write('first.jsonl', jsonl([adjudicated({ based_on: [] })])))
    expect(adjudications()).toHaveLength(1)
    const file = s.write(
      'bad.jsonl',
      jsonl([
        adjudicated({ adjudication_id: 'x-1', curator: '' }),
        adjudicated({ adjudication_id: 'x-2', reason: undefined }),
        adjudicated({ adjudication_id: 'x-3', final_from: 'vote' }),
        adjudicated({ judgement: { verdict: 'a_much_better' } }),
        adjudicated({ adjudication_id: 'x-5', judgement: { verdict: 'tie' } })
      ])
    )
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [1, 'curator'],
      [2, 'reason'],
      [3, 'final_from'],
      [4, 'adjudication_id'],
      [5, 'judgement.verdict']
    ])
    expect(adjudications()).toHaveLength(1)
  })

  it('warns when an adjudication rests on answers the project will not hold, or not on every current answer', async () => {
    await importFile(s.project, 'labels', s.write('answers.jsonl', jsonl([human('p1', 'Ada', 'a_better', 'ans-ada-p1'), human('p1', 'Cy', 'b_better', 'ans-cy-p1')])))
    const file = s.write('adj.jsonl', jsonl([adjudicated({ based_on: ['ans-ada-p1', 'ans-gone'] })]))
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors).toEqual([])
    expect(r.warnings.map((w) => [w.line, w.field, w.message])).toEqual([
      [1, 'based_on', expect.stringContaining('ans-gone')],
      [1, 'based_on', expect.stringContaining('stale')]
    ])
    expect(adjudications()).toHaveLength(1)
  })

  it('checks a majority against the answers the project will hold, warning on the line where it differs, storing nothing', async () => {
    // Ada's answer is in the project already; Bo's comes with the file.
    await importFile(s.project, 'labels', s.write('ada.jsonl', jsonl([human('p1', 'Ada', 'a_better'), human('p2', 'Ada', 'a_better'), human('p3', 'Ada', 'a_better')])))
    const file = s.write(
      'labels.jsonl',
      jsonl([
        human('p1', 'Bo', 'a_better'),
        majority('p1'),
        human('p2', 'Bo', 'b_better'),
        majority('p2'),
        majority('p3', { majority: 'tie', judgement: null, n_answers: 1, n_agreeing: null })
      ])
    )
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors).toEqual([])
    expect(r.summary).toMatchObject({ labels: 2, majoritiesChecked: 3, majoritiesDiffering: 2 })
    expect(r.warnings).toEqual([
      {
        file,
        line: 4,
        message:
          'the human majority of p2 (pairwise-preference) recomputed from the answers differs from this line: majority "decided" in the file, "tie" recomputed; ' +
          'judgement {"verdict":"a_better"} in the file, null recomputed; n_agreeing 2 in the file, null recomputed. The project keeps its own majority.'
      },
      {
        file,
        line: 5,
        message:
          'the human majority of p3 (pairwise-preference) recomputed from the answers differs from this line: majority "tie" in the file, "decided" recomputed; ' +
          'judgement null in the file, {"verdict":"a_better"} recomputed; n_agreeing null in the file, 1 recomputed. The project keeps its own majority.'
      }
    ])
    expect(adjudications()).toHaveLength(0)
  })

  it('reads final labels from CSV: a unit instrument’s adjudication over unit rows, the curator’s reason apart from the answers’ reason', async () => {
    const basis = JSON.stringify(['m-ada', 'm-bo']).replace(/"/g, '""')
    const values = JSON.stringify({ 'S1:H1': { match: 4, matched: true, compatible: true, plausibility: 3 }, 'S1:H2': { match: null, matched: false, compatible: false, plausibility: 2 } })
    const csv = [
      'item,unit,instrument,source,source_kind,annotation_id,match,compatible,plausibility,reason,final_from,majority,majority_values,n_answers,n_agreeing,based_on,adjudication_id,curator,adjudication_reason',
      'S1,H1,hypothesis-match,Ada,human,m-ada,4,true,3,fits,,,,,,,,,',
      'S1,H2,hypothesis-match,Ada,human,m-ada,1,false,2,no,,,,,,,,,',
      'S1,H1,hypothesis-match,Bo,human,m-bo,4,true,3,same,,,,,,,,,',
      'S1,H2,hypothesis-match,Bo,human,m-bo,2,false,2,weak,,,,,,,,,',
      `S1,,hypothesis-match,majority,final,,,,,,majority,tie,"${values.replace(/"/g, '""')}",2,2,,,,`,
      `S1,H1,hypothesis-match,adjudication,final,,4,true,3,agreed,adjudication,,,2,,"${basis}",adj-s1,Eve,"H2 is a partial match, not none"`,
      `S1,H2,hypothesis-match,adjudication,final,,2,false,2,partial,adjudication,,,2,,"${basis}",adj-s1,Eve,"H2 is a partial match, not none"`
    ].join('\n')
    const r = await importFile(s.project, 'labels', s.write('match.csv', csv))
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    expect(r.summary).toMatchObject({ labels: 2, adjudications: 1, majoritiesChecked: 1, majoritiesDiffering: 0 })
    const [row] = adjudications()
    expect(row).toMatchObject({ id: 'adj-s1', curator: 'Eve', reason: 'H2 is a partial match, not none' })
    expect(JSON.parse(row!.based_on)).toEqual(['m-ada', 'm-bo'])
    expect(JSON.parse(row!.judgement)).toEqual({
      scores: [
        { id: 'H1', match: 4, compatible: true, plausibility: 3, reason: 'agreed' },
        { id: 'H2', match: 2, compatible: false, plausibility: 2, reason: 'partial' }
      ]
    })
  })

  it('keeps an answer’s id unless the project holds that id for another answer', async () => {
    await importFile(s.project, 'labels', s.write('one.jsonl', jsonl([human('p1', 'Ada', 'a_better', 'ans-1')])))
    const r = await importFile(s.project, 'labels', s.write('two.jsonl', jsonl([human('p1', 'Ada', 'b_better', 'ans-1')])))
    expect(r.errors).toEqual([])
    expect(r.warnings.map((w) => [w.line, w.field])).toEqual([[1, 'annotation_id']])
    const rows = s.project.db.prepare(`SELECT id, supersedes, judgement FROM annotations ORDER BY rowid`).all() as Array<{ id: string; supersedes: string | null; judgement: string }>
    expect(rows).toHaveLength(2)
    expect(rows[1]!.id).not.toBe('ans-1')
    expect(rows[1]!.supersedes).toBe('ans-1')
  })
})
