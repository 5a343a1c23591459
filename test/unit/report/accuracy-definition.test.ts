import { describe, expect, it } from 'vitest'
import { accuracyDefinition } from '../../../src/shared/report/definitions'

describe("a card's accuracy definition", () => {
  const withoutValue = { n: 4, inScope: 10, ofAll: 0.4, failed: 0, abstained: 0, pending: 1 }

  it('says why a unit has no value by the kind of source: a split vote, or a panel left undecided by its rule', () => {
    const run = accuracyDefinition({ pairwise: false, judged: 5, items: 5, criterion: 'Human majority', withoutValue, kind: 'judge_run' })
    expect(run).toBe('correct share of 5 judged units against Human majority, on 5 items; not judged: 4 units without a value (display orders or trials that split evenly, or an answer that leaves the field empty), 1 pending; all counted as not correct in 40.0% of all 10 in scope')
    const panel = accuracyDefinition({ pairwise: false, judged: 5, items: 5, criterion: 'Human majority', withoutValue, kind: 'panel' })
    expect(panel).toContain("4 units without a value (the panel's rule left it undecided: a missing member's score could change the outcome)")
    expect(panel).not.toContain('split vote')
  })

  it('names nothing where nothing was left out', () => {
    expect(accuracyDefinition({ pairwise: true, judged: 12, items: 12, criterion: 'Reference label', withoutValue: { ...withoutValue, n: 0, pending: 0 } })).toBe(
      'correct share of 12 judged verdicts (one per pair) against Reference label, on 12 items'
    )
  })
})
