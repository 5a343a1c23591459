import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { projectReport } from '../../../src/main/report'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { renderReportHtml, renderReportText, type Report } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { addCalls, addRun } from './fixtures'

// FrontierScience's research grade passes at 7 of 10 points: where answers are combined (a majority of annotators, a
// judge's trials), the pass is read from the combined points, so a source's pass never contradicts its total.
const tmp = tempDir('assay-derived-fields-')
afterAll(() => tmp.cleanup())

let report: Report
beforeAll(async () => {
  const path = tmp.file('research.assay')
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  const project = await Project.open(path)
  const [first, second] = (project.db.prepare(`SELECT external_id FROM items WHERE kind = 'fs-problem' AND json_extract(payload, '$.track') = 'research' ORDER BY id LIMIT 2`).all() as Array<{ external_id: string }>).map((r) => r.external_id)
  project.close()
  const answer = (item: string | undefined, source: string, kind: 'human' | 'model', total: number) =>
    JSON.stringify({ item, instrument: 'fs-research-grade', source, source_kind: kind, judgement: { total } })
  const rows = [
    // Two of three graders fail the first response, but their mean total is 7.5: the majority passes it.
    answer(first, 'Ann One', 'human', 6.5),
    answer(first, 'Ann Two', 'human', 6.5),
    answer(first, 'Ann Three', 'human', 9.5),
    answer(second, 'Ann One', 'human', 3),
    answer(second, 'Ann Two', 'human', 4),
    answer(second, 'Ann Three', 'human', 3.5),
    answer(first, 'imp', 'model', 7.5),
    answer(second, 'imp', 'model', 3.5)
  ]
  const labels = tmp.file('labels.jsonl')
  writeFileSync(labels, `${rows.join('\n')}\n`)
  expect((await runCli('import', path, 'labels', labels)).code).toBe(0)
  const reopened = await Project.open(path)
  try {
    // A judge run whose two trials on the first response give 6 and 9 (mean 7.5): it passes, with no split vote.
    const ids = new Map((reopened.db.prepare(`SELECT id, external_id FROM items WHERE external_id IN (?, ?)`).all(first, second) as Array<{ id: number; external_id: string }>).map((r) => [r.external_id, r.id]))
    const run = addRun(reopened, { instrument: 'fs-research-grade', judge: 'trials', trials: 2 })
    addCalls(reopened, run, [
      { item: ids.get(first as string) as number, trial: 0, judgement: { total: 6 } },
      { item: ids.get(first as string) as number, trial: 1, judgement: { total: 9 } },
      { item: ids.get(second as string) as number, trial: 0, judgement: { total: 3 } },
      { item: ids.get(second as string) as number, trial: 1, judgement: { total: 4 } }
    ])
    report = projectReport(reopened.db, { instrument: 'fs-research-grade', seed: 5 })
  } finally {
    reopened.close()
  }
})

