import { describe, expect, it } from 'vitest'
import { buildReport, quoteOverlap, type ReportInput, type ReportSourceInput, type FlawRecord } from '../../../src/shared/report'

// Judges' flaw audits against the experts', from hand-built audits: the majority rule, adjudication first, matching by
// side and type, recall by the reference's severity and precision by the judge's.

const fields = [{ name: 'has_fatal', label: 'Has a fatal flaw', level: 'nominal' as const, categories: [false, true] }]
const f = (side: 'a' | 'b', type: string, severity: string, evidence = 'the words'): FlawRecord => ({ side, type, severity, evidence })

function source(id: string, kind: ReportSourceInput['kind'], audits: Record<number, FlawRecord[]>, unparseable = 0): ReportSourceInput {
  return { id, kind, name: id, detail: {}, calls: Object.entries(audits).map(([item, flaws]) => ({ itemId: Number(item), trial: 0, order: 0, status: 'ok' as const, observations: [], flaws, unparseableFlaws: unparseable })) }
}

function input(sources: ReportSourceInput[]): ReportInput {
  return {
    project: { name: 'p', id: 'p' },
    instrument: { id: 'flaw-audit', title: 'Flaws', itemKind: 'proposal-pair', versions: [2], fields },
    split: 'all',
    items: [1, 2].map((id) => ({ id, externalId: `p${id}`, set: 's', split: 'none' as const, exposures: [] })),
    sources,
    flawAudits: []
  }
}

describe('flaw matching', () => {
  it('takes the adjudicated audit where there is one, else what more than half of the experts listed', () => {
    const report = buildReport(
      input([
        // Pair 1: two of three experts list (b, unsound_method); one lists (a, infeasible): only the first is a reference flaw.
        source('annotator:x', 'annotator', { 1: [f('b', 'unsound_method', 'fatal', 'the optimum is proportional')] }),
        source('annotator:y', 'annotator', { 1: [f('b', 'unsound_method', 'major', 'optimum is proportional'), f('a', 'infeasible', 'minor')] }),
        source('annotator:z', 'annotator', { 1: [] }),
        // Pair 2: adjudicated, whatever the experts said.
        source('annotator:w', 'annotator', { 2: [f('a', 'other', 'minor')] }),
        source('adjudicated', 'adjudicated', { 2: [f('a', 'covered_by_prior_work', 'major')] }),
        source('run:1', 'judge_run', { 1: [f('b', 'unsound_method', 'minor', 'the optimum is proportional'), f('a', 'infeasible', 'fatal')], 2: [f('a', 'covered_by_prior_work', 'fatal', 'the words here')] }, 1)
      ]),
      { resamples: 2000 }
    )
    const row = report.flaw_matching!.rows[0]!
    expect(row).toMatchObject({ source: 'run:1', reference: 'adjudicated + majority', n_items: 2, n_unparseable_flaws: 2 })
    expect(row.overall).toMatchObject({ n_expert: 2, n_expert_found: 2, n_judge: 3, n_judge_matched: 2, recall: 1 })
    // Reference severities: the worse of a fatal and a major vote on a tie (pair 1), major (pair 2).
    expect(row.by_severity.map((c) => [c.key, c.n_expert, c.n_judge, c.n_judge_matched])).toEqual([
      ['minor', 0, 1, 1],
      ['major', 1, 0, 0],
      ['fatal', 1, 2, 1]
    ])
    expect(row.by_type.find((c) => c.key === 'infeasible')).toMatchObject({ n_expert: 0, recall: null, n_judge: 1, precision: 0 })
    // Best overlap per matched flaw: an exact match on pair 1, two of three words on pair 2.
    expect(row.quote_overlap).toBeCloseTo((1 + 2 / 3) / 2, 10)
  })

  it('measures quote overlap as shared words over all words', () => {
    expect(quoteOverlap('The optimum is proportional', 'optimum is proportional.')).toBe(3 / 4)
    expect(quoteOverlap('a b', 'c d')).toBe(0)
  })

  it('is absent without a judge or without a reference audit', () => {
    expect(buildReport(input([source('annotator:x', 'annotator', { 1: [] })]), { resamples: 2000 }).flaw_matching).toBeUndefined()
    expect(buildReport(input([source('run:1', 'judge_run', { 1: [] })]), { resamples: 2000 }).flaw_matching).toBeUndefined()
  })
})
