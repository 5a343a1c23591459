import { describe, expect, it } from 'vitest'
import { classicalMean, ppiMean, ppiTunedLambda } from '../../../src/shared/stats/ppi'
import { roganGladen } from '../../../src/shared/stats/rogan-gladen'

// Reference values computed independently with numpy/scipy from ppi_py's definitions (ppi_py/ppi.py `ppi_mean_ci`,
// `_calc_lam_glm` with clip=True; ppi_py/baselines.py `classical_mean_ci`): population standard deviations
// (ndarray.std(), ddof 0) in the standard error, np.cov (ddof 1) over labelled and unlabelled judge labels in λ,
// and z = scipy.stats.norm.ppf(0.975) for the 95% interval (ppi_py's alpha = 0.05).
const Y = [1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
const Yhat = [1, 0, 1, 0, 0, 1, 1, 1, 1, 0]
const Yunlabelled = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1]
const close = (actual: number | null, expected: number) => expect(actual).toBeCloseTo(expected, 12)

describe('prediction-powered mean', () => {
  it('classic PPI (λ = 1) reproduces the reference θ̂, SE and 95% interval', () => {
    const r = ppiMean(Y, Yhat, Yunlabelled, { lambda: 'classic' })
    close(r.value, 0.7)
    close(r.se, 0.17464249196572978)
    close(r.lower, 0.3577070055768438)
    close(r.upper, 1.042292994423156)
    expect(r.lambda).toBe(1)
    expect([r.n, r.N]).toEqual([10, 20])
  })

  it('gives the 90% interval ppi_py reports by default (alpha = 0.1)', () => {
    const r = ppiMean(Y, Yhat, Yunlabelled, { lambda: 'classic', level: 0.9 })
    close(r.lower, 0.41273866367032597)
    close(r.upper, 0.9872613363296739)
  })

  it('PPI++ tunes λ = cov₀(Y, Ŷ) / ((1 + n/N)·var₁(Ŷ ∪ Ŷᵤ)), clipped to [0, 1]', () => {
    close(ppiTunedLambda(Y, Yhat, Yunlabelled), 0.406)
    const r = ppiMean(Y, Yhat, Yunlabelled, { lambda: 'tuned' })
    close(r.lambda, 0.406)
    close(r.value, 0.6406)
    close(r.se, 0.13534711670368157)
    close(r.lower, 0.3753245258494447)
    close(r.upper, 0.9058754741505557)
    // Tuning never widens the interval beyond classic PPI here.
    expect(r.se!).toBeLessThan(ppiMean(Y, Yhat, Yunlabelled).se!)
  })

  it('λ = 0 is the human-only mean with a population-SD standard error, as ppi_py classical_mean_ci', () => {
    const zero = ppiMean(Y, Yhat, Yunlabelled, { lambda: 0 })
    const classical = classicalMean(Y)
    close(zero.value, 0.6)
    close(classical.value, 0.6)
    close(classical.se, 0.15491933384829665)
    close(zero.se, 0.15491933384829665)
  })

  it('is undefined, with a reason, without labelled or unlabelled items or when the judge never varies', () => {
    expect(ppiMean([], [], [1, 0]).reason).toMatch(/both a human and a judge label/)
    expect(ppiMean([1], [1], []).reason).toMatch(/without a human label/)
    expect(ppiMean([1, 0], [1, 1], [1, 1], { lambda: 'tuned' }).reason).toMatch(/do not vary/)
    expect(() => ppiMean([1, 0], [1], [1])).toThrow(/same labelled items/)
    expect(() => ppiMean([1], [1], [1], { lambda: 2 })).toThrow(/λ/)
  })
})

// Reference values computed independently with numpy: θ̂ from the formula, its gradient by central finite
// differences (not the analytic derivatives used in the code), Var = gᵀ·diag(p(1−p)/m, q₀(1−q₀)/n₀, q₁(1−q₁)/n₁)·g.
describe('Rogan–Gladen prevalence', () => {
  it('corrects the judge positive rate and carries the uncertainty of p̂, q̂₀ and q̂₁ (delta method)', () => {
    const r = roganGladen({ judgedPositive: 80, judged: 200, truePositives: 40, humanPositives: 50, trueNegatives: 45, humanNegatives: 50 })
    close(r.value, 0.42857142857142855)
    expect(r.se).toBeCloseTo(0.06962743717545021, 8)
    expect(r.lower).toBeCloseTo(0.29210415937172085, 8)
    expect(r.upper).toBeCloseTo(0.5650386977711362, 8)
    expect([r.positiveRate, r.sensitivity, r.specificity]).toEqual([0.4, 0.8, 0.9])
    expect(r.method).toMatch(/delta method/)
  })

  it('clips the estimate and the interval to [0, 1], keeping the unclipped value', () => {
    const r = roganGladen({ judgedPositive: 5, judged: 100, truePositives: 15, humanPositives: 20, trueNegatives: 18, humanNegatives: 20 })
    expect(r.value).toBe(0)
    close(r.unclipped, -0.07692307692307683)
    expect(r.se).toBeCloseTo(0.116653619511776, 8)
    expect(r.lower).toBe(0)
    expect(r.upper).toBeCloseTo(0.15171381598624306, 8)
  })

  it('is undefined when the judge is no better than chance or a sample is empty', () => {
    expect(roganGladen({ judgedPositive: 5, judged: 10, truePositives: 5, humanPositives: 10, trueNegatives: 5, humanNegatives: 10 }).reason).toMatch(/no better than chance/)
    expect(roganGladen({ judgedPositive: 5, judged: 10, truePositives: 0, humanPositives: 0, trueNegatives: 5, humanNegatives: 10 }).reason).toMatch(/positives/)
    expect(roganGladen({ judgedPositive: 0, judged: 0, truePositives: 1, humanPositives: 1, trueNegatives: 1, humanNegatives: 1 }).reason).toMatch(/no judged items/)
    expect(() => roganGladen({ judgedPositive: 5, judged: 4, truePositives: 0, humanPositives: 0, trueNegatives: 0, humanNegatives: 0 })).toThrow(/exceeds/)
  })
})