describe('a pass read from combined points', () => {
  it('agrees with the total for the human majority and for a judge\'s trials', () => {
    const passed = report.fields.find((f) => f.name === 'passed')!.comparisons.find((r) => r.source === 'model:imp' && r.criterion === 'human-majority')!
    const total = report.fields.find((f) => f.name === 'total')!.comparisons.find((r) => r.source === 'model:imp' && r.criterion === 'human-majority')!
    // The judge's mean total equals the majority's on both responses: its pass agrees on both.
    expect(total.mean_abs_diff).toBe(0)
    expect(passed.n).toBe(2)
    expect(passed.accuracy).toBe(1)
    expect(passed.n_no_value).toBe(0)
    // A run's trials that split on the pass (6 fails, 9 passes) but not on the points: the pass of their mean, no tied vote.
    const run = report.fields.find((f) => f.name === 'passed')!.comparisons.find((r) => r.source.startsWith('run:') && r.criterion === 'human-majority')!
    expect(run.n).toBe(2)
    expect(run.n_no_value).toBe(0)
    expect(run.accuracy).toBe(1)
    expect(report.sources.find((s) => s.id === run.source)?.n_tied_votes).toBe(0)
  })

  it('is read from the others\' mean points when an annotator is scored against the majority of the others', () => {
    // 6.5 against the others' 8.0 (6.5, 9.5): a pass it failed; 9.5 against their 6.5: a fail it passed. All three
    // fail the second response, as the others do.
    const rows = report.fields.find((f) => f.name === 'passed')!.comparisons.filter((r) => r.criterion_form === 'majority_of_others')
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      expect(row.n).toBe(2)
      expect(row.accuracy).toBe(0.5)
    }
  })

  it('says when a ceiling average over pairs of annotators leaves a pair out, in the text and the HTML', () => {
    const passed = report.ceiling.find((c) => c.field === 'passed')!
    const kappa = passed.human_human.mean.cohen_kappa!
    expect(kappa.n_pairs).toBeLessThan(passed.human_human.n_pairs)
    const left = passed.human_human.n_pairs - kappa.n_pairs
    expect(renderReportText(report)).toContain(`Cohen's κ of pairs of annotators: over ${kappa.n_pairs} of ${passed.human_human.n_pairs} pairs (undefined for ${left})`)
    expect(renderReportHtml(report)).toContain(`over ${kappa.n_pairs} of ${passed.human_human.n_pairs} pairs`)
  })

  it('names the annotators a ceiling statistic is undefined for, rather than counting only the others', () => {
    const card = report.summary.find((c) => c.source === 'model:imp' && c.field === 'passed')!
    const ceiling = card.human_ceiling!
    expect(ceiling.n_annotators + (ceiling.n_undefined ?? 0)).toBe(3)
    if (ceiling.n_undefined) expect(renderReportText(report)).toContain(`${ceiling.n_annotators} of 3 annotators (undefined for ${ceiling.n_undefined})`)
  })
})

describe('a threshold fit aimed at the pass', () => {
  it('is scored on the pass it gives, though it gives no points to read a pass from', async () => {
    const path = tmp.file('fit.assay')
    expect((await runCli('new', path, '--demo')).code).toBe(0)
    const project = await Project.open(path)
    try {
      const demo = project.db.prepare(`SELECT payload FROM items WHERE kind = 'fs-problem' AND json_extract(payload, '$.track') = 'research' LIMIT 1`).get() as { payload: string }
      const items: NewItem[] = Array.from({ length: 12 }, (_, i) => ({ kind: 'fs-problem', externalId: `r-${i}`, set: 'research', split: i % 2 ? 'test' : 'dev', payload: JSON.parse(demo.payload) as Record<string, unknown> }))
      project.write((db) => insertItems(db, items))
    } finally {
      project.close()
    }
    // People's points, and a judge that gives one and a half more.
    const points = [2, 9, 8, 4, 6.5, 7.5, 9.5, 3, 5, 8.5, 1, 7]
    const rows = points.flatMap((p, i) => [
      JSON.stringify({ item: `r-${i}`, instrument: 'fs-research-grade', source: 'Ann One', source_kind: 'human', judgement: { total: p } }),
      JSON.stringify({ item: `r-${i}`, instrument: 'fs-research-grade', source: 'Ann Two', source_kind: 'human', judgement: { total: p } }),
      JSON.stringify({ item: `r-${i}`, instrument: 'fs-research-grade', source: 'imp', source_kind: 'model', judgement: { total: Math.min(10, p + 1.5) } })
    ])
    writeFileSync(tmp.file('fit.jsonl'), `${rows.join('\n')}\n`)
    expect((await runCli('import', path, 'labels', tmp.file('fit.jsonl'))).code).toBe(0)
    const reopened = await Project.open(path)
    try {
      const { fits } = calibrate(reopened, { instrument: 'fs-research-grade', source: 'model:imp', method: 'threshold', scoreField: 'total', targetField: 'passed' })
      const fitted = projectReport(reopened.db, { instrument: 'fs-research-grade', seed: 5 })
      const row = fitted.fields.find((f) => f.name === 'passed')!.comparisons.find((r) => r.source === fits[0]!.source && r.criterion === 'human-majority')
      expect(row?.n).toBe(6)
      expect(fitted.summary.some((c) => c.source === fits[0]!.source && c.field === 'passed')).toBe(true)
    } finally {
      reopened.close()
    }
  })
})
