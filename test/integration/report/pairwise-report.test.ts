import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import { reportSchema, type Report, type ReportPairwiseRow } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, annotate, expose, verdictFor, type CallSpec, type PairSpec } from './fixtures'

const tmp = tempDir('assay-report-')
afterAll(() => tmp.cleanup())

const other = (side: 'a' | 'b'): 'a' | 'b' => (side === 'a' ? 'b' : 'a')

function rowOf(report: Report, source: string, criterion: string): ReportPairwiseRow {
  const row = report.pairwise?.rows.find((r) => r.source === source && r.criterion === criterion)
  if (!row) throw new Error(`no pairwise row ${source} vs ${criterion}`)
  return row
}

describe('IdeaEval denominators: 95 correct of 152 judged, of all 160', () => {
  let report: Report
  let runId: number
  beforeAll(async () => {
    const project = await Project.create(tmp.file('denominators.assay'))
    // Canonical winners alternate so the side-majority baseline is exactly 1/2.
    const pairs: PairSpec[] = Array.from({ length: 160 }, (_, i) => ({ id: `p${i}`, label: verdictFor(i % 2 ? 'b' : 'a'), labelSource: 'citations' }))
    const ids = addPairs(project, pairs)
    runId = addRun(project, { instrument: 'pairwise-preference', judge: 'glm' })
    // 95 right, 52 wrong, 5 completed but unreadable (incorrect), 8 failed after their retries.
    const calls: CallSpec[] = pairs.map((p, i) => {
      const item = ids.get(p.id) as number
      const truth: 'a' | 'b' = i % 2 ? 'b' : 'a'
      if (i < 95) return { item, judgement: { verdict: verdictFor(truth) } }
      if (i < 147) return { item, judgement: { verdict: verdictFor(other(truth), 'much_better') } }
      if (i < 152) return { item, status: 'unparseable' }
      return { item, status: 'failed' }
    })
    addCalls(project, runId, calls)
    report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
  })

  it('reports both denominators, with failures listed and unparseable answers counted as wrong', () => {
    const row = rowOf(report, `run:${runId}`, 'label:citations')
    // The accuracy rests on the 152 items with a judged call, as the field table's row counts them; "of all in scope"
    // on all 160, with its Wilson interval over those 160 items.
    expect(row).toMatchObject({ n_in_scope: 160, n_judged: 152, n_failed: 8, n_unparseable: 5, n_abstained: 0, n_pending: 0, correct: 95, n_items: 152 })
    expect(row.ci.accuracy_of_all).toMatchObject({ method: 'wilson', n: 160 })
    expect(row.accuracy).toBe(0.625)
    expect(row.accuracy_of_all).toBe(0.59375)
    expect(row.majority_baseline).toBe(0.5)
    expect(row.random_baseline).toBe(0.5)
    expect(row.below_majority_baseline).toBe(false)
    // Wilson 95% for 95/152, by the closed form with z = 1.959963984540054.
    const z = 1.959963984540054
    const p = 95 / 152
    const centre = (p + (z * z) / (2 * 152)) / (1 + (z * z) / 152)
    const half = (z / (1 + (z * z) / 152)) * Math.sqrt((p * (1 - p)) / 152 + (z * z) / (4 * 152 * 152))
    expect(row.ci.accuracy?.ci_low).toBeCloseTo(centre - half, 12)
    expect(row.ci.accuracy?.ci_high).toBeCloseTo(centre + half, 12)
    expect(row.ci.accuracy_bootstrap).toMatchObject({ method: 'cluster bootstrap (percentile)', resamples: 2000, seed: report.settings.bootstrap.seed })
    expect(row.ci.accuracy_bootstrap?.ci_low).toBeLessThan(0.625)
    expect(row.ci.accuracy_bootstrap?.ci_high).toBeGreaterThan(0.625)
  })

  it('lists the source with its own counts', () => {
    const source = report.sources.find((s) => s.id === `run:${runId}`)
    expect(source).toMatchObject({ kind: 'judge_run', role: 'judge', n_items: 160, n_calls: 160, n_answered: 147, n_failed: 8, n_unparseable: 5 })
    expect(report.criteria).toEqual(['label:citations'])
  })

  it('scores the verdict field on its declared ordinal scale and the winner field as nominal', () => {
    const winner = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === `run:${runId}`)
    expect(winner).toMatchObject({ n_in_scope: 160, n: 147, n_judged: 152, n_items: 152, n_failed: 8, n_unparseable: 5, correct: 95 })
    expect(winner?.accuracy).toBe(0.625)
    const verdict = report.fields.find((f) => f.name === 'verdict')?.comparisons.find((c) => c.source === `run:${runId}`)
    expect(verdict?.confusion?.categories).toEqual(['a_much_better', 'a_better', 'b_better', 'b_much_better'])
    expect(verdict).toHaveProperty('weighted_kappa_quadratic')
    expect(verdict).not.toHaveProperty('gwet_ac1')
  })

  it('is valid against its schema without losing a key', () => {
    expect(reportSchema.parse(report)).toEqual(report)
  })
})

