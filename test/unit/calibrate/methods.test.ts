import { describe, expect, it } from 'vitest'
import { aggregateBothOrders, bothOrderChanges, chooseFewShotExamples, chooseThreshold, decisionMetric, fewShotUserText, fitIsotonic, fitPlatt, isotonicPredict, plattProbability } from '../../../src/shared/calibrate'

describe('Platt scaling', () => {
  // Reference: scipy.optimize.minimize (BFGS, gtol 1e-12) of the cross-entropy with Platt's smoothed targets
  // t₊ = (N₊ + 1)/(N₊ + 2), t₋ = 1/(N₋ + 2), computed independently of this implementation.
  const scores = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5]
  const outcomes = [0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1]
  it('reproduces the maximum-likelihood slope and intercept', () => {
    const p = fitPlatt(scores, outcomes)
    expect(p.a).toBeCloseTo(0.8972843658069322, 6)
    expect(p.b).toBeCloseTo(-2.1773402154272343, 6)
    expect(p.targets).toEqual({ positive: 8 / 9, negative: 1 / 7 })
    expect(plattProbability(p, 5)).toBeGreaterThan(plattProbability(p, 0))
  })
  it('stays finite on separable data (the smoothed targets keep the slope bounded)', () => {
    const p = fitPlatt([0, 1, 4, 5], [0, 0, 1, 1])
    expect(Number.isFinite(p.a) && p.a > 0).toBe(true)
    expect(plattProbability(p, 5)).toBeLessThan(1)
  })
  it('refuses mismatched or empty input', () => {
    expect(() => fitPlatt([1], [0, 1])).toThrow(/same items/)
    expect(() => fitPlatt([], [])).toThrow(/at least one/)
  })
})

describe('isotonic regression (pool adjacent violators)', () => {
  it('pools violators into their weighted mean (hand-worked)', () => {
    // x 1..5, y = 1, 3, 2, 4, 3.5 → pools (3, 2) → 2.5 and (4, 3.5) → 3.75.
    const fit = fitIsotonic([1, 2, 3, 4, 5], [1, 3, 2, 4, 3.5])
    expect(fit.x).toEqual([1, 2, 3, 4, 5])
    expect(fit.y).toEqual([1, 2.5, 2.5, 3.75, 3.75])
  })
  it('pools equal scores first and weights them by count', () => {
    // Scores 0, 0, 1 with labels 0, 1, 0: x = 0 has mean 0.5 (weight 2), x = 1 has 0 → pooled (0.5·2 + 0)/3 = 1/3.
    const fit = fitIsotonic([0, 0, 1], [0, 1, 0])
    expect(fit.y[0]).toBeCloseTo(1 / 3, 12)
    expect(fit.y[1]).toBeCloseTo(1 / 3, 12)
  })
  it('interpolates between fitted points and clips outside them', () => {
    const fit = { x: [1, 3], y: [0, 1] }
    expect(isotonicPredict(fit, 2)).toBe(0.5)
    expect(isotonicPredict(fit, -4)).toBe(0)
    expect(isotonicPredict(fit, 9)).toBe(1)
  })
})

describe('threshold on the fit items', () => {
  it('maximises balanced accuracy (hand-worked)', () => {
    // Positives at 3, 4, 5; negatives at 0, 1, 2, 4: t = 3 gives sensitivity 3/3 and specificity 3/4 → 0.875.
    const t = chooseThreshold([0, 1, 2, 4, 3, 4, 5], [0, 0, 0, 0, 1, 1, 1])
    expect(t.threshold).toBe(3)
    expect(t.fitValue).toBeCloseTo(0.875, 12)
  })
  it('finds the best cut among unbalanced classes; metrics are undefined where a class is missing', () => {
    const scores = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    const outcomes = [0, 0, 0, 0, 0, 0, 0, 1, 0, 1]
    expect(chooseThreshold(scores, outcomes, 'balanced_accuracy').threshold).toBe(8)
    expect(decisionMetric([0, 1], [0, 1], 'f1')).toBe(1)
    expect(decisionMetric([1, 1], [1, 1], 'balanced_accuracy')).toBeNull()
  })
  it('refuses a fit set with one class for balanced accuracy', () => {
    expect(() => chooseThreshold([1, 2], [1, 1])).toThrow(/undefined/)
  })
})

describe('both display orders', () => {
  it('MT-Bench conservative: a win only when both orders agree, else a tie; agreement keeps the milder strength', () => {
    expect(aggregateBothOrders({ first: ['a_much_better'], second: ['a_better'] }, 'conservative')).toBe('a_better')
    expect(aggregateBothOrders({ first: ['a_better'], second: ['b_better'] }, 'conservative')).toBe('tie')
    expect(aggregateBothOrders({ first: ['a_better'], second: [] }, 'conservative')).toBeNull()
  })
  it('averaging: the sign of the mean strength decides, |mean| ≥ 1.5 is "much"', () => {
    expect(aggregateBothOrders({ first: ['a_much_better'], second: ['b_better'] }, 'average')).toBe('a_better')
    expect(aggregateBothOrders({ first: ['a_better'], second: ['b_better'] }, 'average')).toBe('tie')
    expect(aggregateBothOrders({ first: ['b_much_better'], second: ['b_much_better', 'b_better'] }, 'average')).toBe('b_much_better')
  })
  it('counts the verdicts each rule changes', () => {
    const items = [
      { first: ['a_better'], second: ['a_better'] },
      { first: ['a_much_better'], second: ['b_better'] },
      { first: ['a_better'], second: ['b_better'] }
    ]
    expect(bothOrderChanges(items, 'conservative')).toEqual({ n_pairs: 3, changed_first_order: 2, changed_second_order: 2, n_ties: 2 })
    expect(bothOrderChanges(items, 'average')).toEqual({ n_pairs: 3, changed_first_order: 1, changed_second_order: 2, n_ties: 1 })
  })
})

describe('few-shot examples', () => {
  const candidates = [
    { id: 'p1', label: 'a' },
    { id: 'p2', label: 'a' },
    { id: 'p3', label: 'a' },
    { id: 'p4', label: 'b' },
    { id: 'p5', label: 'b' }
  ]
  it('takes labels in turn, so every label is represented, and the same seed picks the same examples', () => {
    const picked = chooseFewShotExamples(candidates, 2, 's1')
    expect(picked.map((c) => c.label).sort()).toEqual(['a', 'b'])
    expect(chooseFewShotExamples(candidates, 2, 's1')).toEqual(picked)
    expect(chooseFewShotExamples(candidates, 4, 's1').filter((c) => c.label === 'b')).toHaveLength(2)
    expect(chooseFewShotExamples(candidates, 9, 's1')).toHaveLength(5)
  })
  it('writes the examples ahead of the unchanged task', () => {
    const text = fewShotUserText('Judge {{proposal_a}} against {{proposal_b}}.', ['proposal_a', 'proposal_b'], [{ values: { proposal_a: 'X', proposal_b: 'Y' }, answer: '{"verdict":"A_better"}' }])
    expect(text).toContain('--- proposal_a ---\nX\n--- proposal_b ---\nY\n--- expert answer ---\n{"verdict":"A_better"}')
    expect(text.endsWith('=== THE TASK ===\n\nJudge {{proposal_a}} against {{proposal_b}}.')).toBe(true)
  })
})
