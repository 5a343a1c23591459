import { describe, expect, it } from 'vitest'
import { fmtDifference, fmtDifferenceInterval, majorityUnitsWords, ceilingRangeWords, NONE, sortJudges, undefinedNotes, allAnnotatorsWords, type JudgeSummary } from '../../../src/shared/report'

describe('a difference of two figures as the reports write it', () => {
  it('is signed, and of proportions in percentage points', () => {
    expect(fmtDifference(0.865 - 0.892, true)).toBe('-2.7 pp')
    expect(fmtDifference(0.149, true)).toBe('+14.9 pp')
    expect(fmtDifference(-0.0655, false)).toBe('-0.066')
    expect(fmtDifference(0.2, false)).toBe('+0.200')
  })

  it('never writes a difference that rounds to nothing with a sign', () => {
    expect(fmtDifference(-0.00001, true)).toBe('0.0 pp')
    expect(fmtDifference(0, true)).toBe('0.0 pp')
    expect(fmtDifference(-0.0001, false)).toBe('0.000')
    expect(fmtDifferenceInterval(-0.00001, 0.00001, true)).toBe('[0.0, 0.0] pp')
  })

  it('writes its interval in the same unit, and nothing where it is undefined', () => {
    expect(fmtDifferenceInterval(-0.015, 0.222, true)).toBe('[-1.5, 22.2] pp')
    expect(fmtDifferenceInterval(-1.084, -0.576, false)).toBe('[-1.084, -0.576]')
    expect(fmtDifferenceInterval(null, 0.2, true)).toBe('')
    expect(fmtDifference(null, true)).toBe(NONE)
  })
})

describe('the units of a judge against the human majority in the ceiling', () => {
  it('names the accuracy\'s own denominator where unreadable answers make it larger than n', () => {
    expect(majorityUnitsWords({ accuracy: { n: 28 }, cohen_kappa: { n: 23 }, gwet_ac1: { n: 23 } })).toBe('23 units (accuracy: 28 judged)')
    expect(majorityUnitsWords({ accuracy: { n: 23 }, cohen_kappa: { n: 23 } })).toBe('23 units')
    expect(majorityUnitsWords({ brier: { n: 1 } })).toBe('1 unit')
  })
})

describe('sorting the summary by agreement with people', () => {
  it('puts a judge led by an error (a Brier score) last, never among κ values as if higher were better', () => {
    const judge = (source: string, statistic: string, value: number) => ({ source, name: source, main: { agreement: { statistic, value } } }) as unknown as JudgeSummary
    const sorted = sortJudges([judge('brier', 'brier', 0.25), judge('low', 'cohen_kappa', -0.5), judge('high', 'cohen_kappa', 0.1)], 'agreement')
    expect(sorted.map((j) => j.source)).toEqual(['high', 'low', 'brier'])
  })

  it('and against the human ceiling, where a margin of an error is on another scale than a κ\'s', () => {
    const judge = (source: string, statistic: string, value: number, ceiling: number) =>
      ({ source, name: source, main: { agreement: { statistic, value }, human_ceiling: { value: ceiling } } }) as unknown as JudgeSummary
    const sorted = sortJudges([judge('brier', 'brier', 0.1, 0.3), judge('kappa', 'cohen_kappa', 0.2, 0.6)], 'ceiling')
    expect(sorted.map((j) => j.source)).toEqual(['kappa', 'brier'])
  })
})

describe('the words under a ceiling figure', () => {
  it('give the annotators\' range and how many the statistic is undefined for', () => {
    expect(ceilingRangeWords('cohen_kappa', { min: 0.47, max: 0.69, n_undefined: 1 })).toBe('range 0.470–0.690; undefined for 1')
    expect(ceilingRangeWords('cohen_kappa', { min: 0.47, max: 0.69 })).toBe('range 0.470–0.690')
    // Under an accuracy, in percent as the accuracy above it; one figure where every annotator has the same.
    expect(ceilingRangeWords('accuracy', { min: 0.417, max: 0.75 })).toBe('range 41.7%–75.0%')
    expect(ceilingRangeWords('accuracy', { min: 0.417, max: 0.417 })).toBe('range 41.7%')
  })
})

describe('the plain text\'s notes on figures it writes as "—"', () => {
  it('give each reason once, with the statistic and every row it applies to', () => {
    const rows: Array<{ source: string; criterion: string; reasons: Record<string, string> }> = [
      { source: 'run:1', criterion: 'label', reasons: { spearman: 'the source gives every item the same score (zero variance)' } },
      { source: 'run:2', criterion: 'label', reasons: { spearman: 'the source gives every item the same score (zero variance)', kendall_tau_b: 'too few items (2)' } },
      { source: 'run:3', criterion: 'label', reasons: { spearman: 'ignored: the figure is defined' } }
    ]
    const values: Array<Record<string, number | null>> = [{ spearman: null }, { spearman: null, kendall_tau_b: null }, { spearman: 0.4 }]
    expect(undefinedNotes(rows, ['spearman', 'kendall_tau_b'], (i, c) => values[i]?.[c], (id) => id)).toEqual([
      '— Spearman ρ: the source gives every item the same score (zero variance) (run:1 vs label; run:2 vs label)',
      '— Kendall τ-b: too few items (2) (run:2 vs label)'
    ])
  })
})

describe('notes on a row with nothing to compare', () => {
  it('name it once for every figure, unless one figure (an accuracy of unreadable answers) stands on n = 0', () => {
    const rows: Array<{ source: string; criterion: string; n: number; reasons: Record<string, string> }> = [
      { source: 'run:1', criterion: 'label', n: 0, reasons: { accuracy: 'no judged units', cohen_kappa: 'no units' } },
      { source: 'run:2', criterion: 'label', n: 0, reasons: { cohen_kappa: 'no units' } }
    ]
    const values: Array<Record<string, number | null>> = [{ accuracy: null, cohen_kappa: null }, { accuracy: 0, cohen_kappa: null }]
    expect(undefinedNotes(rows, ['accuracy', 'cohen_kappa'], (i, c) => values[i]?.[c], (id) => id)).toEqual([
      '— every figure: no unit both the source and the criterion have a value for (run:1 vs label)',
      "— Cohen's κ: no units (run:2 vs label)"
    ])
  })
})

describe('the all-annotators-at-once line', () => {
  it('says beside a dash why the figure is undefined, as it has no cell to carry it', () => {
    const line = allAnnotatorsWords(
      { n_items: 10, krippendorff_alpha_nominal: null, krippendorff_alpha_interval: 0.852, reasons: { krippendorff_alpha_nominal: 'more than 50 distinct values' } } as never,
      'interval',
      3
    )
    expect(line).toBe("Krippendorff's α (nominal) — (more than 50 distinct values) · Krippendorff's α (interval) 0.852 · 3 annotators, 10 items")
  })
})
