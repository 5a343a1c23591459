import { describe, expect, it } from 'vitest'
import { looksLikeRubric, parseRubric } from '../../../src/main/import/rubric'

describe('parseRubric', () => {
  it('splits Points/Item blocks and keeps multi-line items whole', () => {
    const text = [
      'Points: 1.5, Item: Describes the procedure. Assign full points if:',
      '',
      '- **(0.5pts)** States the coupling',
      '- **(1.0pts)** Mentions postselection',
      'Points: 0.5, Item: Recalls the Hamiltonian.',
      'Points: 8, Item: Final answer, where Points should be awarded for each step.'
    ].join('\n')
    const r = parseRubric(text)!
    expect(r.items.map((i) => i.points)).toEqual([1.5, 0.5, 8])
    expect(r.items[0]!.item).toBe('Describes the procedure. Assign full points if:\n\n- **(0.5pts)** States the coupling\n- **(1.0pts)** Mentions postselection')
    expect(r.items[2]!.item).toBe('Final answer, where Points should be awarded for each step.')
    expect(r.total).toBe(10)
    expect(r.preamble).toBe('')
  })

  it('accepts case, emphasis, "pts" and separator variants', () => {
    const r = parseRubric('Intro line\n**Points:** 2 pts; **Item:** a\npoints: .5 item: b\nPOINTS: 7.5 Item: c')!
    expect(r.items).toEqual([
      { points: 2, item: 'a' },
      { points: 0.5, item: 'b' },
      { points: 7.5, item: 'c' }
    ])
    expect(r.preamble).toBe('Intro line')
  })

  it('sums eighths exactly', () => {
    const text = Array.from({ length: 80 }, (_, i) => `Points: 0.125, Item: step ${i}`).join('\n')
    expect(parseRubric(text)!.total).toBe(10)
  })

  it('finds no rubric in an olympiad answer, nor mid-line', () => {
    expect(parseRubric('\\(U=CT\\)')).toBeNull()
    expect(parseRubric('The answer is 3. Points: 2, Item: not at a line start')).toBeNull()
    expect(looksLikeRubric('x\nPoints: 1, Item: y')).toBe(true)
    expect(looksLikeRubric('6.7 K')).toBe(false)
  })
})
