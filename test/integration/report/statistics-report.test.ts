import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import type { Report, ReportComparison } from '../../../src/shared/report'
import { vectors } from '../../unit/stats/vectors'
import { tempDir } from '../../support/tmp'
import { addCalls, addItems, addRun, annotate, type CallSpec } from './fixtures'

// Hand-built projects whose figures are known: published reference values (stats-vectors.json) and sums done by hand.

const tmp = tempDir('assay-report-stats-')
afterAll(() => tmp.cleanup())
const GENERATED_AT = '2026-01-01T00:00:00.000Z'

function comparison(report: Report, field: string, source: string, criterion: string): ReportComparison {
  const row = report.fields.find((f) => f.name === field)?.comparisons.find((c) => c.source === source && c.criterion === criterion)
  if (!row) throw new Error(`no ${field} comparison of ${source} against ${criterion}`)
  return row
}

async function project(name: string): Promise<Project> {
  return Project.create(tmp.file(`${name}.assay`))
}

describe('ordinal agreement on a declared 0..2 scale (irrCAC two-rater table)', () => {
  it('reproduces Cohen, linear and quadratic weighted kappa of the abstractors table', async () => {
    const p = await project('cue')
    const table = vectors.two_rater_table_abstractors.table
    const cells: Array<[number, number]> = []
    table.forEach((row, i) => row.forEach((count, j) => cells.push(...Array.from({ length: count }, (): [number, number] => [i, j]))))
    const ids = addItems(p, 'research-question', cells.map((_, k) => ({ id: `q${k}`, payload: { question_id: `q${k}`, question: `Question ${k}?` } })))
    const cue = (score: number) => ({ score, input_score: score, alternative_score: score, cue_excerpt: '', rationale: 'r', hidden: 'h' })
    annotate(p, 'cue-rating', cells.map(([human], k) => ({ item: ids.get(`q${k}`) as number, judgement: cue(human) })), { human: 'Rater' })
    const run = addRun(p, { instrument: 'cue-rating' })
    addCalls(p, run, cells.map(([, judge], k) => ({ item: ids.get(`q${k}`) as number, judgement: cue(judge) })))
    const report = projectReport(p.db, { instrument: 'cue-rating', generatedAt: GENERATED_AT })
    p.close()

    const row = comparison(report, 'score', `run:${run}`, 'human-majority')
    const expected = vectors.two_rater_table_abstractors.expected
    expect(row.cohen_kappa).toBeCloseTo(expected.cohen, 12)
    expect(row.weighted_kappa_linear).toBeCloseTo(expected.cohen_linear, 12)
    expect(row.weighted_kappa_quadratic).toBeCloseTo(expected.cohen_quadratic, 12)
    expect(row.confusion).toEqual({ categories: [0, 1, 2], counts: table })
    expect(row).toMatchObject({ n: 100, n_judged: 100, correct: 89, accuracy: 0.89, majority_baseline: 0.6, majority_label: [2] })
    // Per label: recall of each criterion category, e.g. 56 of the 60 units rated 2 by the person.
    expect(row.per_label?.map((l) => [l.label, l.correct, l.n])).toEqual([
      [0, 13, 13],
      [1, 20, 27],
      [2, 56, 60]
    ])
    expect(row.ci.weighted_kappa_quadratic?.method).toBe('cluster bootstrap (percentile)')
    // One annotator: no human–human ceiling, and the report says so.
    expect(report.warnings.map((w) => w.code)).toContain('no_human_ceiling')
    expect(report.ceiling[0]?.human_human).toMatchObject({ n_pairs: 0, mean: { accuracy: { value: null, n_pairs: 0, reason: 'no rater pairs' } } })
  })
})

