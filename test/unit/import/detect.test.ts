import { describe, expect, it } from 'vitest'
import { detectFormat } from '../../../src/main/import'

describe('detectFormat', () => {
  const line = (o: object) => [JSON.stringify(o)]

  it('recognises each format by the fields of its first record', () => {
    expect(detectFormat('x.jsonl', line({ pair_id: 'p', a: {}, b: {}, label: 'a_better' }))).toBe('pairs')
    expect(detectFormat('x.jsonl', line({ task_id: 'T', background: 'b', question: 'q', finding: 'f' }))).toBe('tasks')
    expect(detectFormat('x.jsonl', line({ set_id: 'S', task_id: 'T', hypotheses: [] }))).toBe('hypotheses')
    expect(detectFormat('x.jsonl', line({ question_id: 'Q', question: 'q' }))).toBe('questions')
    expect(detectFormat('x.jsonl', line({ problem: 'p', answer: 'a', subject: 's', task_group_id: 'g' }))).toBe('frontierscience')
    expect(detectFormat('x.jsonl', line({ hash_A: 'h', hash_B: 'h', score: 10 }))).toBe('liveideabench')
    expect(detectFormat('x.jsonl', line({ task_id: 'T', stages: [], selected: [] }))).toBe('omega-point')
    expect(detectFormat('x.jsonl', line({ item: 'p', instrument: 'i', source: 's', source_kind: 'human', judgement: {} }))).toBe('labels')
    expect(detectFormat('x.csv', ['paper_id,cohort,citations,markdown'])).toBe('citation-pairs')
    expect(detectFormat('view.csv', [',id,timestamp,keywords,idea_model,critic_model,idea,raw_critique,parsed_scores'])).toBe('liveideabench')
    expect(detectFormat('labels.csv', ['item,unit,instrument,source,source_kind,verdict'])).toBe('labels')
  })

  it('reads keys from a pretty-printed JSON file and falls back to the file name', () => {
    expect(detectFormat('m.json', ['{', '  "pairs": [', '    {', '      "pair_id": "p1",', '      "a": {'])).toBe('pairs')
    expect(detectFormat('frontierscience-gold.csv', ['question,solution'])).toBe('frontierscience')
    expect(detectFormat('notes.txt', ['hello world'])).toBeNull()
  })
})
