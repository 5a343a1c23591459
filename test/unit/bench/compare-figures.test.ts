import { describe, expect, it } from 'vitest'
import { compareRuns, formatComparison, ratioFigures } from '../../../bench/compare-figures'

const run = (reportRatio: number, cliRatio: number) => ({
  node: 'v20',
  report: { pairs_20000: { report_vs_bare_ratio: reportRatio, report_ms: 900, target_ratio: 3 } },
  cli: { demo_help_ratio: cliRatio, demo_baseline_ms: 58 }
})

describe('comparing two benchmark runs', () => {
  it('takes the ratios to baselines, not the milliseconds nor the targets', () => {
    expect([...ratioFigures(run(10, 1.8))]).toEqual([
      ['report.pairs_20000.report_vs_bare_ratio', 10],
      ['cli.demo_help_ratio', 1.8]
    ])
  })

  it('calls a ratio within noise, slower or faster against the stated noise', () => {
    const { changes } = compareRuns(run(10, 1.8), run(11.2, 1.6), 0.1)
    expect(changes.map((c) => [c.path, c.verdict])).toEqual([
      ['report.pairs_20000.report_vs_bare_ratio', 'slower'],
      ['cli.demo_help_ratio', 'faster']
    ])
    expect(compareRuns(run(10, 1.8), run(10.9, 1.7), 0.1).changes.every((c) => c.verdict === 'within noise')).toBe(true)
  })

  it('lists figures found in one run only, and says how many ratios got slower', () => {
    const after = { ...run(20, 1.8), open: { cold_ratio: 1.2 } }
    const result = compareRuns(run(10, 1.8), after, 0.15)
    expect(result.onlyAfter).toEqual(['open.cold_ratio'])
    expect(formatComparison(result, 0.15)).toContain('1 of 2 ratios slower beyond noise')
  })

  it('refuses a noise that is not a fraction of at least 0', () => {
    expect(() => compareRuns({}, {}, Number.NaN)).toThrow(/noise/)
  })
})

describe('comparing several runs a side', () => {
  it('widens the noise to the spread repeated runs show, and compares medians', () => {
    // Unchanged code measured twice moved by 20%: a 15% change after is within that noise, not a slowdown.
    const { changes } = compareRuns([run(10, 1.8), run(12, 1.8)], [run(12.6, 1.8)], 0.05)
    const report = changes.find((c) => c.path.startsWith('report'))!
    expect(report.before).toBe(11)
    expect(report.noise).toBeCloseTo(1 / 11, 6)
    expect(report.verdict).toBe('slower')
    expect(compareRuns([run(10, 1.8), run(14, 1.8)], [run(12.6, 1.8)], 0.05).changes[0]!.verdict).toBe('within noise')
  })
})
