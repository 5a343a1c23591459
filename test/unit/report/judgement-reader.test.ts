import { describe, expect, it } from 'vitest'
import { JudgementReader } from '../../../src/main/report/stored-calls'
import { getInstrument, type AnyInstrument } from '../../../src/shared/instruments'

/** The pairwise instrument with its judgement schema's validations counted. */
function counted(): { instrument: AnyInstrument; validations: () => number } {
  const real = getInstrument('pairwise-preference')
  let count = 0
  const judgement = {
    safeParse: (value: unknown) => {
      count++
      return real.judgement.safeParse(value)
    }
  }
  return { instrument: { ...real, judgement } as unknown as AnyInstrument, validations: () => count }
}

describe('reading stored judgements for a report', () => {
  it('validates a repeated short judgement once, with the result of validating it each time', () => {
    const { instrument, validations } = counted()
    const reader = new JudgementReader(instrument)
    const texts = ['{"verdict":"a_better"}', '{"verdict":"nonsense"}', '{"verdict":"abstain"}', '{"verdict":"B_MUCH_BETTER"}']
    const schema = getInstrument('pairwise-preference').judgement
    const expected = texts.map((text) => {
      const parsed = schema.safeParse(JSON.parse(text))
      return parsed.success ? { success: true, data: parsed.data } : { success: false }
    })
    for (let round = 0; round < 50; round++) texts.forEach((text, i) => expect(reader.read(text)).toEqual(expected[i]))
    expect(validations()).toBe(texts.length)
  })

  it('validates long judgements (a model analysis) every time rather than keeping them', () => {
    const { instrument, validations } = counted()
    const reader = new JudgementReader(instrument)
    const text = JSON.stringify({ verdict: 'a_better', analysis: 'x'.repeat(1000) })
    for (let round = 0; round < 3; round++) expect(reader.read(text).success).toBe(true)
    expect(validations()).toBe(3)
  })
})
