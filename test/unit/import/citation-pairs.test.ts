import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { payloadOf, scratch, type Scratch } from './helpers'

describe('citation-pairs importer', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('keeps within-cohort pairs that pass both gaps (2 vs 6 passes, 40 vs 44 fails) and labels by citations', async () => {
    s.write('papers/p6.md', '# Six\n\nBody.')
    const csv = [
      'paper_id,cohort,citations,markdown,path,topic,cutoff_date',
      'p2,c1,2,Two,,graphs,2024-01-01',
      'p6,c1,6,,papers/p6.md,graphs,2024-01-01',
      'p40,c2,40,Forty,,vision,',
      'p44,c2,44,Forty-four,,vision,',
      'q0,c2,0,Zero,,vision,'
    ].join('\n')
    const file = s.write('papers.csv', csv)
    const r = await importFile(s.project, 'citation-pairs', file)
    expect(r.errors).toEqual([])
    expect(r.summary).toMatchObject({ papers: 5, cohorts: 2, candidatePairs: 4, keptPairs: 3, labels: { a_better: 2, b_better: 1 } })
    const ids = (s.project.db.prepare(`SELECT external_id FROM items ORDER BY id`).all() as { external_id: string }[]).map((x) => x.external_id)
    expect(ids).toEqual(['c1__p2__p6', 'c2__p40__q0', 'c2__p44__q0'])
    expect(payloadOf(s.project, 'proposal-pair', 'c1__p2__p6')).toMatchObject({
      topic: 'graphs',
      cohort: 'c1',
      cutoff_date: '2024-01-01',
      label: 'b_better',
      label_source: 'citations',
      a: { paper_id: 'p2', citations: 2, markdown: 'Two' },
      b: { paper_id: 'p6', citations: 6, markdown: '# Six\n\nBody.' }
    })
  })

  it('names bad citation counts, missing text and repeated papers by row', async () => {
    const csv = ['paper_id,cohort,citations,markdown', 'a,c,two,x', 'b,c,3,', 'a,c,1,y'].join('\n')
    const file = s.write('papers.csv', csv)
    const r = await importFile(s.project, 'citation-pairs', file)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'citations'],
      [3, 'markdown'],
      [4, 'paper_id']
    ])
    expect(s.count()).toBe(0)
  })
})
