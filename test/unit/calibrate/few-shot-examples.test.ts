import { describe, expect, it } from 'vitest'
import type { StoredFit } from '../../../src/shared/calibrate'
import { buildReport, type ReportInput, type ReportSourceInput } from '../../../src/shared/report'

// A run of a few-shot template asked again on the items its prompt shows as examples (for instance a later run of the
// template on every split): the report never scores it on those items, and says how many it left out.
const leak = (v: boolean) => [{ unit: 'u', values: { leak: v } }]
const items = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, externalId: `t${i + 1}`, set: 's', split: (i < 2 ? 'dev' : 'test') as 'dev' | 'test', exposures: [] }))
const source = (id: string, kind: ReportSourceInput['kind'], detail: ReportSourceInput['detail'], value: (itemId: number) => boolean): ReportSourceInput => ({
  id,
  kind,
  name: id,
  detail,
  calls: items.map((i) => ({ itemId: i.id, trial: 0, order: 0, status: 'ok' as const, observations: leak(value(i.id)) }))
})
const fit: StoredFit = {
  id: 1,
  spec: { method: 'few-shot', instrument: 'leak-audit', source: 'run:1', criterion: 'human-majority', score_field: 'leak', target: { field: 'leak', positive: null }, fit_split: 'dev', eval_split: 'test' },
  parameters: { kind: 'few-shot', template: 'leak-audit-fewshot@1', base_template: 'leak-audit@1', k: 2, seed: 's', examples: [{ item: 't1', label: 't' }, { item: 't2', label: 'f' }], run_id: 2 },
  fitItems: [1, 2],
  fitItemSplits: { dev: 2 },
  nFitUnits: 2,
  createdAt: '2026-01-01T00:00:00Z'
}
const input: ReportInput = {
  project: { name: 'p', id: 'p' },
  instrument: { id: 'leak-audit', title: 'Leak', itemKind: 'rediscovery-task', versions: [1], fields: [{ name: 'leak', label: 'Leak', level: 'nominal', categories: [false, true] }] },
  split: 'all',
  items,
  sources: [
    source('annotator:A01', 'annotator', {}, (id) => id % 2 === 1),
    source('run:1', 'judge_run', { template: 'leak-audit@1' }, () => true),
    // Right wherever it is asked: on its two examples that is no evidence at all.
    source('run:2', 'judge_run', { template: 'leak-audit-fewshot@1' }, (id) => id % 2 === 1)
  ],
  flawAudits: [],
  fits: [fit]
}

describe('few-shot examples', () => {
  it('are never scored for a run of the template that shows them', () => {
    const report = buildReport(input, { generatedAt: 'x' })
    const run = report.sources.find((s) => s.id === 'run:2')!
    expect(run.n_items).toBe(4)
    expect(run.detail.n_example_items_left_out).toBe(2)
    // The base template's run keeps every item.
    expect(report.sources.find((s) => s.id === 'run:1')!.n_items).toBe(6)
    const row = report.fields.find((f) => f.name === 'leak')!.comparisons.find((c) => c.source === 'run:2' && c.criterion === 'human-majority')!
    expect(row.n).toBe(4)
  })
})
