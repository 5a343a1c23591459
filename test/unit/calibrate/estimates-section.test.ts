import { describe, expect, it } from 'vitest'
import { estimatesSection } from '../../../src/shared/calibrate'
import type { ReportInput, ReportSourceInput } from '../../../src/shared/report'

// The report's estimates section on a hand-built audit input whose labels are the PPI reference vectors of
// test/unit/stats/ppi-rogan-gladen.test.ts: the section must find the same n labelled and N unlabelled units and
// give the same θ̂, SE and interval (reference values computed independently with numpy from ppi_py's definitions).
const Y = [1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
const Yhat = [1, 0, 1, 0, 0, 1, 1, 1, 1, 0]
const Yunlabelled = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1]

function source(id: string, kind: ReportSourceInput['kind'], values: readonly number[], offset = 0): ReportSourceInput {
  return {
    id,
    kind,
    name: id,
    detail: {},
    calls: values.map((v, i) => ({ itemId: offset + i + 1, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'u', values: { leak: v === 1 } }] }))
  }
}

const input: ReportInput = {
  project: { name: 'p', id: 'p' },
  instrument: { id: 'leak-audit', title: 'Leak', itemKind: 'rediscovery-task', versions: [1], fields: [{ name: 'leak', label: 'Leak', level: 'nominal', categories: [false, true] }] },
  split: 'all',
  items: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, externalId: `t${i + 1}`, set: 's', split: 'none' as const, exposures: [] })),
  sources: [source('annotator:A01', 'annotator', Y), source('model:j', 'model_import', [...Yhat, ...Yunlabelled])],
  flawAudits: []
}

describe('estimates section', () => {
  it('reproduces the PPI and PPI++ reference values through the report', () => {
    const section = estimatesSection(input, 0.95)
    const row = section?.rows.find((r) => r.source === 'model:j' && r.criterion === 'human-majority')
    expect(row).toBeDefined()
    expect([row!.n_labelled, row!.n_unlabelled]).toEqual([10, 20])
    expect(row!.ppi.value).toBeCloseTo(0.7, 12)
    expect(row!.ppi.se).toBeCloseTo(0.17464249196572978, 12)
    expect(row!.ppi.ci_low).toBeCloseTo(0.3577070055768438, 12)
    expect(row!.ppi_plus_plus.lambda).toBeCloseTo(0.406, 12)
    expect(row!.ppi_plus_plus.value).toBeCloseTo(0.6406, 12)
    expect(row!.human_only.value).toBeCloseTo(0.6, 12)
    expect(row!.judge_only.value).toBeCloseTo(20 / 30, 12)
    // Rogan–Gladen from the same units: p̂ = 14/20, sensitivity 5/6, specificity 3/4.
    expect(row!.rogan_gladen!.positive_rate).toBeCloseTo(0.7, 12)
    expect(row!.rogan_gladen!.sensitivity).toBeCloseTo(5 / 6, 12)
    expect(row!.rogan_gladen!.specificity).toBeCloseTo(3 / 4, 12)
    expect(row!.rogan_gladen!.value).toBeCloseTo((0.7 + 0.75 - 1) / (0.75 + 5 / 6 - 1), 12)
  })

  it('is absent when every judged unit is labelled', () => {
    const labelledOnly = { ...input, sources: [source('annotator:A01', 'annotator', Y), source('model:j', 'model_import', Yhat)] }
    expect(estimatesSection(labelledOnly, 0.95)).toBeNull()
  })
})