describe('nominal agreement, and a judge whose every call failed', () => {
  it('gives kappa 0.3478 (scikit-learn case) and Gwet AC1 by hand, and leaves the failed judge out with its reason', async () => {
    const p = await project('olympiad')
    const human = [...Array(40).fill(false), ...Array(60).fill(true)] as boolean[]
    const judge = [...Array(20).fill(false), ...Array(20).fill(true), ...Array(10).fill(false), ...Array(50).fill(true)] as boolean[]
    const ids = addItems(p, 'fs-problem', human.map((_, k) => ({ id: `o${k}`, payload: { track: 'olympiad', problem: `P${k}`, answer: '42', response: '42' } })))
    const item = (k: number) => ids.get(`o${k}`) as number
    annotate(p, 'fs-olympiad-grade', human.map((correct, k) => ({ item: item(k), judgement: { correct } })), { human: 'Grader' })
    const run = addRun(p, { instrument: 'fs-olympiad-grade' })
    addCalls(p, run, judge.map((correct, k) => ({ item: item(k), judgement: { correct } })))
    const broken = addRun(p, { instrument: 'fs-olympiad-grade' })
    addCalls(p, broken, human.map((_, k): CallSpec => ({ item: item(k), status: 'failed' })))
    const report = projectReport(p.db, { instrument: 'fs-olympiad-grade', generatedAt: GENERATED_AT })
    p.close()

    const row = comparison(report, 'correct', `run:${run}`, 'human-majority')
    expect(row.cohen_kappa).toBeCloseTo(0.3478260869565216, 12)
    // AC1: p_a = 0.7; π = (40+30)/200 = 0.35 and 0.65; p_e = 2·0.35·0.65 = 0.455; (0.7 − 0.455)/(1 − 0.455).
    expect(row.gwet_ac1).toBeCloseTo(0.245 / 0.545, 12)
    expect(row).toMatchObject({ accuracy: 0.7, majority_baseline: 0.6, random_baseline: 0.5, below_majority_baseline: false })

    // A run whose every call failed is no judge to compare: listed with its reason, in no comparison.
    expect(report.sources.find((s) => s.id === `run:${broken}`)?.left_out).toEqual({ status: 'failed', reason: 'every call failed (100 of 100): nothing to compare' })
    expect(report.fields.some((f) => f.comparisons.some((c) => c.source === `run:${broken}`))).toBe(false)
  })
})

describe('rank correlations on a 1..10 scale', () => {
  it('reproduces Kendall tau-b with its exact p-value, and Spearman by hand', async () => {
    const p = await project('ideas')
    const { x, y } = vectors.kendall_no_ties
    const ids = addItems(p, 'idea', x.map((_, k) => ({ id: `i${k}`, payload: { idea: `Idea ${k}` } })))
    const review = (v: number) => ({ originality: v, feasibility: v, clarity: v })
    annotate(p, 'idea-review', x.map((v, k) => ({ item: ids.get(`i${k}`) as number, judgement: review(v) })), { human: 'Reviewer' })
    annotate(p, 'idea-review', y.map((v, k) => ({ item: ids.get(`i${k}`) as number, judgement: review(v) })), { model: 'critic-model' })
    const report = projectReport(p.db, { instrument: 'idea-review', generatedAt: GENERATED_AT })
    p.close()
    const row = comparison(report, 'originality', 'model:critic-model', 'human-majority')
    expect(row.kendall_tau_b).toBeCloseTo(vectors.kendall_no_ties.tau, 12)
    expect(row.kendall_p).toBeCloseTo(vectors.kendall_no_ties.p_exact, 12)
    // Σd² = 68 over 7 ranks: 1 − 6·68/(7·48).
    expect(row.spearman).toBeCloseTo(1 - (6 * 68) / (7 * 48), 12)
    expect(report.sources.find((s) => s.id === 'model:critic-model')).toMatchObject({ kind: 'model_import', role: 'judge' })
  })
})

describe('human ceiling: Krippendorff (2011) reliability data from four annotators', () => {
  const data = vectors.krippendorff_2011.data_observers_by_units
  const expected = vectors.krippendorff_2011.expected

  it('gives ordinal alpha over every annotator of an ordinal field', async () => {
    const p = await project('kripp-ordinal')
    const ids = addItems(p, 'idea', data[0]!.map((_, u) => ({ id: `u${u}`, payload: { idea: `Idea ${u}` } })))
    data.forEach((row, observer) => {
      const entries = row.flatMap((v, u) => (v === null ? [] : [{ item: ids.get(`u${u}`) as number, judgement: { originality: v, feasibility: v, clarity: v } }]))
      annotate(p, 'idea-review', entries, { human: `Observer ${observer}` })
    })
    const report = projectReport(p.db, { instrument: 'idea-review', generatedAt: GENERATED_AT })
    p.close()
    const ceiling = report.ceiling.find((c) => c.field === 'originality')
    expect(ceiling?.n_annotators).toBe(4)
    expect(ceiling?.human_human.krippendorff_alpha_ordinal).toBeCloseTo(expected.ordinal, 12)
    expect(ceiling?.human_human.n_pairs).toBe(6)
  })

  it('gives interval alpha over every annotator of an interval field (rubric points)', async () => {
    const p = await project('kripp-interval')
    const rubric = [{ points: 10, item: 'All of it' }]
    const ids = addItems(p, 'fs-problem', data[0]!.map((_, u) => ({ id: `r${u}`, payload: { track: 'research', problem: `P${u}`, answer: 'Points: 10, Item: All of it', rubric, response: 'R' } })))
    data.forEach((row, observer) => {
      const entries = row.flatMap((v, u) => (v === null ? [] : [{ item: ids.get(`r${u}`) as number, judgement: { total: v } }]))
      annotate(p, 'fs-research-grade', entries, { human: `Grader ${observer}` })
    })
    const report = projectReport(p.db, { instrument: 'fs-research-grade', generatedAt: GENERATED_AT })
    p.close()
    const human = report.ceiling.find((c) => c.field === 'total')?.human_human
    expect(human?.krippendorff_alpha_interval).toBeCloseTo(expected.interval, 12)
    // The lower levels that are meaningful for an interval field, under the same key names as in the comparisons.
    expect(human?.krippendorff_alpha_ordinal).toBeCloseTo(expected.ordinal, 12)
    expect(human?.krippendorff_alpha_nominal).toBeCloseTo(expected.nominal, 12)
    expect(human?.krippendorff_alpha_ratio).toBeUndefined()
  })
})

