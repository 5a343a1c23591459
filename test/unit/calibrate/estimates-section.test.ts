import { describe, expect, it } from 'vitest'
import { estimatesSection } from '../../../src/shared/calibrate'
import { CUT_MARK, estimateCell, estimateCutLines, estimateNoteLines } from '../../../src/shared/report'
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
    // Its normal interval reaches past 1, the most a share can be: the interval is cut there, the reference kept.
    expect(row!.ppi.ci_high).toBe(1)
    expect(row!.ppi.cut_to_range!.ci_high).toBeCloseTo(0.7 + 0.7 - 0.3577070055768438, 12)
    expect(row!.ppi.cut_to_range!.value).toBe(row!.ppi.value)
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

  it('cuts a share and its interval to [0, 1], keeping the figures before the cut, and says so in every table', () => {
    // Two labelled units (0 and 1) the judge calls 0, three unlabelled it calls 1: a normal interval of the human-only
    // share reaches below 0 and above 1, and PPI's estimate (mean of the judge's 1s plus a rectifier of 0.5) is 1.5.
    const small: ReportInput = {
      ...input,
      items: input.items.slice(0, 5),
      sources: [source('annotator:A01', 'annotator', [0, 1]), source('model:j', 'model_import', [0, 0, 1, 1, 1])]
    }
    const row = estimatesSection(small, 0.95)!.rows.find((r) => r.source === 'model:j')!
    const z = 1.959963984540054
    const half = z * Math.sqrt(0.25 / 2)
    expect(row.human_only).toMatchObject({ value: 0.5, ci_low: 0, ci_high: 1 })
    expect(row.human_only.cut_to_range!.range).toEqual([0, 1])
    expect(row.human_only.cut_to_range!.ci_low).toBeCloseTo(0.5 - half, 12)
    expect(row.human_only.cut_to_range!.ci_high).toBeCloseTo(0.5 + half, 12)
    expect(row.ppi.value).toBe(1)
    expect(row.ppi.ci_high).toBe(1)
    expect(row.ppi.ci_low).toBeCloseTo(1.5 - half, 12)
    expect(row.ppi.cut_to_range!.value).toBeCloseTo(1.5, 12)
    // The judge-only share (3 of 5) lies inside [0, 1]; only its interval's upper end is cut.
    expect(row.judge_only.value).toBeCloseTo(0.6, 12)
    expect(row.judge_only.ci_low).toBeCloseTo(0.6 - z * Math.sqrt(0.24 / 5), 12)
    expect(row.judge_only.cut_to_range!.ci_low).toBe(row.judge_only.ci_low)
    for (const estimate of [row.human_only, row.judge_only, row.ppi, row.ppi_plus_plus]) {
      for (const v of [estimate.value, estimate.ci_low, estimate.ci_high]) if (v !== null) expect(v >= 0 && v <= 1).toBe(true)
    }
    const rows = [row]
    const lines = estimateCutLines(rows, (id) => id)
    expect(lines).toContain(`${CUT_MARK} model:j against human-majority, share of leak = true, Human only: cut to [0, 1], the range of the quantity; before the cut 0.500 [-0.193, 1.193]`)
    expect(lines.some((l) => l.includes('PPI: cut to [0, 1]') && l.includes('before the cut 1.500 [0.807, 2.193]'))).toBe(true)
    expect(estimateCell(row.human_only)).toBe(`0.500 [0.000, 1.000] ${CUT_MARK}`)
  })

  it('leaves out, counts and names the labelled units the judge was asked about but gave no value on', () => {
    const judge = source('model:j', 'model_import', [...Yhat, ...Yunlabelled])
    // The ninth labelled unit's answer could not be read; the tenth the judge was never asked.
    const calls = judge.calls.filter((c) => c.itemId !== 10).map((c) => (c.itemId === 9 ? { ...c, status: 'unparseable' as const, observations: [] } : c))
    const section = estimatesSection({ ...input, sources: [source('annotator:A01', 'annotator', Y), { ...judge, calls }] }, 0.95)!
    const row = section.rows.find((r) => r.source === 'model:j')!
    expect([row.n_labelled, row.n_unlabelled, row.n_left_out]).toEqual([8, 20, 1])
    expect(row.left_out?.units).toEqual(['t9/u'])
    expect(row.left_out?.reason).toContain('model:j was asked about them but gave no value')
    expect(row.warnings.join(' ')).toMatch(/1 unit\(s\) are left out/)
    expect(section.warnings.join(' ')).toMatch(/without a value from the judge/)
  })

  it('keeps Rogan–Gladen\'s figures before its own cut to [0, 1], its interval included', () => {
    // Sensitivity 1/2, specificity 1, every unlabelled unit called positive: the raw prevalence is (1 + 1 − 1) / 0.5 = 2.
    const rg: ReportInput = {
      ...input,
      items: input.items.slice(0, 7),
      sources: [source('annotator:A01', 'annotator', [1, 1, 0, 0]), source('model:j', 'model_import', [1, 0, 0, 0, 1, 1, 1])]
    }
    const row = estimatesSection(rg, 0.95)!.rows[0]!
    const r = row.rogan_gladen!
    expect([r.value, r.unclipped, r.ci_high]).toEqual([1, 2, 1])
    // A raw prevalence outside [0, 1] is said to be no estimate, with the judge's sensitivity + specificity − 1.
    expect(row.warnings.join(' ')).toContain("Rogan–Gladen's raw estimate is 2.000, outside [0, 1]: sensitivity + specificity − 1 is 0.500")
    const notes = estimateNoteLines([row], (id) => id)
    expect(notes.some((l) => l.startsWith("⚠ model:j against human-majority, share of leak = true: Rogan–Gladen's raw estimate is 2.000"))).toBe(true)
    expect(r.cut_to_range).toMatchObject({ range: [0, 1], value: 2 })
    expect(r.cut_to_range!.ci_low).toBeCloseTo(2 - 1.959963984540054 * r.se!, 12)
    expect(r.ci_low).toBe(Math.min(1, Math.max(0, r.cut_to_range!.ci_low!)))
  })

  it('cuts a mean of a scale to the scale\'s ends, and leaves a mean without declared ends as it is', () => {
    const scale = (level: 'ordinal' | 'interval', categories?: number[]): ReportInput => ({
      ...input,
      instrument: { ...input.instrument, fields: [{ name: 'score', label: 'Score', level, ...(categories ? { categories } : {}) }] },
      items: input.items.slice(0, 5),
      sources: [scored('annotator:A01', 'annotator', [1, 5]), scored('model:j', 'model_import', [1, 1, 5, 5, 5])]
    })
    const cut = estimatesSection(scale('ordinal', [1, 2, 3, 4, 5]), 0.95)!.rows[0]!
    expect(cut.human_only.ci_low).toBe(1)
    expect(cut.human_only.ci_high).toBe(5)
    expect(cut.human_only.cut_to_range!.range).toEqual([1, 5])
    const open = estimatesSection(scale('interval'), 0.95)!.rows[0]!
    expect(open.human_only.cut_to_range).toBeUndefined()
    expect(open.human_only.ci_low!).toBeLessThan(1)
  })
})

function scored(id: string, kind: ReportSourceInput['kind'], values: readonly number[]): ReportSourceInput {
  return {
    id,
    kind,
    name: id,
    detail: {},
    calls: values.map((v, i) => ({ itemId: i + 1, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'u', values: { score: v } }] }))
  }
}
