import { describe, expect, it } from 'vitest'
import {
  parseCorrectnessVerdict,
  parseLetterAnswer,
  parsePointsVerdict,
  parseVerdictLine
} from '../../../src/shared/parse'

describe('VERDICT lines', () => {
  it('reads CORRECT and INCORRECT from the last line', () => {
    expect(parseCorrectnessVerdict('Step 1 ... matches.\nVERDICT: CORRECT')).toEqual({ ok: true, value: 'CORRECT' })
    expect(parseCorrectnessVerdict('6.69 is not 6.8.\n\nVERDICT: INCORRECT\n')).toEqual({ ok: true, value: 'INCORRECT' })
  })

  it('takes the last VERDICT line when several appear', () => {
    const text = 'If wrong I would write "VERDICT: INCORRECT".\nVERDICT: INCORRECT\nOn reflection:\nVERDICT: CORRECT'
    expect(parseCorrectnessVerdict(text)).toEqual({ ok: true, value: 'CORRECT' })
  })

  it('tolerates Markdown emphasis, case and a final period', () => {
    expect(parseCorrectnessVerdict('**VERDICT: CORRECT**')).toEqual({ ok: true, value: 'CORRECT' })
    expect(parseCorrectnessVerdict('Verdict: incorrect.')).toEqual({ ok: true, value: 'INCORRECT' })
    expect(parsePointsVerdict('`VERDICT: 8`')).toEqual({ ok: true, value: 8 })
  })

  it('reads points, decimals included', () => {
    expect(parsePointsVerdict('Item 1: 1 point\n...\nVERDICT: 2.5')).toEqual({ ok: true, value: 2.5 })
    expect(parsePointsVerdict('VERDICT: 8')).toEqual({ ok: true, value: 8 })
    expect(parsePointsVerdict('VERDICT: 0')).toEqual({ ok: true, value: 0 })
    expect(parsePointsVerdict('VERDICT: .5')).toEqual({ ok: true, value: 0.5 })
  })

  it('refuses what is not a verdict', () => {
    expect(parsePointsVerdict('VERDICT: <total_points>')).toEqual({
      ok: false,
      error: 'the VERDICT is not a number of points: "<total_points>"'
    })
    expect(parsePointsVerdict('VERDICT: 8/10').ok).toBe(false)
    expect(parsePointsVerdict('VERDICT: CORRECT').ok).toBe(false)
    expect(parseCorrectnessVerdict('VERDICT: PARTIALLY CORRECT').ok).toBe(false)
    expect(parseCorrectnessVerdict('VERDICT: 7').ok).toBe(false)
    expect(parseVerdictLine('VERDICT:')).toEqual({ ok: false, error: 'the VERDICT line has no value' })
    expect(parseVerdictLine('The answer is correct.')).toEqual({ ok: false, error: 'no VERDICT line in the answer' })
    // A cut-off answer never reached its verdict.
    expect(parsePointsVerdict('Item 1 is met (1 point). Item 2 is').ok).toBe(false)
  })

  it('needs VERDICT at the start of a line', () => {
    expect(parsePointsVerdict('So the final VERDICT: 7').ok).toBe(false)
  })
})

describe('single-letter answers', () => {
  it('reads the letter alone or in common wrappings', () => {
    for (const text of ['A', ' B\n', '**C**', '(D)', 'B.', 'C)', '[A]', 'Answer: B', 'The answer is D', 'Final answer: (C)']) {
      expect(parseLetterAnswer(text).ok, text).toBe(true)
    }
    expect(parseLetterAnswer('**C**')).toEqual({ ok: true, value: 'C' })
    expect(parseLetterAnswer('The answer is D')).toEqual({ ok: true, value: 'D' })
  })

  it('reads the letter followed by the option text', () => {
    expect(parseLetterAnswer('B. Different ideas but addressing similar problems.')).toEqual({ ok: true, value: 'B' })
    expect(parseLetterAnswer('C - Similar ideas')).toEqual({ ok: true, value: 'C' })
  })

  it('does not read the article "a" or prose as an answer', () => {
    expect(parseLetterAnswer('a').ok).toBe(false)
    expect(parseLetterAnswer('A lot of overlap exists between them').ok).toBe(false)
    expect(parseLetterAnswer('I think they are similar').ok).toBe(false)
  })

  it('refuses letters outside A-D and answers naming several letters', () => {
    expect(parseLetterAnswer('E').ok).toBe(false)
    expect(parseLetterAnswer('B\nor maybe\nC')).toEqual({ ok: false, error: 'the answer names several letters: B, C' })
    expect(parseLetterAnswer('')).toEqual({ ok: false, error: 'empty answer' })
  })

  it('accepts another letter set', () => {
    expect(parseLetterAnswer('E', ['E', 'F'])).toEqual({ ok: true, value: 'E' })
  })
})
