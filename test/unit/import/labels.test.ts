import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { coerceCell, judgementFromColumns } from '../../../src/main/import/formats/labels'
import { jsonl, scratch, type Scratch } from './helpers'

const side = (origin: string) => ({ markdown: `${origin} text`, origin })

interface AnnotationRow {
  instrument_id: string
  instrument_version: number
  annotator_id: number | null
  source_kind: string
  source_name: string
  judgement: string
  supersedes: string | null
  origin: string
  import_id: number | null
  created_at: string
}

describe('labels importer', () => {
  let s: Scratch
  const annotations = () => s.project.db.prepare(`SELECT * FROM annotations ORDER BY rowid`).all() as AnnotationRow[]

  beforeEach(async () => {
    s = await scratch()
    await importFile(
      s.project,
      'pairs',
      s.write(
        'pairs.jsonl',
        jsonl([
          { pair_id: 'p1', a: side('human'), b: side('ai') },
          { pair_id: 'p2', a: side('ai'), b: side('human') }
        ])
      )
    )
    await importFile(s.project, 'tasks', s.write('t.jsonl', jsonl([{ task_id: 'T1', background: 'b', question: 'q', finding: 'f' }])))
    await importFile(
      s.project,
      'hypotheses',
      s.write('h.jsonl', jsonl([{ set_id: 'S1', task_id: 'T1', hypotheses: [{ id: 'H1', statement: 'x' }, { id: 'H2', statement: 'y' }] }]))
    )
  })
  afterEach(() => s.dispose())

  it('stores human and model answers from JSONL, with annotators, provenance and revisions', async () => {
    const file = s.write(
      'labels.jsonl',
      jsonl([
        { item: 'p1', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'a_better' }, created_at: '2025-01-02T03:04:05.000Z' },
        { item: 'p1', instrument: 'pairwise-preference', source: 'judge-x', source_kind: 'model', judgement: { verdict: 'b_much_better' } },
        { item: 'p2', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'abstain', abstain_reason: 'outside my field' } },
        { item: 'p1', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'a_much_better' } }
      ])
    )
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors).toEqual([])
    expect(r).toMatchObject({ imported: 4, items: 0, labels: 4 })
    const rows = annotations()
    expect(rows.map((a) => [a.source_kind, a.source_name, JSON.parse(a.judgement).verdict, a.origin])).toEqual([
      ['human', 'Dr Ada', 'a_better', 'import'],
      ['model', 'judge-x', 'b_much_better', 'import'],
      ['human', 'Dr Ada', 'abstain', 'import'],
      ['human', 'Dr Ada', 'a_much_better', 'import']
    ])
    expect(rows[0]!.created_at).toBe('2025-01-02T03:04:05.000Z')
    expect(rows[1]!.annotator_id).toBeNull()
    expect(rows[0]!.annotator_id).not.toBeNull()
    // The later answer of the same source on the same item supersedes the earlier one.
    const ids = s.project.db.prepare(`SELECT id FROM annotations ORDER BY rowid`).all() as { id: string }[]
    expect(rows[3]!.supersedes).toBe(ids[0]!.id)
    expect(rows.every((a) => a.import_id === rows[0]!.import_id && a.import_id !== null)).toBe(true)
    expect(s.count(`SELECT count(*) AS n FROM annotators WHERE name = 'Dr Ada' AND pseudonym = 'A01'`)).toBe(1)
  })

  it('rejects answers that break the instrument schema, unknown items and instruments, naming line and field', async () => {
    const file = s.write(
      'labels.jsonl',
      jsonl([
        { item: 'p1', instrument: 'pairwise-preference', source: 'a', source_kind: 'human', judgement: { verdict: 'tie' } },
        { item: 'nope', instrument: 'pairwise-preference', source: 'a', source_kind: 'human', judgement: { verdict: 'a_better' } },
        { item: 'p1', instrument: 'vibes', source: 'a', source_kind: 'human', judgement: {} },
        { item: 'p1', instrument: 'pairwise-preference', source: 'a', source_kind: 'robot', judgement: { verdict: 'a_better' } },
        { item: 'p2', instrument: 'pairwise-preference', source: 'a', source_kind: 'human', judgement: { verdict: 'abstain' } },
        { item: 'p2', instrument: 'pairwise-preference', source: 'a', source_kind: 'human', instrument_version: 9, judgement: { verdict: 'a_better' } }
      ])
    )
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [1, 'judgement.verdict'],
      [2, 'item'],
      [3, 'instrument'],
      [4, 'source_kind'],
      [5, 'judgement.abstain_reason'],
      [6, 'instrument_version']
    ])
    expect(s.count('SELECT count(*) AS n FROM annotations')).toBe(0)
  })

  it('gathers CSV unit rows into one answer and coerces cells, keeping text where text is wanted', async () => {
    const csv = [
      'item,unit,instrument,source,source_kind,match,compatible,plausibility,reason',
      'S1,H1,hypothesis-match,judge-y,model,4,true,3,5',
      'S1,H2,hypothesis-match,judge-y,model,1,false,2,"different, but plausible"'
    ].join('\n')
    const r = await importFile(s.project, 'labels', s.write('match.csv', csv))
    expect(r.errors).toEqual([])
    expect(r.labels).toBe(1)
    expect(JSON.parse(annotations()[0]!.judgement)).toEqual({
      scores: [
        { id: 'H1', match: 4, compatible: true, plausibility: 3, reason: '5' },
        { id: 'H2', match: 1, compatible: false, plausibility: 2, reason: 'different, but plausible' }
      ]
    })
  })

  it('points a CSV unit error at its row and column, and warns when units are missing', async () => {
    const csv = [
      'item,unit,instrument,source,source_kind,match,compatible,plausibility,reason',
      'S1,H1,hypothesis-match,judge-y,model,4,true,3,ok',
      'S1,H2,hypothesis-match,judge-y,model,9,false,2,too high'
    ].join('\n')
    const file = s.write('match.csv', csv)
    const r = await importFile(s.project, 'labels', file)
    expect(r.errors).toEqual([{ file, line: 3, field: 'match', message: expect.stringContaining('5') }])
    const partial = await importFile(s.project, 'labels', s.write('partial.csv', csv.split('\n').slice(0, 2).join('\n')))
    expect(partial.errors).toEqual([])
    expect(partial.warnings).toEqual([expect.objectContaining({ line: 2, field: 'scores', message: 'Hypothesis "H2" has no answer.' })])
  })

  it('coerces CSV cells and nests dotted columns', () => {
    expect([coerceCell('3'), coerceCell('-0.5'), coerceCell('TRUE'), coerceCell('null'), coerceCell('["a"]'), coerceCell('text')]).toEqual([3, -0.5, true, null, ['a'], 'text'])
    expect(judgementFromColumns({ item: 'x', source: 's', 'test.intervention': 'knock-out', 'judgement.split': 'yes', empty: '' }).value).toEqual({
      test: { intervention: 'knock-out' },
      split: 'yes'
    })
  })
})
