import { describe, expect, it } from 'vitest'
import { getInstrument } from '../../../src/shared/instruments'
import { writtenTexts } from '../../../src/shared/instruments/written-texts'

describe('what a person wrote in a draft', () => {
  it('lists notes, quotes and code of every entry with their labels, and leaves choices and empty fields out', () => {
    const draft = {
      flaws: [
        { side: 'a', type: 'other', severity: 'major', evidence: 'we reuse the seed', note: '', check: { code: 'print(1)', output: '1', ran_at: 'x' } },
        { side: 'b', type: null, severity: null, evidence: '  ', note: 'look at table 2' }
      ],
      comment: 'overall fine'
    }
    expect(writtenTexts(getInstrument('flaw-audit'), draft)).toEqual([
      { label: 'Flaw 1 · Evidence (exact quote)', text: 'we reuse the seed' },
      { label: 'Flaw 1 · Check anyone can re-run (code, output, time run)', text: 'print(1)' },
      { label: 'Flaw 2 · Note', text: 'look at table 2' },
      { label: 'Comment', text: 'overall fine' }
    ])
  })

  it('gives nothing for a draft with only choices, or no draft at all', () => {
    expect(writtenTexts(getInstrument('pairwise-preference'), { verdict: 'a_better' }).filter((t) => t.text === 'a_better')).toEqual([])
    expect(writtenTexts(getInstrument('flaw-audit'), null)).toEqual([])
  })
})