describe('rubric points: mean absolute difference of a judge from the grader', () => {
  it('reports MAD, mean difference and Pearson computed by hand', async () => {
    const p = await project('research')
    const rubric = [{ points: 10, item: 'All of it' }]
    const human = [7, 5.5, 9, 3]
    const judge = [7.5, 5.5, 8, 4]
    const ids = addItems(p, 'fs-problem', human.map((_, k) => ({ id: `r${k}`, payload: { track: 'research', problem: `P${k}`, answer: 'Points: 10, Item: All of it', rubric, response: 'R' } })))
    annotate(p, 'fs-research-grade', human.map((total, k) => ({ item: ids.get(`r${k}`) as number, judgement: { total } })), { human: 'Grader' })
    const run = addRun(p, { instrument: 'fs-research-grade' })
    addCalls(p, run, judge.map((total, k) => ({ item: ids.get(`r${k}`) as number, judgement: { total } })))
    const report = projectReport(p.db, { instrument: 'fs-research-grade', generatedAt: GENERATED_AT })
    p.close()
    const row = comparison(report, 'total', `run:${run}`, 'human-majority')
    expect(row.mean_abs_diff).toBeCloseTo((0.5 + 0 + 1 + 1) / 4, 12)
    expect(row.mean_diff).toBeCloseTo((0.5 + 0 - 1 + 1) / 4, 12)
    // Σdx·dy = 13.625, Σdx² = 19.1875, Σdy² = 10.25.
    expect(row.pearson).toBeCloseTo(13.625 / Math.sqrt(19.1875 * 10.25), 12)
    expect(row.ci.mean_abs_diff?.resamples).toBe(2000)
    expect(row).not.toHaveProperty('accuracy')
    const passed = comparison(report, 'passed', `run:${run}`, 'human-majority')
    expect(passed).toMatchObject({ n: 4, correct: 4, accuracy: 1 })
  })
})

describe('calibration of a probability against a reference outcome', () => {
  it('reproduces the reliability bins, ECE 0.1, Brier, log loss and AUROC, and leaves an undefined AUROC null', async () => {
    const p = await project('preprints')
    const curve = vectors.calibration_curve.uniform2
    const ids = addItems(p, 'preprint-pair', curve.y.map((_, k) => ({ id: `pp${k}`, payload: { paper: { title: `Paper ${k}`, abstract: 'A' }, preprint: { title: `Preprint ${k}`, abstract: 'B' } } })))
    annotate(p, 'preprint-same-study', curve.y.map((y, k) => ({ item: ids.get(`pp${k}`) as number, judgement: { same_study: y === 1, confidence: 1, reason: 'DOI' } })), { reference: 'crossref' })
    const run = addRun(p, { instrument: 'preprint-same-study' })
    addCalls(p, run, curve.p.map((prob, k) => ({ item: ids.get(`pp${k}`) as number, judgement: { same_study: prob >= 0.5, confidence: prob >= 0.5 ? prob : 1 - prob, reason: 'r' } })))
    const report = projectReport(p.db, { instrument: 'preprint-same-study', generatedAt: GENERATED_AT })
    p.close()
    const row = comparison(report, 'p_same_study', `run:${run}`, 'reference:crossref')
    expect(row.outcome).toBe('same_study of the criterion')
    expect(row.ece).toBeCloseTo(curve.ece_computed, 12)
    expect(row.brier).toBeCloseTo((0 + 0.01 + 0.04 + 0.04 + 0.01 + 0) / 6, 12)
    expect(row.log_loss).toBeCloseTo((-2 * Math.log(0.9) - 2 * Math.log(0.8)) / 6, 12)
    expect(row.auroc).toBe(1)
    expect(row.reliability?.map((b) => [b.lower, b.count, b.observed_frequency])).toEqual([
      [0, 2, 0],
      [0.1, 1, 0],
      [0.7, 1, 1],
      [0.8, 1, 1],
      [0.9, 1, 1]
    ])
    // Confidence in its own answer, scored on whether that answer was right: every answer was, so AUROC is undefined.
    const confidence = comparison(report, 'confidence', `run:${run}`, 'reference:crossref')
    expect(confidence).toMatchObject({ n: 6, n_positive: 6, n_negative: 0, auroc: null })
    expect(confidence.reasons.auroc).toBe('only one class present (6 positive, 0 negative)')
    expect(report.warnings.find((w) => w.code === 'too_few_items')?.message).toContain('6 against Reference (crossref)')
  })
})

