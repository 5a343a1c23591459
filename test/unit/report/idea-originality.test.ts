import { describe, expect, it } from 'vitest'
import { buildReport, reportSchema, type ReportInput, type ReportItem } from '../../../src/shared/report'

// Chosen beside excluded generated ideas on originality, from a hand-built input with known means.

const fields = [{ name: 'originality', label: 'Originality', level: 'ordinal' as const, categories: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }]

function idea(id: number, scheme: string, keyword: string, selected: boolean): ReportItem {
  return { id, externalId: `i${id}`, set: 'gen', split: 'none', exposures: [], generatedIdea: { selected, scheme, group: `1\u0000${keyword}` } }
}

function input(items: ReportItem[], scores: Record<number, number>): ReportInput {
  return {
    project: { name: 'p', id: 'p' },
    instrument: { id: 'idea-review', title: 'Review of an idea', itemKind: 'idea', versions: [1], fields },
    split: 'all',
    items,
    sources: [
      {
        id: 'run:1',
        kind: 'judge_run',
        name: 'reviewer',
        detail: {},
        calls: Object.entries(scores).map(([itemId, v]) => ({ itemId: Number(itemId), trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'idea', values: { originality: v } }] }))
      }
    ],
    flawAudits: []
  }
}

describe('originality of chosen and excluded ideas', () => {
  it('gives the means, their difference and an interval over keywords, per scheme and overall', () => {
    const items = [
      idea(1, 'omega-point', 'a', true), idea(2, 'omega-point', 'a', false), idea(3, 'omega-point', 'b', true), idea(4, 'omega-point', 'b', false),
      idea(5, 'omega-point', 'c', true), idea(6, 'omega-point', 'c', false),
      idea(7, 'single', 'a', true), idea(8, 'single', 'a', true)
    ]
    const report = buildReport(input(items, { 1: 8, 2: 4, 3: 6, 4: 6, 5: 9, 6: 5, 7: 3, 8: 5 }), { resamples: 2000, generatedAt: '2026-01-01T00:00:00Z' })
    expect(reportSchema.parse(report).idea_originality).toBeDefined()
    const rows = report.idea_originality!.rows
    expect(rows.map((r) => r.scheme)).toEqual(['all', 'omega-point', 'single'])
    const omega = rows[1]!
    expect(omega).toMatchObject({ n_groups: 3, n_selected: 3, n_excluded: 3, mean_selected: 23 / 3, mean_excluded: 5 })
    expect(omega.difference).toBeCloseTo(8 / 3, 10)
    expect(omega.ci_low!).toBeLessThanOrEqual(omega.difference!)
    expect(omega.ci_high!).toBeGreaterThanOrEqual(omega.difference!)
    // The single request keeps every idea: nothing to compare, and it says why.
    expect(rows[2]).toMatchObject({ n_excluded: 0, difference: null, ci_low: null })
    expect(rows[2]!.reasons.difference).toMatch(/single request keeps every idea/)
  })

  it('is absent when no idea in scope was generated', () => {
    const plain: ReportItem = { id: 1, externalId: 'x', set: 's', split: 'none', exposures: [] }
    expect(buildReport(input([plain], { 1: 5 }), { resamples: 2000 }).idea_originality).toBeUndefined()
  })
})
