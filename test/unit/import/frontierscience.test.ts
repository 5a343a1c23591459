import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { trackFromName } from '../../../src/main/import/formats/frontierscience'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

const rubric = (points: number[]) => points.map((p, i) => `Points: ${p}, Item: criterion ${i + 1}`).join('\n')

describe('frontierscience importer', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('detects the track from the rubric when the file name does not say, and keeps a response', async () => {
    const file = s.write(
      'gold.jsonl',
      jsonl([
        { problem: 'P1', answer: '6.7 K', subject: 'physics', task_group_id: 'g1', response: 'about 6.69 K', responder: 'model-x' },
        { problem: 'P2', answer: rubric([3, 3, 4]), subject: 'biology', task_group_id: 'g2' }
      ])
    )
    const r = await importFile(s.project, 'frontierscience', file)
    expect(r.errors).toEqual([])
    expect(payloadOf(s.project, 'fs-problem', 'fs-olympiad-g1')).toMatchObject({ track: 'olympiad', response: 'about 6.69 K', responder: 'model-x' })
    expect(payloadOf(s.project, 'fs-problem', 'fs-research-g2').rubric).toEqual([
      { points: 3, item: 'criterion 1' },
      { points: 3, item: 'criterion 2' },
      { points: 4, item: 'criterion 3' }
    ])
    expect(r.summary.tracks).toEqual({ olympiad: 1, research: 1 })
  })

  it('errs on a research rubric that cannot be parsed and warns on a total other than 10', async () => {
    const file = s.write(
      'research.jsonl',
      jsonl([
        { problem: 'P1', answer: 'Give full marks if correct.', subject: 'chemistry', task_group_id: 'g1' },
        { problem: 'P2', answer: rubric([3, 3]), subject: 'chemistry', task_group_id: 'g2' }
      ])
    )
    const r = await importFile(s.project, 'frontierscience', file)
    expect(r.errors).toEqual([{ file, line: 1, field: 'answer', message: expect.stringContaining('Points: <number>, Item: <text>') }])
    expect(r.warnings).toEqual([{ file, line: 2, field: 'answer', message: 'rubric totals 6 points, not 10' }])
    expect(s.count()).toBe(0)
  })

  it('gives a repeated task_group_id a stable key and a warning', async () => {
    const file = s.write(
      'olympiad.jsonl',
      jsonl([
        { problem: 'A', answer: '1', task_group_id: 'dup' },
        { problem: 'B', answer: '2', task_group_id: 'dup' },
        { problem: 'C', answer: '3', task_group_id: 'dup' },
        { problem: 'D', answer: '4' }
      ])
    )
    const r = await importFile(s.project, 'frontierscience', file)
    expect(r.warnings.map((w) => [w.line, w.field, w.message])).toEqual([
      [2, 'task_group_id', 'task_group_id "dup" repeats line 1; stored as fs-olympiad-dup#2'],
      [3, 'task_group_id', 'task_group_id "dup" repeats line 1; stored as fs-olympiad-dup#3']
    ])
    const ids = (s.project.db.prepare(`SELECT external_id FROM items ORDER BY id`).all() as { external_id: string }[]).map((x) => x.external_id)
    expect(ids.slice(0, 3)).toEqual(['fs-olympiad-dup', 'fs-olympiad-dup#2', 'fs-olympiad-dup#3'])
    expect(ids[3]).toMatch(/^fs-olympiad-p[0-9a-f]{12}$/)
  })

  it('reads a CSV with a category column and reports an unknown track by row', async () => {
    const rows = [
      'problem,answer,subject,task_group_id,category',
      `"A ""quoted"" problem",42,physics,c1,FrontierScience-Olympiad`,
      `R,"${rubric([5, 5])}",biology,c2,Research`,
      'X,1,physics,c3,trivia'
    ]
    const file = s.write('fs.csv', rows.join('\n'))
    const r = await importFile(s.project, 'frontierscience', file)
    expect(r.errors).toEqual([{ file, line: 4, field: 'category', message: 'unknown track "trivia"; expected olympiad or research' }])
    const ok = await importFile(s.project, 'frontierscience', s.write('fs2.csv', rows.slice(0, 3).join('\n')))
    expect(ok.imported).toBe(2)
    expect(payloadOf(s.project, 'fs-problem', 'fs-olympiad-c1').problem).toBe('A "quoted" problem')
    expect(payloadOf(s.project, 'fs-problem', 'fs-research-c2').rubric).toHaveLength(2)
  })

  it('reads the track from file names', () => {
    expect(trackFromName('frontierscience-olympiad.jsonl')).toBe('olympiad')
    expect(trackFromName('Research.csv')).toBe('research')
    expect(trackFromName('gold.jsonl')).toBeNull()
  })
})