describe('the cross-company match panel', () => {
  it('counts only judges from companies other than the generator’s', async () => {
    const p = await project('panel')
    addItems(p, 'rediscovery-task', [{ id: 't1', payload: { task_id: 't1', background: 'B', question: 'Q?', finding: 'F', key_points: [] } }])
    const hypotheses = [
      { id: 'h1', statement: 'S1', mechanism: 'M', prediction: 'P' },
      { id: 'h2', statement: 'S2', mechanism: 'M', prediction: 'P' }
    ]
    const ids = addItems(p, 'hypothesis-set', [
      { id: 's1', payload: { set_id: 's1', task_id: 't1', generator: 'gpt-gen', company: 'openai', hypotheses } },
      { id: 's2', payload: { set_id: 's2', task_id: 't1', generator: 'claude-gen', company: 'anthropic', hypotheses } }
    ])
    const scores = (h1: number, h2: number) => ({
      scores: [
        { id: 'h1', match: h1, compatible: true, plausibility: 3, reason: 'r' },
        { id: 'h2', match: h2, compatible: true, plausibility: 3, reason: 'r' }
      ]
    })
    // match by judge (company) on [s1h1, s1h2, s2h1, s2h2]; s1 is OpenAI's, s2 Anthropic's.
    const judges: Array<[string, string, number[]]> = [
      ['gpt-judge', 'openai', [5, 5, 5, 3]],
      ['claude-judge', 'anthropic', [3, 2, 5, 5]],
      ['gemini-judge', 'google', [4, 3, 2, 3]],
      ['grok-judge', 'xai', [1, 2, 1, 0]]
    ]
    for (const [judge, company, m] of judges) {
      const run = addRun(p, { instrument: 'hypothesis-match', judge, company })
      addCalls(p, run, [
        { item: ids.get('s1') as number, judgement: scores(m[0]!, m[1]!) },
        { item: ids.get('s2') as number, judgement: scores(m[2]!, m[3]!) }
      ])
    }
    annotate(p, 'hypothesis-match', [
      { item: ids.get('s1') as number, judgement: scores(4, 1) },
      { item: ids.get('s2') as number, judgement: scores(3, 4) }
    ], { human: 'Biologist' })
    const report = projectReport(p.db, { instrument: 'hypothesis-match', generatedAt: GENERATED_AT })
    p.close()
    // s1h1: anthropic 3, google 4, xai 1 → matched; s1h2: 2, 3, 2 → not; s2h1: openai 5, google 2, xai 1 → not
    // (Anthropic's own 5 does not count); s2h2: openai 3, google 3, xai 0 → matched. Against the person
    // (matched, not, matched, matched): 3 of 4.
    const row = comparison(report, 'matched', 'panel', 'human-majority')
    expect(row).toMatchObject({ n: 4, correct: 3, accuracy: 0.75 })
    expect(row.confusion).toEqual({ categories: [false, true], counts: [[1, 0], [1, 2]] })
    expect(report.settings.panel_rule).toMatch(/at least 2 of the 3 judges from companies other than the generator's/)
    expect(report.sources.find((s) => s.id === 'panel')).toMatchObject({ kind: 'panel', role: 'judge', n_items: 2 })
    // The panel answers only `matched`: it has no row for the other fields.
    expect(report.fields.find((f) => f.name === 'match')?.comparisons.some((c) => c.source === 'panel')).toBe(false)
  })
})
