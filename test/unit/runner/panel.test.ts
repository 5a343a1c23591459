import { describe, expect, it } from 'vitest'
import { matchPanel, type MatchScore } from '../../../src/main/runner'

// Four judges, one per company, as in the source: the generator's own company never votes.
const JUDGES = [
  { judge: 'gpt', judgeCompany: 'openai' },
  { judge: 'claude', judgeCompany: 'anthropic' },
  { judge: 'gemini', judgeCompany: 'google' },
  { judge: 'grok', judgeCompany: 'xai' }
]

function scores(generatorCompany: string, matches: Record<string, number | null | number[]>, hypothesisId = 'h1'): MatchScore[] {
  return JUDGES.flatMap(({ judge, judgeCompany }) => {
    const m = matches[judge]
    const list = Array.isArray(m) ? m : [m === undefined ? null : m]
    return list.map((match) => ({ setId: 's1', hypothesisId, generatorCompany, judge, judgeCompany, match }))
  })
}

describe('match panel: at least 2 of the 3 judges from other companies give match ≥ 3', () => {
  it('matches with two votes of three and ignores the generator’s own company', () => {
    const [r] = matchPanel(scores('openai', { gpt: 0, claude: 3, gemini: 4, grok: 2 }))
    expect(r).toMatchObject({ matched: true, votesFor: 2, reason: null, generatorCompany: 'openai' })
    expect(r!.panel.map((v) => v.judge)).toEqual(['claude', 'gemini', 'grok'])
  })

  it('does not match with one vote, even when the generator’s own judge gives 5', () => {
    expect(matchPanel(scores('anthropic', { gpt: 3, claude: 5, gemini: 2, grok: 2 }))[0]).toMatchObject({ matched: false, votesFor: 1 })
  })

  it('counts 3 as a match and 2 as none (the threshold is ≥ 3)', () => {
    expect(matchPanel(scores('xai', { gpt: 3, claude: 3, gemini: 2, grok: 0 }))[0]!.matched).toBe(true)
    expect(matchPanel(scores('xai', { gpt: 2, claude: 2, gemini: 5, grok: 5 }))[0]!.matched).toBe(false)
  })

  it('decides with a score missing only when the missing vote could not change the outcome', () => {
    expect(matchPanel(scores('openai', { gpt: 5, claude: 4, gemini: 3, grok: null }))[0]).toMatchObject({ matched: true, reason: '1 of the 3 panel scores missing; the others settle the outcome' })
    expect(matchPanel(scores('openai', { gpt: 5, claude: 1, gemini: 0, grok: null }))[0]).toMatchObject({ matched: false })
    expect(matchPanel(scores('openai', { gpt: 5, claude: 4, gemini: 0, grok: null }))[0]).toMatchObject({ matched: null, reason: '1 of the 3 panel scores missing' })
  })

  it('refuses to decide when the generator’s company is none of the judges’ (four would vote)', () => {
    const [r] = matchPanel(scores('deepseek', { gpt: 5, claude: 5, gemini: 5, grok: 5 }))
    expect(r).toMatchObject({ matched: null, votesFor: 4 })
    expect(r!.reason).toBe('the panel has 4 judges from other companies; the rule needs 3')
    // An unknown generator company excludes nobody, with the same result.
    expect(matchPanel(scores('unknown', { gpt: 5, claude: 5, gemini: 5, grok: 5 }))[0]!.matched).toBeNull()
  })

  it('gives a judge with several trials one vote, the median of its scores', () => {
    const [r] = matchPanel(scores('openai', { claude: [2, 3, 4], gemini: [1, 2, 2], grok: [3, 3, 0] }))
    expect(r!.panel.map((v) => v.match)).toEqual([3, 2, 3])
    expect(r).toMatchObject({ matched: true, votesFor: 2 })
  })

  it('keeps hypotheses apart', () => {
    const results = matchPanel([...scores('openai', { claude: 3, gemini: 3, grok: 3 }, 'h1'), ...scores('openai', { claude: 0, gemini: 0, grok: 0 }, 'h2')])
    expect(results.map((r) => [r.hypothesisId, r.matched])).toEqual([
      ['h1', true],
      ['h2', false]
    ])
  })
})
