import { describe, expect, it } from 'vitest'
import {
  PREVIOUS_STAGES_HEADING,
  citationPairPasses,
  fillSelection,
  formatBulletList,
  formatHypothesisText,
  formatLabelledBlocks,
  formatNumberedList,
  formatPreviousStages,
  isSimilarityLetter,
  joinSemicolons,
  removeFirstH1,
  similarityScore
} from '../../../src/shared/protocol'
import { builtIn } from '../templates/support/load-templates'
import { locate } from '../templates/support/seeds'
import { pinnedDigests, sha256, sourcesPresent, withSourcesTitle } from '../templates/support/source-digests'

function token(id: string, name: string): string {
  const p = builtIn(id).entry.placeholders.find((x) => x.name === name)
  if (!p) throw new Error(`${id} has no placeholder ${name}`)
  return p.token
}

describe('hypothesis text', () => {
  it('is "[statement] Mechanism: [mechanism] Prediction: [prediction]", without domain_category', () => {
    const h = { statement: 'S.', mechanism: 'M.', prediction: 'P.', domain_category: 'proteostasis' }
    expect(formatHypothesisText(h)).toBe('S. Mechanism: M. Prediction: P.')
  })

  const form = `"${formatHypothesisText({ statement: '[statement]', mechanism: '[mechanism]', prediction: '[prediction]' })}"`

  it('follows the form the source states, by its pinned digest', () => {
    expect(sha256(form)).toBe(pinnedDigests()['hypothesis text form'])
  })

  it.skipIf(!sourcesPresent())(withSourcesTitle('follows the form the source document states'), () => {
    expect(locate({ seed: '001', after: ['Generating hypotheses§'], startAt: '"[statement]', to: ';' })).toBe(form)
  })
})

describe('selection fill rule', () => {
  const candidates = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7']

  it('keeps five valid choices as given', () => {
    const r = fillSelection(['C7', 'C3', 'C1', 'C6', 'C2'], candidates, 5)
    expect(r.selected).toEqual(['C7', 'C3', 'C1', 'C6', 'C2'])
    expect(r.filled).toEqual([])
  })

  it('fills fewer than five with candidates in proposal order, without duplicates', () => {
    const r = fillSelection(['C4', 'C2'], candidates, 5)
    expect(r.selected).toEqual(['C4', 'C2', 'C1', 'C3', 'C5'])
    expect(r.fromAnswer).toEqual(['C4', 'C2'])
    expect(r.filled).toEqual(['C1', 'C3', 'C5'])
  })

  it('reports unknown and repeated ids and never counts them', () => {
    const r = fillSelection(['C9', 'C2', 'C2', 'H1', ' C3 '], candidates, 5)
    expect(r.selected).toEqual(['C2', 'C3', 'C1', 'C4', 'C5'])
    expect(r.unknown).toEqual(['C9', 'H1'])
    expect(r.duplicates).toEqual(['C2'])
  })

  it('leaves out choices beyond the size, and fills as far as the candidates go', () => {
    expect(fillSelection(['C1', 'C2', 'C3'], candidates, 2)).toMatchObject({ selected: ['C1', 'C2'], overflow: ['C3'] })
    expect(fillSelection([], ['C1', 'C2', 'C3'], 5).selected).toEqual(['C1', 'C2', 'C3'])
    expect(fillSelection(['C2'], ['C1', 'C2', 'C3'], 2).selected).toEqual(['C2', 'C1'])
  })
})

describe('IdeaEval citation pair filter', () => {
  it('passes 2 vs 6 (log gap ln(7/3) = 0.847) and fails 40 vs 44 (ln(45/41) = 0.093)', () => {
    expect(citationPairPasses(2, 6)).toBe(true)
    expect(citationPairPasses(6, 2)).toBe(true)
    expect(citationPairPasses(40, 44)).toBe(false)
    expect(Math.log1p(6) - Math.log1p(2)).toBeCloseTo(0.8472978603872037, 15)
  })

  it('needs both gaps', () => {
    expect(citationPairPasses(0, 3)).toBe(false) // log gap 1.39, absolute gap 3
    expect(citationPairPasses(0, 4)).toBe(true)
    expect(citationPairPasses(100, 160)).toBe(false) // absolute 60, log gap 0.47
    expect(citationPairPasses(100, 170)).toBe(true) // log gap 0.52
  })

  it('refuses counts that are not counts', () => {
    expect(() => citationPairPasses(-1, 5)).toThrow(RangeError)
    expect(() => citationPairPasses(Number.NaN, 5)).toThrow(RangeError)
  })
})

