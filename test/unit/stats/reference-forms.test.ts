import { describe, expect, it } from 'vitest'
import {
  clopperPearsonInterval,
  cohenKappaWithSe,
  fleissKappa,
  fleissKappaFromCounts,
  gwetAc1Raters,
  mcnemarExact,
  mcnemarMidP,
  quantileCalibrationError
} from '../../../src/shared/stats'

// Reference values copied in (tests never need the source documents beside the repository). Each names the implementation it was computed with.

// Krippendorff (2011) reliability data, 4 observers × 12 units (irrCAC's cac.raw4raters), transposed to items × raters.
const K2011 = [
  [1, 1, null, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
  [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [null, 5, 5, 5], [null, null, 1, 1], [null, 3, null, null]
]
const CATEGORIES = [1, 2, 3, 4, 5]

describe('multi-rater agreement with missing ratings (irrCAC)', () => {
  it("Fleiss' kappa averages category shares over every rated item: 0.7611693 (irrCAC fleiss.kappa.raw)", () => {
    const result = fleissKappa(K2011, CATEGORIES)
    // p_a = 0.8181818, p_e = 0.2387153 as irrCAC prints them; over items with ≥ 2 ratings only it would be 0.7624831.
    expect(result.value).toBeCloseTo(0.7611692754224112, 12)
    expect(result.pA).toBeCloseTo(0.8181818181818182, 12)
    expect(result.pE).toBeCloseTo(0.2387152777777778, 12)
    expect(result).toMatchObject({ itemsUsed: 11, itemsDropped: 1 })
  })

  it("Gwet's AC1 for four raters with p_a and p_e: 0.7754441 (irrCAC gwet.ac1.raw)", () => {
    const result = gwetAc1Raters(K2011, CATEGORIES)
    expect(result.value).toBeCloseTo(0.775444068126995, 12)
    expect(result.pA).toBeCloseTo(0.8181818181818182, 12)
    expect(result.pE).toBeCloseTo(0.19032118055555555, 12)
  })

  it("is Scott's pi for two raters: (p_o − Σ m_k²) / (1 − Σ m_k²) with m_k the mean of both margins", () => {
    // Abstractors table [[13,0,0],[0,20,7],[0,4,56]] as two raters' labels: Scott's pi 0.7962397 (numpy, closed form).
    const table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    const counts: number[][] = []
    table.forEach((row, i) => row.forEach((n, j) => {
      for (let k = 0; k < n; k++) counts.push([0, 1, 2].map((c) => (c === i ? 1 : 0) + (c === j ? 1 : 0)))
    }))
    expect(fleissKappaFromCounts(counts).value).toBeCloseTo(0.7962396962119107, 12)
  })
})

describe("Cohen's kappa with its asymptotic standard error (Fleiss, Cohen & Everitt 1969)", () => {
  it('reproduces the SAS printout statsmodels tests against: 0.4842, ASE 0.1380, 95% CI 0.2137 to 0.7547', () => {
    const result = cohenKappaWithSe([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
    expect(result.value).toBeCloseTo(0.4842, 4)
    expect(result.se).toBeCloseTo(0.138, 4)
    expect(result.lower).toBeCloseTo(0.2137, 4)
    expect(result.upper).toBeCloseTo(0.7547, 4)
  })

  it('gives the statsmodels std_kappa of the abstractors table, unweighted and quadratic', () => {
    const table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    expect(cohenKappaWithSe(table).se).toBeCloseTo(0.05891071832608143, 12)
    expect(cohenKappaWithSe(table).lower).toBeCloseTo(0.6809465159614687, 12)
    expect(cohenKappaWithSe(table, 'quadratic')).toMatchObject({ value: expect.closeTo(0.8921568627450982, 12), se: expect.closeTo(0.03535150757565915, 12) })
  })

  it('has no standard error where kappa is undefined', () => {
    expect(cohenKappaWithSe([[5, 0], [0, 0]])).toMatchObject({ value: null, se: null, lower: null })
  })
})

describe('Clopper–Pearson interval (scipy beta.ppf, as statsmodels proportion_confint method="beta")', () => {
  it.each([
    [18, 20, 0.6830172859809177, 0.9876514728297052],
    [4, 20, 0.05733399705003277, 0.4366140029966683],
    [95, 152, 0.5429100391035669, 0.7021147045447371],
    [0, 10, 0, 0.3084971078187607],
    [10, 10, 0.6915028921812392, 1]
  ])('%i of %i', (k, n, lower, upper) => {
    const result = clopperPearsonInterval(k, n)
    expect(result.lower).toBeCloseTo(lower, 10)
    expect(result.upper).toBeCloseTo(upper, 10)
  })
})

describe('McNemar mid-p beside the exact test (scipy binom)', () => {
  it.each([
    [121, 59, 4.4344492637551645e-6, 3.2666467957745733e-6],
    [70, 59, 0.3786876626931185, 0.33468775873692724],
    [0, 5, 0.0625, 0.03125],
    [3, 9, 0.14599609375, 0.09228515625],
    [1, 1, 1, 1]
  ])('b = %i, c = %i', (b, c, exact, mid) => {
    expect(mcnemarExact(b, c).value).toBeCloseTo(exact, 14)
    expect(mcnemarMidP(b, c).value).toBeCloseTo(mid, 14)
  })
})

describe('quantile-binned expected calibration error (sklearn calibration_curve strategy="quantile")', () => {
  it('reproduces the sklearn test case and a case with uneven quantile bins (numpy percentile + searchsorted)', () => {
    expect(quantileCalibrationError([0, 0, 0, 1, 1, 1], [0, 0.1, 0.2, 0.8, 0.9, 1], 2).value).toBeCloseTo(0.1, 12)
    const y = [0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0]
    const p = [0.1, 0.9, 0.35, 0.6, 0.8, 0.2, 0.55, 0.95, 0.4, 0.3, 0.05, 0.7]
    expect(quantileCalibrationError(y, p, 3).value).toBeCloseTo(0.06666666666666671, 12)
    expect(quantileCalibrationError(y, p, 4).value).toBeCloseTo(0.07500000000000001, 12)
    expect(quantileCalibrationError(y, p, 4).bins.map((b) => b.count)).toEqual([3, 3, 3, 3])
  })
})
