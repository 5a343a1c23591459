import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { md5 } from '../../../src/main/import/formats/liveideabench'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

const IDEA_1 = "Use the cell's own clock, and don't assume \"steady state\"."
const IDEA_2 = 'Map soil microbes with cheap sensors.'

describe('liveideabench importer', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('hashes ideas as LiveIdeaBench does (MD5 of UTF-8 text)', () => {
    expect(md5('hello')).toBe('5d41402abc4b2a76b9719d911017c592')
    expect(md5('é')).toBe(createHash('md5').update(Buffer.from('é', 'utf8')).digest('hex'))
  })

  it('reads a pandas results table: index column, Python-dict scores with and without clarity, N/A', async () => {
    const csv = [
      ',id,keywords,idea_model,critic_model,idea,parsed_scores',
      `0,11,ageing,model-a,critic-x,"${IDEA_1.replace(/"/g, '""')}","{'originality': 8, 'feasibility': 6, 'clarity': 7}"`,
      `1,12,soil,model-b,critic-y,${IDEA_2},"{'originality': 5, 'feasibility': 'N/A'}"`,
      `2,13,soil,model-b,critic-z,${IDEA_2},N/A`
    ].join('\n')
    const file = s.write('view.csv', csv)
    const r = await importFile(s.project, 'liveideabench', file)
    expect(r.errors).toEqual([])
    expect(r.summary).toEqual({ ideas: 3, unscored: 1, ideaPairs: 0 })
    const first = payloadOf(s.project, 'idea', `lib-${md5(IDEA_1)}@critic-x`)
    expect(first).toMatchObject({ idea: IDEA_1, keywords: 'ageing', idea_model: 'model-a', scores: { originality: 8, feasibility: 6, clarity: 7 }, $extra: { id: '11' } })
    expect(first).not.toHaveProperty('parsed_scores')
    expect(payloadOf(s.project, 'idea', `lib-${md5(IDEA_2)}@critic-y`).scores).toEqual({ originality: 5, feasibility: 'N/A' })
    expect(payloadOf(s.project, 'idea', `lib-${md5(IDEA_2)}@critic-z`).scores).toBeNull()
  })

  it('gathers separate score columns and names a malformed scores cell by row', async () => {
    const ok = await importFile(
      s.project,
      'liveideabench',
      s.write('cols.csv', `keywords,idea,idea_model,originality,feasibility\nk,${IDEA_2},m,7,"5"\n`)
    )
    expect(payloadOf(s.project, 'idea', `lib-${md5(IDEA_2)}`)).toMatchObject({ scores: { originality: 7, feasibility: 5 } })
    expect(payloadOf(s.project, 'idea', `lib-${md5(IDEA_2)}`)).not.toHaveProperty('originality')
    expect(ok.imported).toBe(1)
    const file = s.write('bad.csv', `idea,critic_model,parsed_scores\nA fine idea,c,"{'originality': 8"\n`)
    const r = await importFile(s.project, 'liveideabench', file)
    expect(r.errors).toEqual([{ file, line: 2, field: 'parsed_scores', message: expect.stringMatching(/^cannot read the scores .*unclosed dict/) }])
  })

  it('resolves similarity records by hash against the file and the project', async () => {
    await importFile(s.project, 'liveideabench', s.write('ideas.jsonl', jsonl([{ idea: IDEA_1, keywords: 'ageing', idea_model: 'm' }])))
    const file = s.write(
      'pairs.jsonl',
      jsonl([
        { idea: IDEA_2, keywords: 'soil', idea_model: 'm' },
        { hash_A: md5(IDEA_1), hash_B: md5(IDEA_2), score: 6.6667, method: 'llm', fluency_critic_model: 'critic-x' },
        { idea_A: 'inline one', idea_B: 'inline two', score: 10 },
        { hash_A: md5('never seen'), hash_B: md5(IDEA_2), score: 3.3333 }
      ])
    )
    const r = await importFile(s.project, 'liveideabench', file)
    expect(r.errors).toEqual([{ file, line: 4, field: 'hash_A', message: expect.stringContaining('no idea with MD5') }])
    const fixed = s.write('pairs2.jsonl', jsonl([{ idea: IDEA_2, keywords: 'soil', idea_model: 'm' }, { hash_A: md5(IDEA_1), hash_B: md5(IDEA_2), score: 6.6667 }]))
    expect((await importFile(s.project, 'liveideabench', fixed)).imported).toBe(2)
    const pair = payloadOf(s.project, 'idea-pair', `libp-${md5(IDEA_1)}-${md5(IDEA_2)}`)
    expect(pair).toMatchObject({ idea_a: IDEA_1, idea_b: IDEA_2, keywords: 'ageing', score: 6.6667 })
  })
})
