import { describe, expect, it } from 'vitest'
import { interpretAnswer } from '../../../src/main/runner'
import { getInstrument } from '../../../src/shared/instruments'

const set = {
  set_id: 's1',
  task_id: 't1',
  hypotheses: ['h1', 'h2'].map((id) => ({ id, statement: id, mechanism: '', prediction: '' })),
  task: { background: 'The background says mTOR is up.', question: 'Why?', finding: 'F', key_points: [] }
}
const score = (id: string, match: number) => ({ id, match, compatible: true, plausibility: 3, reason: 'r' })

describe('reading answers', () => {
  it('maps a pairwise verdict given on the swapped display back to canonical order, flaws too', () => {
    const text = 'My analysis first.\n```json\n{"analysis":"a","verdict":"A_much_better","fatal_flaws":[{"proposal":"B","description":"wrong formula"}]}\n```'
    const r = interpretAnswer(getInstrument('pairwise-preference'), 'json', text, { swapped: true }, {})
    expect(r).toEqual({ status: 'ok', error: null, judgement: { analysis: 'a', verdict: 'b_much_better', fatal_flaws: [{ proposal: 'a', description: 'wrong formula' }] } })
    expect(interpretAnswer(getInstrument('pairwise-preference'), 'json', text, { swapped: false }, {}).judgement).toMatchObject({ verdict: 'a_much_better' })
  })

  it('treats a verdict outside the forced choice as unparseable (no ties)', () => {
    const r = interpretAnswer(getInstrument('pairwise-preference'), 'json', '{"verdict":"tie"}', { swapped: false }, {})
    expect(r.status).toBe('unparseable')
    expect(r.error).toMatch(/^not a pairwise-preference answer: verdict: /)
  })

  it('maps P-labels to hypothesis ids through the recorded order', () => {
    const text = `Sure: ${JSON.stringify({ scores: [score('P1', 4), score('P2', 1)] })}`
    const r = interpretAnswer(getInstrument('hypothesis-match'), 'json', text, { order: ['h2', 'h1'] }, set)
    expect(r.status).toBe('ok')
    expect(r.judgement).toEqual({ scores: [score('h2', 4), score('h1', 1)] })
  })

  it('refuses an answer that leaves a hypothesis out or names one the set does not have', () => {
    const missing = interpretAnswer(getInstrument('hypothesis-match'), 'json', JSON.stringify({ scores: [score('P1', 4)] }), { order: ['h2', 'h1'] }, set)
    expect(missing).toMatchObject({ status: 'unparseable', judgement: null })
    expect(missing.error).toContain('Hypothesis "h1" has no answer.')
    const extra = interpretAnswer(getInstrument('hypothesis-match'), 'json', JSON.stringify({ scores: [score('P1', 4), score('P2', 1), score('P3', 0)] }), { order: ['h2', 'h1'] }, set)
    expect(extra.status).toBe('unparseable')
  })

  it('keeps an answer that breaks a softer check, with the check noted', () => {
    const forecast = (id: string) => ({
      id,
      p_experimental_support: 0.4,
      recommend_for_testing: true,
      support_from_background: ['mTOR is down'],
      assumptions: [],
      contradictions: [],
      reason: 'r',
      test: { intervention: 'i', measurement: 'm', controls: 'c', supports_if: 's', refutes_if: 'r' }
    })
    const r = interpretAnswer(getInstrument('forecast-detailed'), 'json', JSON.stringify({ protocol: 'experimental-support-v1', forecasts: [forecast('H1'), forecast('H2')] }), { order: ['h1', 'h2'] }, set)
    expect(r.status).toBe('ok')
    expect(r.error).toBe('check: forecasts.0.support_from_background.0: Support must be a literal quote of the background.; forecasts.1.support_from_background.0: Support must be a literal quote of the background.')
  })

  it('reads VERDICT lines, letters and claims asked one by one', () => {
    expect(interpretAnswer(getInstrument('fs-research-grade'), 'verdict-line', 'Item 1: 3 points.\n**VERDICT: 7.5**', {}, {}).judgement).toEqual({ total: 7.5 })
    expect(interpretAnswer(getInstrument('fs-olympiad-grade'), 'verdict-line', 'Work.\nVERDICT: INCORRECT', {}, {}).judgement).toEqual({ correct: false })
    expect(interpretAnswer(getInstrument('fs-research-grade'), 'verdict-line', 'VERDICT: 12', {}, {}).status).toBe('unparseable')
    expect(interpretAnswer(getInstrument('idea-similarity'), 'letter', 'B', {}, {}).judgement).toEqual({ letter: 'B' })
    const claim = interpretAnswer(getInstrument('forecast-short'), 'json', '{"forecasts":[{"id":"H123456789012","confirmed":true}]}', { order: ['h2'], claimId: 'H123456789012' }, set)
    expect(claim).toEqual({ status: 'ok', error: null, judgement: { forecasts: [{ id: 'h2', confirmed: true }] } })
    const wrongId = interpretAnswer(getInstrument('forecast-short'), 'json', '{"forecasts":[{"id":"H1","confirmed":true},{"id":"H2","confirmed":false}]}', { order: ['h2'], claimId: 'H123456789012' }, set)
    expect(wrongId.status).toBe('unparseable')
  })

  it('reads the review JSON block after the analysis', () => {
    const r = interpretAnswer(getInstrument('idea-review'), 'json-block', 'The idea is clear.\n\n{"originality": 6, "feasibility": 7, "clarity": 9}', {}, {})
    expect(r.judgement).toEqual({ originality: 6, feasibility: 7, clarity: 9 })
  })
})
