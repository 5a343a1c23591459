import { describe, expect, it } from 'vitest'
import { buildReport, NO_SOURCES, renderReportHtml, renderReportText, reportSchema, type ReportInput, type ReportSourceInput, type CallStatus, type Report, type SourceCall } from '../../../src/shared/report'
import { combine } from '../../../src/shared/report/resolve'

// Reports built from hand-made inputs, without a database: the report is a pure function of what the store holds.

const fields = [
  { name: 'choice', label: 'Choice', level: 'nominal' as const, categories: ['x', 'y'] },
  { name: 'score', label: 'Score', level: 'interval' as const }
]

function call(itemId: number, values: Record<string, string | number> | null, trial = 0, status: CallStatus = 'ok'): SourceCall {
  return { itemId, trial, order: 0, status: values === null && status === 'ok' ? 'failed' : status, observations: values ? [{ unit: 'u', values }] : [] }
}

function source(id: string, kind: ReportSourceInput['kind'], calls: SourceCall[]): ReportSourceInput {
  return { id, kind, name: id, detail: {}, calls }
}

function input(sources: ReportSourceInput[], items = 4): ReportInput {
  return {
    project: { name: 'p', id: 'id' },
    instrument: { id: 'test-instrument', title: 'Test', itemKind: 'idea', versions: [1], fields },
    split: 'all',
    items: Array.from({ length: items }, (_, i) => ({ id: i + 1, externalId: `i${i + 1}`, set: 's', split: 'none' as const, exposures: [] })),
    sources,
    flawAudits: []
  }
}

function row(report: Report, field: string, sourceId: string, criterion: string) {
  const found = report.fields.find((f) => f.name === field)?.comparisons.find((c) => c.source === sourceId && c.criterion === criterion)
  if (!found) throw new Error(`no ${field} row ${sourceId} vs ${criterion}`)
  return found
}

const reference = source('ref', 'reference_import', [
  call(1, { choice: 'x', score: 1 }),
  call(2, { choice: 'x', score: 2 }),
  call(3, { choice: 'y', score: 3 }),
  call(4, { choice: 'y', score: 4 })
])

describe('combining several answers on one unit', () => {
  it('votes categories, averages numbers, and leaves an even split without a value', () => {
    expect(combine(['x', 'x', 'y'], 'vote')).toEqual({ value: 'x', tied: false })
    expect(combine(['x', 'y'], 'vote')).toEqual({ value: null, tied: true })
    expect(combine([true, false, false], 'vote')).toEqual({ value: false, tied: false })
    expect(combine([2, 4, 9], 'mean')).toEqual({ value: 5, tied: false })
    expect(combine([], 'vote')).toEqual({ value: null, tied: false })
  })

  it('applies the vote to a judge’s trials and counts an even split as a tied vote', () => {
    const judge = source('judge', 'judge_run', [
      call(1, { choice: 'x', score: 2 }, 0),
      call(1, { choice: 'x', score: 4 }, 1),
      call(1, { choice: 'y', score: 0 }, 2),
      call(2, { choice: 'x', score: 2 }, 0),
      call(2, { choice: 'y', score: 2 }, 1),
      call(3, { choice: 'y', score: 3 }, 0),
      call(4, null, 0, 'failed')
    ])
    const report = buildReport(input([reference, judge]), { generatedAt: 't' })
    expect(row(report, 'choice', 'judge', 'ref')).toMatchObject({ n_in_scope: 4, n: 2, n_no_value: 1, n_failed: 1, n_judged: 2, correct: 2, accuracy: 1, accuracy_of_all: 0.5 })
    // Scores are averaged over trials: item 1 → 2, item 2 → 2, item 3 → 3; |diff| 1, 0, 0.
    expect(row(report, 'score', 'judge', 'ref').mean_abs_diff).toBeCloseTo(1 / 3, 15)
    expect(report.sources.find((s) => s.id === 'judge')).toMatchObject({ n_calls: 7, n_answered: 6, n_failed: 1, n_tied_votes: 1 })
  })
})

describe('honest denominators', () => {
  it('keeps abstentions and pending calls out of the judged denominator and warns about an unfinished run', () => {
    const judge = source('judge', 'judge_run', [
      call(1, { choice: 'x', score: 1 }),
      call(2, null, 0, 'abstained'),
      call(3, null, 0, 'unparseable'),
      call(4, null, 0, 'pending')
    ])
    const report = buildReport(input([reference, judge]), { generatedAt: 't' })
    expect(row(report, 'choice', 'judge', 'ref')).toMatchObject({ n_in_scope: 4, n_judged: 2, n: 1, n_abstained: 1, n_unparseable: 1, n_pending: 1, correct: 1, accuracy: 0.5, accuracy_of_all: 0.25 })
    expect(report.warnings.find((w) => w.code === 'incomplete_run')?.message).toBe('judge has 1 calls still pending; its figures cover the finished ones.')
  })

  it('leaves items a source was never asked about outside its denominators, and counts them', () => {
    const judge = source('judge', 'judge_run', [call(1, { choice: 'x', score: 1 })])
    const report = buildReport(input([reference, judge]), { generatedAt: 't' })
    expect(row(report, 'choice', 'judge', 'ref')).toMatchObject({ n_in_scope: 1, n_not_asked: 3, n_judged: 1, accuracy: 1 })
  })
})

