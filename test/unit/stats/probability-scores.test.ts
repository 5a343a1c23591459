import { describe, expect, it } from 'vitest'
import { auroc, brierScore, expectedCalibrationError, logLoss, reliabilityBinIndex } from '../../../src/shared/stats'
import { TOLERANCE, vectors } from './vectors'

describe('Brier score', () => {
  it('reproduces scikit-learn', () => {
    expect(Math.abs((brierScore(vectors.brier.y, vectors.brier.p1).value ?? NaN) - vectors.brier.expected)).toBeLessThan(TOLERANCE)
    expect(brierScore(vectors.brier.single.y, vectors.brier.single.p).value).toBe(vectors.brier.single.expected)
  })

  it('accepts boolean outcomes, rejects non-probabilities, and is undefined without forecasts', () => {
    expect(brierScore([true, false], [1, 0]).value).toBe(0)
    expect(() => brierScore([1], [1.2])).toThrow(/outside \[0, 1\]/)
    expect(() => brierScore([2], [0.5])).toThrow(/0\/1/)
    expect(brierScore([], [])).toEqual({ value: null, reason: 'no forecasts' })
  })
})

describe('log loss', () => {
  it('reproduces scikit-learn', () => {
    expect(Math.abs((logLoss(vectors.log_loss.y, vectors.log_loss.p1).value ?? NaN) - vectors.log_loss.expected)).toBeLessThan(TOLERANCE)
  })

  it('clips probabilities to [1e-15, 1 − 1e-15]: a certain miss costs −ln(1e-15)', () => {
    expect(logLoss([1], [0]).value).toBeCloseTo(-Math.log(1e-15), 9)
    expect(logLoss([0], [1]).value).toBeCloseTo(-Math.log1p(-(1 - 1e-15)), 6)
    expect(logLoss([1], [1]).value).toBeLessThan(1e-14)
  })
})

describe('expected calibration error', () => {
  it('reproduces the bins of scikit-learn calibration_curve and the ECE', () => {
    const { y, p, prob_true, prob_pred, ece_computed } = vectors.calibration_curve.uniform2
    const result = expectedCalibrationError(y, p, 2)
    expect(result.bins.map((bin) => bin.observedFrequency)).toEqual(prob_true)
    result.bins.forEach((bin, i) => expect(bin.meanPredicted).toBeCloseTo(prob_pred[i] ?? NaN, 12))
    expect(result.bins.map(({ lower, upper, count }) => ({ lower, upper, count }))).toEqual([
      { lower: 0, upper: 0.5, count: 3 },
      { lower: 0.5, upper: 1, count: 3 }
    ])
    expect(Math.abs((result.value ?? NaN) - ece_computed)).toBeLessThan(TOLERANCE)
  })

  it('puts a probability exactly on an edge in the lower bin', () => {
    expect(reliabilityBinIndex(0, 10)).toBe(0)
    expect(reliabilityBinIndex(0.1, 10)).toBe(0)
    expect(reliabilityBinIndex(0.3, 10)).toBe(2)
    expect(reliabilityBinIndex(0.30000000000000004, 10)).toBe(3)
    expect(reliabilityBinIndex(0.5, 2)).toBe(0)
    expect(reliabilityBinIndex(1, 10)).toBe(9)
    expect(reliabilityBinIndex(0.7, 1)).toBe(0)
  })

  it('skips empty bins and weights each bin by its share (hand-worked)', () => {
    // Bin (0.2, 0.3]: two forecasts of 0.25, one hit → |0.5 − 0.25|; bin (0.8, 0.9]: 0.9, hit → |1 − 0.9|.
    const result = expectedCalibrationError([1, 0, 1], [0.25, 0.25, 0.9], 10)
    expect(result.bins).toHaveLength(2)
    expect(result.value).toBeCloseTo((2 / 3) * 0.25 + (1 / 3) * 0.1, 12)
  })

  it('is undefined without forecasts', () => {
    expect(expectedCalibrationError([], [])).toEqual({ value: null, reason: 'no forecasts', bins: [], binCount: 10 })
  })
})

describe('AUROC', () => {
  it.each(vectors.auroc.cases)('reproduces scikit-learn on $s', ({ y, s, auc }) => {
    expect(Math.abs((auroc(y, s).value ?? NaN) - auc)).toBeLessThan(TOLERANCE)
  })

  it('counts tied scores as one half (hand-worked: 3.5 of 4 pairs)', () => {
    expect(auroc([0, 0, 1, 1], [1, 2, 2, 3]).value).toBe(0.875)
    expect(auroc([0, 1], [0.5, 0.5]).value).toBe(0.5)
  })

  it('is undefined with a single class', () => {
    expect(auroc([1, 1], [0.2, 0.9])).toEqual({
      value: null,
      reason: 'only one class present (2 positive, 0 negative)',
      positives: 2,
      negatives: 0
    })
  })
})
