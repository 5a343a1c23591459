import { describe, expect, it } from 'vitest'
import { disagreementsOf } from '../../../src/main/adjudication/disagreement'
import { defaultFieldRule } from '../../../src/main/adjudication/rules'
import type { DisagreementRuleView } from '../../../src/shared/contract/packet-operations'
import { getInstrument, type AnyInstrument, type Observation } from '../../../src/shared/instruments'
import { hypothesisSetWithTask, proposalPair } from '../instruments/fixtures'

function defaults(instrument: AnyInstrument): DisagreementRuleView {
  return {
    instrument: instrument.id,
    fields: instrument.fields.map((f) => ({ name: f.name, label: f.label, level: f.level, rule: defaultFieldRule(instrument, f), isDefault: true }))
  }
}

function withRule(rule: DisagreementRuleView, field: string, r: DisagreementRuleView['fields'][number]['rule']): DisagreementRuleView {
  return { ...rule, fields: rule.fields.map((f) => (f.name === field ? { ...f, rule: r, isDefault: false } : f)) }
}

describe('default disagreement rules', () => {
  const pairwise = getInstrument('pairwise-preference')
  const observe = (verdict: string, extra: Record<string, unknown> = {}): Observation[] =>
    pairwise.observe(pairwise.judgement.parse({ verdict, ...extra }), proposalPair as never)
  const fields = (...answers: Observation[][]) => disagreementsOf(pairwise, defaults(pairwise), answers).map((f) => f.field)

  it('pairwise: a different winner disagrees; a different strength for the same winner does not', () => {
    expect(fields(observe('a_better'), observe('a_much_better'))).toEqual([])
    expect(fields(observe('a_better'), observe('b_better'))).toEqual(['winner'])
    // Two steps apart on the verdict scale and a different winner.
    expect(fields(observe('a_much_better'), observe('b_better'))).toEqual(['verdict', 'winner'])
    expect(fields(observe('a_better'), observe('a_better'), observe('b_much_better'))).toEqual(['verdict', 'winner'])
  })

  it('pairwise: an abstention against a choice disagrees; the origin-derived verdict is never compared', () => {
    expect(fields(observe('a_better'), observe('abstain', { abstain_reason: 'cannot judge' }))).toEqual(['abstained'])
    const rule = defaults(pairwise)
    expect(rule.fields.find((f) => f.name === 'origin_verdict')!.rule).toEqual({ kind: 'ignore' })
    expect(rule.fields.find((f) => f.name === 'verdict')!.rule).toEqual({ kind: 'difference', threshold: 2 })
    expect(rule.fields.find((f) => f.name === 'winner')!.rule).toEqual({ kind: 'any' })
  })

  it('a configured rule replaces the default of one field', () => {
    const strict = withRule(defaults(pairwise), 'verdict', { kind: 'difference', threshold: 1 })
    expect(disagreementsOf(pairwise, strict, [observe('a_better'), observe('a_much_better')]).map((f) => f.field)).toEqual(['verdict'])
    const lenient = withRule(defaults(pairwise), 'winner', { kind: 'ignore' })
    expect(disagreementsOf(pairwise, lenient, [observe('a_better'), observe('b_better')])).toEqual([])
  })

  it('hypothesis match: counts the units that disagree, per field', () => {
    const match = getInstrument('hypothesis-match')
    const ids = hypothesisSetWithTask.hypotheses.map((h) => h.id)
    const answer = (matches: number[], compatible = true) =>
      match.observe(
        match.judgement.parse({ scores: ids.map((id, i) => ({ id, match: matches[i], compatible, plausibility: 3, reason: '' })) }),
        hypothesisSetWithTask as never
      )
    const first = answer([0, 1, 2, 3, 5])
    // Unit 2: 2 vs 3 crosses the match threshold (matched differs), one step on the scale; unit 4: 5 vs 2, three steps.
    const second = answer([0, 2, 3, 3, 2])
    expect(disagreementsOf(match, defaults(match), [first, second])).toEqual([
      { field: 'match', label: 'Match', units: 1 },
      { field: 'matched', label: 'Match ≥ 3', units: 2 }
    ])
    expect(disagreementsOf(match, defaults(match), [first, answer([0, 1, 2, 3, 5], false)])).toEqual([
      { field: 'compatible', label: 'Compatible', units: 5 }
    ])
  })

  it('probabilities compare by size, with a threshold that is not lost to rounding', () => {
    const forecast = getInstrument('forecast-detailed')
    const rule: DisagreementRuleView = {
      instrument: 'forecast-detailed',
      fields: [{ name: 'p_experimental_support', label: 'p', level: 'probability', rule: { kind: 'difference', threshold: 0.2 }, isDefault: true }]
    }
    const o = (p: number | null): Observation[] => [{ unit: 's:h1', values: { p_experimental_support: p } }]
    expect(disagreementsOf(forecast, rule, [o(0.1), o(0.3)])).toHaveLength(1)
    expect(disagreementsOf(forecast, rule, [o(0.1), o(0.29)])).toHaveLength(0)
    // A missing estimate is not a value to compare.
    expect(disagreementsOf(forecast, rule, [o(null), o(0.9)])).toHaveLength(0)
  })
})
