import { describe, expect, it } from 'vitest'
import {
  forecastDetailed,
  type ForecastDetailedJudgement
} from '../../../src/shared/instruments/forecast-detailed'
import { forecastShort } from '../../../src/shared/instruments/forecast-short'
import {
  hypothesisMatch,
  MATCH_RUBRIC,
  type HypothesisMatchJudgement
} from '../../../src/shared/instruments/hypothesis-match'
import type { BlindingContext } from '../../../src/shared/instruments'
import { BACKGROUND, HIDDEN_MARKERS, HYPOTHESIS_IDS, hypothesisSet, hypothesisSetWithTask } from './fixtures'

function ctx(viewer: string): BlindingContext {
  return { seed: 'project-seed', viewer, externalId: 'set-1' }
}

function shownStatements(viewer: string, instrument = hypothesisMatch): string[] {
  const view = instrument.blind(hypothesisSetWithTask, ctx(viewer)).view as { hypotheses: Array<{ text: string }> }
  return view.hypotheses.map((h) => h.text.split(' Mechanism:')[0]!)
}

const score = (id: string, match = 3) => ({ id, match, compatible: true, plausibility: 4, reason: 'same target' })

describe('hypothesis-match', () => {
  it('labels the set P1..P5 in a seeded order that is stable for a viewer and differs across viewers', () => {
    const view = hypothesisMatch.blind(hypothesisSetWithTask, ctx('alice')).view as { hypotheses: Array<{ id: string }> }
    expect(view.hypotheses.map((h) => h.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5'])
    expect(shownStatements('alice')).toEqual(shownStatements('alice'))
    expect(shownStatements('alice')).not.toEqual(shownStatements('bob'))
    const orders = new Set(Array.from({ length: 20 }, (_, i) => shownStatements(`viewer-${i}`).join('|')))
    expect(orders.size).toBeGreaterThan(10)
    // Every viewer sees all five, once each.
    expect([...shownStatements('bob')].sort()).toEqual(['Statement 1.', 'Statement 2.', 'Statement 3.', 'Statement 4.', 'Statement 5.'])
  })

  it('shows the text "[statement] Mechanism: [mechanism] Prediction: [prediction]" and the rubric of the source', () => {
    const view = hypothesisMatch.blind(hypothesisSetWithTask, ctx('alice')).view as {
      hypotheses: Array<{ text: string }>
    }
    expect(view.hypotheses.map((h) => h.text)).toContain('Statement 4. Mechanism: mechanism 4 Prediction: prediction 4')
    expect(hypothesisMatch.form.rubric).toBe(MATCH_RUBRIC)
    expect(MATCH_RUBRIC).toContain('3 - identifies the right core mechanism or target but misses or contradicts important key points')
  })

  it('judges against a second reference when the caller attaches one', () => {
    const second = { finding: 'Second reader finding.', key_points: ['second point'] }
    const view = hypothesisMatch.blind({ ...hypothesisSetWithTask, reference: second }, ctx('alice')).view
    expect(view.reference).toEqual(second)
    expect(JSON.stringify(view)).not.toContain(HIDDEN_MARKERS.finding)
  })

  it('maps P labels to hypothesis ids and back', () => {
    const { view, display } = hypothesisMatch.blind(hypothesisSetWithTask, ctx('alice'))
    const order = display.order as string[]
    const labels = (view.hypotheses as Array<{ id: string }>).map((h) => h.id)
    const shown: HypothesisMatchJudgement = { scores: labels.map((id, i) => score(id, i)) }
    const canonical = hypothesisMatch.toCanonical(shown, display)
    expect(canonical.scores.map((s) => s.id)).toEqual(order)
    expect(canonical.scores.find((s) => s.id === order[2])?.match).toBe(2)
    expect(hypothesisMatch.toDisplay(canonical, display)).toEqual(shown)
    expect(hypothesisMatch.toCanonical(hypothesisMatch.toDisplay(canonical, display), display)).toEqual(canonical)
    expect(hypothesisMatch.check(canonical, hypothesisSet)).toEqual([])
  })

  it('refuses out-of-range and duplicate scores', () => {
    const parse = (j: unknown) => hypothesisMatch.judgement.safeParse(j).success
    expect(parse({ scores: [score('P1')] })).toBe(true)
    expect(parse({ scores: [score('P1', 6)] })).toBe(false)
    expect(parse({ scores: [score('P1', -1)] })).toBe(false)
    expect(parse({ scores: [score('P1', 2.5)] })).toBe(false)
    expect(parse({ scores: [{ ...score('P1'), plausibility: 0 }] })).toBe(false)
    expect(parse({ scores: [{ ...score('P1'), plausibility: 6 }] })).toBe(false)
    expect(parse({ scores: [{ ...score('P1'), compatible: 'yes' }] })).toBe(false)
    expect(parse({ scores: [score('P1'), score('P1')] })).toBe(false)
    expect(parse({ scores: [] })).toBe(false)
  })

  it('reports missing, unknown and unmapped hypotheses', () => {
    const partial = { scores: [score(HYPOTHESIS_IDS[0]!), score('P9')] }
    const issues = hypothesisMatch.check(partial, hypothesisSet)
    expect(issues.filter((i) => i.message.includes('has no answer'))).toHaveLength(4)
    expect(issues).toContainEqual({ path: 'scores.1.id', message: 'Unknown hypothesis "P9".' })
  })

  it('observes match, the ≥3 outcome, compatibility and plausibility per hypothesis', () => {
    const j = { scores: [score(HYPOTHESIS_IDS[0]!, 3), { ...score(HYPOTHESIS_IDS[1]!, 2), compatible: false }] }
    expect(hypothesisMatch.observe(j, hypothesisSet)).toEqual([
      {
        unit: `${hypothesisSet.set_id}:${HYPOTHESIS_IDS[0]}`,
        values: { match: 3, matched: true, compatible: true, plausibility: 4 }
      },
      {
        unit: `${hypothesisSet.set_id}:${HYPOTHESIS_IDS[1]}`,
        values: { match: 2, matched: false, compatible: false, plausibility: 4 }
      }
    ])
  })
})

function forecast(id: string, p: number | null, recommend: boolean, quotes: string[] = []) {
  return {
    id,
    p_experimental_support: p,
    recommend_for_testing: recommend,
    support_from_background: quotes,
    assumptions: ['factor crosses the niche'],
    contradictions: [],
    reason: 'Specific causal chain.',
    test: {
      intervention: 'heterochronic parabiosis with factor blockade',
      measurement: 'regeneration index',
      controls: 'isochronic pairs',
      supports_if: 'blockade abolishes rescue',
      refutes_if: 'rescue persists'
    }
  }
}

describe('forecast-detailed', () => {
  const valid: ForecastDetailedJudgement = {
    protocol: 'experimental-support-v1',
    forecasts: HYPOTHESIS_IDS.map((id, i) =>
      forecast(id, i === 4 ? null : 0.2 * i, i === 1, i === 0 ? ['Systemic factors in young blood restore some function.'] : [])
    )
  }

  it('parses a complete forecast and fills in the protocol name when it is missing', () => {
    expect(forecastDetailed.judgement.safeParse(valid).success).toBe(true)
    const { protocol: _omitted, ...bare } = valid
    expect(forecastDetailed.judgement.parse(bare).protocol).toBe('experimental-support-v1')
    expect(forecastDetailed.judgement.safeParse({ ...valid, protocol: 'other-v2' }).success).toBe(false)
  })

  it('refuses a recommendation without a number, and probabilities outside 0..1', () => {
    const parse = (f: unknown) => forecastDetailed.judgement.safeParse({ forecasts: [f] })
    const refused = parse(forecast('H1', null, true))
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toMatch(/numerical estimate/)
    expect(parse(forecast('H1', null, false)).success).toBe(true)
    expect(parse(forecast('H1', 1.01, false)).success).toBe(false)
    expect(parse(forecast('H1', -0.1, false)).success).toBe(false)
    expect(parse(forecast('H1', 0, true)).success).toBe(true)
    // check() reports the same rule for an answer that reached it without the schema.
    const unchecked = { ...valid, forecasts: [forecast(HYPOTHESIS_IDS[0]!, null, true)] } as ForecastDetailedJudgement
    expect(forecastDetailed.check(unchecked, hypothesisSetWithTask).map((i) => i.path)).toContain(
      'forecasts.0.recommend_for_testing'
    )
  })

  it('accepts literal quotes of the background only', () => {
    expect(forecastDetailed.check(valid, hypothesisSetWithTask)).toEqual([])
    const invented = {
      ...valid,
      forecasts: [forecast(HYPOTHESIS_IDS[0]!, 0.5, false, ['Young blood rejuvenates every tissue.']), ...valid.forecasts.slice(1)]
    }
    expect(forecastDetailed.check(invented, hypothesisSetWithTask)).toEqual([
      { path: 'forecasts.0.support_from_background.0', message: 'Support must be a literal quote of the background.' }
    ])
    // The question is not the background.
    const fromQuestion = {
      ...valid,
      forecasts: [forecast(HYPOTHESIS_IDS[0]!, 0.5, false, ['Which circulating factor restores']), ...valid.forecasts.slice(1)]
    }
    expect(forecastDetailed.check(fromQuestion, hypothesisSetWithTask)).toHaveLength(1)
    expect(BACKGROUND).toContain('Systemic factors in young blood restore some function.')
  })

  it('shows H1..H5 in a per-viewer order independent of the match judging order', () => {
    const view = forecastDetailed.blind(hypothesisSetWithTask, ctx('alice')).view as { hypotheses: Array<{ id: string }> }
    expect(view.hypotheses.map((h) => h.id)).toEqual(['H1', 'H2', 'H3', 'H4', 'H5'])
    expect(shownStatements('alice', forecastDetailed as never)).toEqual(shownStatements('alice', forecastDetailed as never))
    const differs = Array.from({ length: 10 }, (_, i) => `viewer-${i}`).some(
      (v) => shownStatements(v, forecastDetailed as never).join() !== shownStatements(v).join()
    )
    expect(differs).toBe(true)
  })

  it('maps H labels back to hypothesis ids and round-trips', () => {
    const { display } = forecastDetailed.blind(hypothesisSetWithTask, ctx('carol'))
    const shown = forecastDetailed.toDisplay(valid, display)
    expect(shown.forecasts.map((f) => f.id).sort()).toEqual(['H1', 'H2', 'H3', 'H4', 'H5'])
    expect(forecastDetailed.toCanonical(shown, display)).toEqual(valid)
  })

  it('observes the probability and the recommendation per hypothesis', () => {
    const obs = forecastDetailed.observe(valid, hypothesisSet)
    expect(obs).toHaveLength(5)
    expect(obs[1]).toEqual({
      unit: `${hypothesisSet.set_id}:${HYPOTHESIS_IDS[1]}`,
      values: { p_experimental_support: 0.2, recommend_for_testing: true }
    })
    expect(obs[4]?.values.p_experimental_support).toBeNull()
  })
})

describe('forecast-short', () => {
  it('maps the anonymous id of a single claim (H000000000001) back to the hypothesis', () => {
    const claim = { ...hypothesisSet, hypotheses: hypothesisSet.hypotheses.slice(0, 1) }
    const { view, display } = forecastShort.blind(claim, ctx('run-7'))
    expect(view).toEqual({ hypotheses: [{ id: 'H1', text: 'Statement 1. Mechanism: mechanism 1 Prediction: prediction 1' }] })
    const answer = forecastShort.judgement.parse({ forecasts: [{ id: 'H000000000001', confirmed: true }] })
    const canonical = forecastShort.toCanonical(answer, display)
    expect(canonical).toEqual({ forecasts: [{ id: HYPOTHESIS_IDS[0], confirmed: true }] })
    expect(forecastShort.check(canonical, claim)).toEqual([])
  })

  it('parses yes/no forecasts, refuses anything else, maps labels and observes', () => {
    const { display } = forecastShort.blind(hypothesisSetWithTask, ctx('dave'))
    const shown = { forecasts: ['H1', 'H2', 'H3', 'H4', 'H5'].map((id, i) => ({ id, confirmed: i % 2 === 0 })) }
    expect(forecastShort.judgement.safeParse(shown).success).toBe(true)
    expect(forecastShort.judgement.safeParse({ forecasts: [{ id: 'H1', confirmed: 'yes' }] }).success).toBe(false)
    expect(forecastShort.judgement.safeParse({ forecasts: [{ id: 'H1' }] }).success).toBe(false)
    const canonical = forecastShort.toCanonical(shown, display)
    expect(forecastShort.toDisplay(canonical, display)).toEqual(shown)
    expect(forecastShort.check(canonical, hypothesisSet)).toEqual([])
    const order = display.order as string[]
    expect(forecastShort.observe(canonical, hypothesisSet)[0]).toEqual({
      unit: `${hypothesisSet.set_id}:${order[0]}`,
      values: { confirmed: true }
    })
  })
})