describe('removeFirstH1', () => {
  it('removes a leading title and the blank lines after it', () => {
    expect(removeFirstH1('# LAVa: Layer-wise KV Cache Eviction\n\n## Introduction\nText')).toBe('## Introduction\nText')
  })

  it('removes only the first H1, keeps H2 and later H1s', () => {
    expect(removeFirstH1('Intro line\n# Title\nBody\n# Second')).toBe('Intro line\nBody\n# Second')
    expect(removeFirstH1('## Not H1\n#Hashtag\n# Real\nx')).toBe('## Not H1\n#Hashtag\nx')
  })

  it('ignores headings inside fenced code and leaves text without an H1 unchanged', () => {
    const code = '```python\n# a comment\n```\n# Title\nBody'
    expect(removeFirstH1(code)).toBe('```python\n# a comment\n```\nBody')
    expect(removeFirstH1('No heading\nhere')).toBe('No heading\nhere')
    expect(removeFirstH1('')).toBe('')
  })
})

describe('LiveIdeaBench similarity scores', () => {
  it('scores A=10, B=7, C=4, D=1', () => {
    expect(['A', 'B', 'C', 'D'].map((l) => (isSimilarityLetter(l) ? similarityScore(l) : null))).toEqual([10, 7, 4, 1])
    expect(isSimilarityLetter('E')).toBe(false)
  })
})

describe('list formats reproduce the source examples', () => {
  it('labelled blocks', () => {
    expect(formatLabelledBlocks('P', ['[HYPOTHESIS P1]', '[HYPOTHESIS P2]', '[HYPOTHESIS P3]', '[HYPOTHESIS P4]', '[HYPOTHESIS P5]'])).toBe(
      token('match-judge', 'hypotheses')
    )
    expect(formatLabelledBlocks('H', [1, 2, 3, 4, 5].map((i) => `[FULL HYPOTHESIS ${i}]`))).toBe(
      token('forecast-detailed', 'hypotheses')
    )
    expect(formatLabelledBlocks('C', ['[CANDIDATE IDEA 1]', '[CANDIDATE IDEA 2]'])).toBe(
      token('idea-selection', 'candidates').split('\n\n[CN]')[0]
    )
  })

  it('bullets, numbered lists and semicolons', () => {
    expect(formatBulletList(['[KEY POINT 1]', '[KEY POINT 2]'])).toBe(token('match-judge', 'key_points_list'))
    expect(formatNumberedList(['[HYPOTHESIS 1]', '[HYPOTHESIS 2]'])).toBe(token('hypothesis-further', 'proposed_hypotheses'))
    expect(joinSemicolons(['a', 'b', 'c'])).toBe('a; b; c')
  })

  it('previous stages: the section of the stage structure, empty at stage 1', () => {
    const section = token('hypothesis-stage', 'previous_stages')
    expect(section.startsWith(`${PREVIOUS_STAGES_HEADING}\n\n`)).toBe(true)
    expect(formatPreviousStages([{ stage: 1, answer: '[ANSWER OF THAT STAGE]' }])).toBe(
      section.replace('[NUMBER]', '1')
    )
    expect(formatPreviousStages([])).toBe('')
    expect(
      formatPreviousStages([
        { stage: 1, answer: 'a' },
        { stage: 2, answer: 'b' }
      ])
    ).toBe('RESULTS OF YOUR PREVIOUS STAGES\n\n=== STAGE 1 ===\na\n\n=== STAGE 2 ===\nb\n\n')
  })
})