describe('IdeaEval old human-vs-AI set: a judge below the majority baseline', () => {
  let report: Report
  let runId: number
  let ids: Map<string, number>
  beforeAll(async () => {
    const project = await Project.create(tmp.file('old-set.assay'))
    // 57 pairs where the human proposal is better, 18 where the AI one is; humans on side a in even pairs.
    const pairs: PairSpec[] = Array.from({ length: 75 }, (_, i) => {
      const humanSide: 'a' | 'b' = i % 2 ? 'b' : 'a'
      const humanBetter = i < 57
      return {
        id: `old${i}`,
        origins: humanSide === 'a' ? ['human', 'ai'] : ['ai', 'human'],
        generators: humanSide === 'a' ? [null, 'ai-scientist'] : ['ai-scientist', null],
        label: verdictFor(humanBetter ? humanSide : other(humanSide)),
        labelSource: 'expert',
        split: 'test'
      }
    })
    ids = addPairs(project, pairs)
    runId = addRun(project, { instrument: 'pairwise-preference', judge: 'claude' })
    // 22 of 57 human-better right; 15 of 18 AI-better right: 37/75.
    addCalls(
      project,
      runId,
      pairs.map((p, i) => {
        const humanSide: 'a' | 'b' = i % 2 ? 'b' : 'a'
        const truth = i < 57 ? humanSide : other(humanSide)
        const right = i < 57 ? i < 22 : i - 57 < 15
        return { item: ids.get(p.id) as number, judgement: { verdict: verdictFor(right ? truth : other(truth)) } }
      })
    )
    // People marked 15 proposals fatal; the judge ruled against 8 of them. Pairs 0..14: the fatal side is the
    // human one; the judge ruled against the human side exactly where it picked the AI proposal.
    const fatalPairs = [...Array.from({ length: 8 }, (_, k) => 22 + k), ...Array.from({ length: 7 }, (_, k) => k)]
    annotate(
      project,
      'flaw-audit',
      fatalPairs.map((i) => ({
        item: ids.get(`old${i}`) as number,
        judgement: { flaws: [{ side: i % 2 ? 'b' : 'a', type: 'unsound_method', severity: 'fatal', evidence: 'Proposal', note: '' }] }
      })),
      { human: 'Rita' }
    )
    expose(project, ids.get('old3') as number, 'label_viewed')
    expose(project, ids.get('old4') as number, 'prompt_revision')
    report = projectReport(project.db, { instrument: 'pairwise-preference', split: 'test', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
  })

  it('states labels in human/AI terms, recounted from the rows: 57 human-better, 18 AI-better', () => {
    expect(report.pairwise?.label_terms).toBe('origin')
    const row = rowOf(report, `run:${runId}`, 'label:expert')
    expect(row.label_counts).toEqual({ human: 57, ai: 18 })
    expect(row.majority_label).toEqual(['human'])
    expect(row.majority_baseline).toBe(0.76)
  })

  it('scores 37/75 and flags it below the majority baseline of 57/75', () => {
    const row = rowOf(report, `run:${runId}`, 'label:expert')
    expect(row.correct).toBe(37)
    expect(row.accuracy).toBeCloseTo(37 / 75, 15)
    expect(row.below_majority_baseline).toBe(true)
    const warning = report.warnings.find((w) => w.code === 'below_majority_baseline' && w.source === `run:${runId}`)
    expect(warning?.message).toContain('37/75 = 49.3% < 76.0%')
  })

  it('gives accuracy per label subset: 15/18 on AI-better, 22/57 on human-better', () => {
    const row = rowOf(report, `run:${runId}`, 'label:expert')
    expect(row.per_label.map((l) => [l.label, l.correct, l.n])).toEqual([
      ['human', 22, 57],
      ['ai', 15, 18]
    ])
    const ai = row.subsets.find((s) => s.by === 'label' && s.value === 'ai')
    expect(ai?.accuracy).toBeCloseTo(15 / 18, 15)
  })

  it('counts fatal-flaw recall: of 15 proposals people marked fatal, the judge ruled against 8', () => {
    const row = report.pairwise?.fatal_flaws.find((f) => f.source === `run:${runId}`)
    expect(row).toMatchObject({ n_fatal: 15, n_judged: 15, n_ruled_against: 8, n_both_fatal: 0 })
    expect(row?.fatal_flaw_recall).toBeCloseTo(8 / 15, 15)
    expect(report.pairwise?.n_fatal_flaw_audits).toBe(15)
  })

  it('warns about exposed test items and names the kinds of exposure', () => {
    expect(report.scope).toMatchObject({ split: 'test', n_items: 75, n_test_items: 75, n_exposed_test_items: 2, exposure_kinds: { label_viewed: 1, prompt_revision: 1 } })
    expect(report.warnings.find((w) => w.code === 'exposed_test_items')?.message).toContain('2 of 75 test items were exposed')
  })

  it('gives win rates of the AI system against the human proposals it met', () => {
    const systems = report.pairwise?.systems.find((s) => s.source === `run:${runId}`)
    // The judge picked the AI side in 35 of 57 human-better pairs and 15 of 18 AI-better pairs.
    expect(systems?.win_rates).toEqual([
      { system: 'ai-scientist', wins: 50, ties: 0, losses: 25, missing: 0, m: 75, win_rate: 50 / 75, win_rate_of_judged: 50 / 75, cohorts: 0 }
    ])
    expect(systems?.players).toEqual(['ai-scientist', 'human'])
    const strengths = Object.fromEntries(systems?.bradley_terry.map((s) => [s.player, s.strength]) ?? [])
    // Two players: P(ai beats human) = 50/75, so the centred log-strengths are ±ln(2)/2.
    expect(strengths['ai-scientist']).toBeCloseTo(Math.log(2) / 2, 8)
    expect(strengths.human).toBeCloseTo(-Math.log(2) / 2, 8)
  })
})

describe('position bias from runs in both display orders', () => {
  it('counts consistent pairs and first-position picks over every call', async () => {
    const project = await Project.create(tmp.file('position.assay'))
    const pairs: PairSpec[] = Array.from({ length: 10 }, (_, i) => ({ id: `pos${i}`, label: verdictFor('a') }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', bothOrders: true })
    // Pairs 0..5 get verdict a in both orders; pairs 6..9 get whichever side is shown first.
    const calls: CallSpec[] = pairs.flatMap((p, i) =>
      [false, true].map((swapped, order) => {
        const firstShown: 'a' | 'b' = swapped ? 'b' : 'a'
        return { item: ids.get(p.id) as number, order, swapped, judgement: { verdict: verdictFor(i < 6 ? 'a' : firstShown) } }
      })
    )
    addCalls(project, run, calls)
    const report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
    const position = report.pairwise?.position.find((p) => p.source === `run:${run}`)
    // Consistent: 6 of 10 pairs. Picked first: 6 (consistent pairs, order 0) + 8 (the others, both orders) of 20.
    expect(position).toMatchObject({ n_compared: 10, n_consistent: 6, n_incomplete: 0, position_consistency: 0.6, n_answered: 20, n_picked_first: 14, first_position_preference: 0.7 })
    const row = rowOf(report, `run:${run}`, 'label')
    // Call by call: 12 + 4 of 20 right; item by item the position-driven pairs are tied votes and have no winner.
    expect(row).toMatchObject({ n_in_scope: 20, n_judged: 20, correct: 16, n_items: 10 })
    const winner = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === `run:${run}`)
    expect(winner).toMatchObject({ n_in_scope: 10, n: 6, n_no_value: 4, correct: 6 })
    expect(report.sources.find((s) => s.id === `run:${run}`)?.n_tied_votes).toBe(4)
  })
})

describe('judge against judge on the same pairs', () => {
  it('gives the exact McNemar p of the statsmodels case and a paired bootstrap of the difference', async () => {
    const project = await Project.create(tmp.file('mcnemar.assay'))
    // [[both right, only first], [only second, both wrong]] = [[101, 70], [59, 33]].
    const [[bothRight, onlyFirst], [onlySecond, bothWrong]] = [[101, 70], [59, 33]] as const
    const n = bothRight + onlyFirst + onlySecond + bothWrong
    const pairs: PairSpec[] = Array.from({ length: n }, (_, i) => ({ id: `m${i}`, label: verdictFor('a') }))
    const ids = addPairs(project, pairs)
    const first = addRun(project, { instrument: 'pairwise-preference', judge: 'first' })
    const second = addRun(project, { instrument: 'pairwise-preference', judge: 'second' })
    const rightFirst = (i: number) => i < bothRight + onlyFirst
    const rightSecond = (i: number) => i < bothRight || (i >= bothRight + onlyFirst && i < bothRight + onlyFirst + onlySecond)
    addCalls(project, first, pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(rightFirst(i) ? 'a' : 'b') } })))
    addCalls(project, second, pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(rightSecond(i) ? 'a' : 'b') } })))
    const report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
    const row = report.judge_vs_judge.find((r) => r.field === 'winner' && r.first === `run:${first}` && r.second === `run:${second}`)
    expect(row).toMatchObject({ n: 263, n_items: 263, both_correct: 101, only_first: 70, only_second: 59, both_wrong: 33, statistic: 'accuracy' })
    expect(row?.mcnemar_p).toBeCloseTo(0.3786876626931185, 12)
    expect(row?.difference).toBeCloseTo((171 - 160) / 263, 15)
    expect(row?.ci.difference).toMatchObject({ method: 'paired cluster bootstrap (percentile)', resamples: 2000 })
    expect(row?.ci.difference?.ci_low).toBeLessThan(row?.difference as number)
    expect(row?.ci.difference?.ci_high).toBeGreaterThan(row?.difference as number)
  })
})

describe('ties, where trials of a call split evenly', () => {
  it('counts them both ways: kept as not correct, and dropped from both denominators', async () => {
    const project = await Project.create(tmp.file('ties.assay'))
    const pairs: PairSpec[] = Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, label: verdictFor('a') }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', trials: 2 })
    // Pairs 0..5: both trials right; 6..7: one trial each way (a tie); 8..9: both trials wrong.
    addCalls(
      project,
      run,
      pairs.flatMap((p, i) =>
        [0, 1].map((trial) => ({ item: ids.get(p.id) as number, trial, judgement: { verdict: verdictFor(i < 6 || (i < 8 && trial === 0) ? 'a' : 'b') } }))
      )
    )
    const report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
    const row = rowOf(report, `run:${run}`, 'label')
    expect(row).toMatchObject({ n_in_scope: 10, n_judged: 10, n_ties: 2, correct: 6, accuracy: 0.6, accuracy_ties_dropped: 0.75 })
    expect(row.ci.accuracy_ties_dropped?.method).toBe('wilson')
  })
})