describe('undefined statistics', () => {
  it('are null with the reason, never a stand-in 0 or 1', () => {
    const sameRef = source('ref', 'reference_import', [1, 2, 3, 4].map((i) => call(i, { choice: 'x', score: 2 })))
    const judge = source('judge', 'judge_run', [1, 2, 3, 4].map((i) => call(i, { choice: 'x', score: 2 })))
    const report = buildReport(input([sameRef, judge]), { generatedAt: 't' })
    const choice = row(report, 'choice', 'judge', 'ref')
    expect(choice.accuracy).toBe(1)
    expect(choice.cohen_kappa).toBeNull()
    expect(choice.reasons.cohen_kappa).toBe('expected agreement is 1 (a single category in both sources)')
    expect(choice.krippendorff_alpha_nominal).toBeNull()
    expect(choice.reasons.krippendorff_alpha_nominal).toBe('all pairable values are the same: expected disagreement is 0')
    const score = row(report, 'score', 'judge', 'ref')
    expect(score.mean_abs_diff).toBe(0)
    expect(score.pearson).toBeNull()
    expect(score.reasons.pearson).toBe('both sources give every item the same score (zero variance)')
    expect(reportSchema.parse(report)).toEqual(report)
  })
})

describe('criteria and the human majority', () => {
  it('scores an annotator against the majority of the others, never a majority it is part of', () => {
    const a = source('a', 'annotator', [call(1, { choice: 'x', score: 1 }), call(2, { choice: 'x', score: 1 })])
    const b = source('b', 'annotator', [call(1, { choice: 'x', score: 1 }), call(2, { choice: 'y', score: 1 })])
    const c = source('c', 'annotator', [call(1, { choice: 'y', score: 1 }), call(2, { choice: 'y', score: 1 })])
    const report = buildReport(input([a, b, c], 2), { generatedAt: 't' })
    // The full majority is x on item 1 and y on item 2, which would give a 1 of 2. The others of a say x, y on
    // item 1 (no majority: out of scope) and y, y on item 2, where a is wrong.
    expect(row(report, 'choice', 'a', 'human-majority')).toMatchObject({ n_in_scope: 1, n: 1, correct: 0 })
    // The others of c say x, x on item 1 (c is wrong) and x, y on item 2 (out of scope).
    expect(row(report, 'choice', 'c', 'human-majority')).toMatchObject({ n_in_scope: 1, n: 1, correct: 0 })
    // The others of b split on both items: nothing to score b against.
    expect(row(report, 'choice', 'b', 'human-majority')).toMatchObject({ n_in_scope: 0, n: 0, accuracy: null })
    expect(report.criteria).toEqual(['human-majority'])
  })

  it('compares two criteria once, the later against the earlier', () => {
    const a = source('a', 'annotator', [call(1, { choice: 'x', score: 1 }), call(3, { choice: 'y', score: 3 })])
    const report = buildReport(input([reference, a]), { generatedAt: 't' })
    expect(report.criteria).toEqual(['ref', 'human-majority'])
    const rows = report.fields[0]!.comparisons.map((c) => `${c.source}>${c.criterion}`)
    expect(rows).toContain('human-majority>ref')
    expect(rows).not.toContain('ref>human-majority')
  })
})

describe('the bootstrap', () => {
  it('refuses fewer than 2,000 resamples and records its seed', () => {
    expect(() => buildReport(input([reference]), { resamples: 1999 })).toThrow(/at least 2000/)
    const report = buildReport(input([reference]), { seed: 7, generatedAt: 't' })
    expect(report.settings.bootstrap).toMatchObject({ resamples: 2000, seed: 7, resampling_unit: 'item' })
  })

  it('gives the same report for the same seed, and other intervals for another', () => {
    const judge = source('judge', 'judge_run', [1, 2, 3, 4].map((i) => call(i, { choice: i % 2 ? 'x' : 'y', score: i })))
    const first = buildReport(input([reference, judge], 4), { seed: 1, generatedAt: 't' })
    expect(buildReport(input([reference, judge], 4), { seed: 1, generatedAt: 't' })).toEqual(first)
    const other = buildReport(input([reference, judge], 4), { seed: 2, generatedAt: 't' })
    const ci = (r: Report) => row(r, 'score', 'judge', 'ref').ci.mean_abs_diff
    expect(ci(first)?.seed).toBe(1)
    expect(ci(other)?.seed).toBe(2)
    expect(row(first, 'score', 'judge', 'ref').mean_abs_diff).toBe(row(other, 'score', 'judge', 'ref').mean_abs_diff)
  })
})

describe('a report with no source at all', () => {
  it('says so in its sources section, in text and in HTML, rather than an empty table', () => {
    const report = buildReport(input([]), { generatedAt: 'test' })
    expect(report.sources).toEqual([])
    const text = renderReportText(report)
    expect(text).toContain(`== Sources and denominators ==`)
    expect(text).toContain(NO_SOURCES)
    expect(renderReportHtml(report)).toContain(NO_SOURCES.replace(/'/g, '&#39;'))
  })
})
