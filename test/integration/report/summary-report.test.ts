import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import { renderReportText, reportSchema, summaryCardsHtml, type Report } from '../../../src/shared/report'
import { clopperPearsonInterval, cohenKappaWithSe, mcnemarMidP, wilsonInterval } from '../../../src/shared/stats'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, annotate, demoAfterJudgeRun, verdictFor } from './fixtures'

// The summary cards and the rules stated once, on the demo after a judge run in both orders (run:1), a judge run in
// one order (run:2 is asked again in the other order only for some pairs), imported judges and five annotators.
const tmp = tempDir('assay-report-summary-')
let report: Report
beforeAll(async () => {
  const project = await demoAfterJudgeRun(tmp.file('demo.assay'))
  try {
    report = projectReport(project.db, { instrument: 'pairwise-preference', seed: 11 })
  } finally {
    project.close()
  }
})
afterAll(() => tmp.cleanup())

describe('summary cards', () => {
  it('has one card per judge and field, each repeating the figures of the tables it summarises', () => {
    expect(reportSchema.parse(report)).toBeTruthy()
    const judges = report.sources.filter((s) => s.role === 'judge').map((s) => s.id)
    const winnerCards = report.summary.filter((c) => c.field === 'winner')
    expect(winnerCards.map((c) => c.source).sort()).toEqual([...judges].sort())
    for (const card of winnerCards) {
      const row = report.pairwise?.rows.find((r) => r.source === card.source && r.criterion === card.criterion)
      expect(row, card.source).toBeTruthy()
      expect(card.accuracy.value).toBe(row?.accuracy)
      expect(card.majority_baseline).toBe(row?.majority_baseline)
      expect(card.random_baseline).toBe(0.5)
      const withPeople = report.fields
        .find((f) => f.name === 'winner')
        ?.comparisons.find((r) => r.source === card.source && r.criterion === 'human-majority')
      expect(card.agreement).toMatchObject({ statistic: 'cohen_kappa', against: 'human-majority', value: withPeople?.cohen_kappa })
    }
  })

  it('sets each judge beside the human ceiling: every annotator against the majority of the others', () => {
    const card = report.summary.find((c) => c.field === 'winner' && c.source === 'run:1')
    const annotatorRows = report.fields
      .find((f) => f.name === 'winner')
      ?.comparisons.filter((r) => r.criterion === 'human-majority' && r.source.startsWith('annotator:')) ?? []
    const kappas = annotatorRows.map((r) => r.cohen_kappa as number)
    expect(card?.human_ceiling).toMatchObject({
      rule: 'each annotator against the majority of the other annotators',
      n_annotators: kappas.length,
      min: Math.min(...kappas),
      max: Math.max(...kappas)
    })
    expect(card?.human_ceiling?.value).toBeCloseTo(kappas.reduce((s, k) => s + k, 0) / kappas.length, 12)
  })

  it('says in plain words where a judge stands, flags too few items, and carries fatal-flaw recall and position bias', () => {
    const style = report.summary.find((c) => c.field === 'winner' && c.source === 'model:demo-style-judge')
    expect(style?.verdicts).toEqual(expect.arrayContaining(['too_few_items', 'below_majority_baseline', 'misses_fatal_flaws']))
    expect(style?.verdict).toMatch(/^Too few items to say \(12, fewer than 30\); below its majority baseline/)
    expect(style?.fatal_flaw_recall).toMatchObject({ value: 0.2, n: 5, ci_method: 'wilson' })
    const run = report.summary.find((c) => c.field === 'winner' && c.source === 'run:1')
    expect(run?.position).toMatchObject({ n_pairs: 12, consistency: 1, biased_to_first: 0, biased_to_second: 0, preference_fairness: 0 })
    expect(style?.position).toBeNull()
  })
})

describe('a report without a card', () => {
  it('says why: judges with nothing to score them against are not "no judge"', async () => {
    const p = await Project.create(tmp.file('no-criterion.assay'))
    try {
      const ids = [...addPairs(p, [{ id: 'u1' }, { id: 'u2' }]).values()]
      const run = addRun(p, { instrument: 'pairwise-preference', judge: 'lone-judge' })
      addCalls(p, run, ids.map((item) => ({ item, judgement: { verdict: verdictFor('a'), analysis: '' } })))
      const report = projectReport(p.db, { instrument: 'pairwise-preference', seed: 3 })
      expect(report.summary).toEqual([])
      const why = 'No card: 1 judge but nothing to score them against (no reference labels, adjudications or annotations); the Sources table lists them.'
      expect(summaryCardsHtml(report)).toContain(why)
      expect(renderReportText(report)).toContain(why)
      expect(summaryCardsHtml(report)).not.toContain('No judge to summarise')
    } finally {
      p.close()
    }
  })
})

describe('a judge none of whose answers could be read', () => {
  it('keeps its card, scored as the tables score it, and says that its answers were unreadable', async () => {
    const p = await Project.create(tmp.file('unreadable.assay'))
    try {
      const ids = [...addPairs(p, [{ id: 'r1', label: verdictFor('a') }, { id: 'r2', label: verdictFor('b') }, { id: 'r3', label: verdictFor('a') }]).values()]
      const run = addRun(p, { instrument: 'pairwise-preference', judge: 'garbled-judge' })
      addCalls(p, run, ids.map((item) => ({ item, status: 'unparseable' as const })))
      const report = projectReport(p.db, { instrument: 'pairwise-preference', seed: 3 })
      const card = report.summary.find((c) => c.source === `run:${run}` && c.field === 'winner')!
      expect(card.accuracy.value).toBe(0)
      expect(card.verdicts).toContain('mostly_unreadable')
      expect(card.verdict).toContain('3 of its 3 judged answers could not be read, each counted as not correct')
      expect(summaryCardsHtml(report)).toContain('Below its majority baseline; most answers unreadable (counted as not correct)')
    } finally {
      p.close()
    }
  })
})

describe('one set of rules', () => {
  it('states the ties policy in the settings', () => {
    expect(report.settings.ties_policy).toMatch(/even split/)
  })

  it('gives position statistics only for sources asked in both display orders', () => {
    // Annotators see each pair in one order only: no position row, rather than a row of zeros and "incomplete".
    expect(report.pairwise?.position.map((p) => p.source)).toEqual(['run:1', 'run:2'])
    const run2 = report.pairwise?.position.find((p) => p.source === 'run:2')
    expect(run2).toMatchObject({ n_biased_first: 10, n_biased_second: 0 })
    expect((run2?.biased_to_first ?? 0) + (run2?.biased_to_second ?? 0) + (run2?.mt_bench_consistency ?? 0) + (run2?.error_rate ?? 0)).toBeCloseTo(1, 12)
  })

  it('flags every source for too few items and unreliable intervals', () => {
    for (const source of report.sources) {
      expect(typeof source.too_few_items, source.id).toBe('boolean')
      expect(typeof source.unreliable_interval, source.id).toBe('boolean')
    }
    expect(report.sources.find((s) => s.id === 'run:2')).toMatchObject({ too_few_items: true, unreliable_interval: true })
  })

  it('never shows a floating-point residue such as 4.8e-16', () => {
    const residues: string[] = []
    const walk = (v: unknown, path: string): void => {
      if (typeof v === 'number' && v !== 0 && Math.abs(v - Math.round(v)) < 1e-12 && !/(^|_)p$/.test(path.split('.').pop() ?? '')) residues.push(`${path} = ${v}`)
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`))
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`)
    }
    // Settings hold deliberate tiny numbers (the log-loss ε); every computed figure is checked.
    const { settings: _settings, ...figures } = report
    walk(figures, '')
    expect(residues.filter((r) => !/= -?\d+$/.test(r))).toEqual([])
  })
})

describe('intervals over the unit the question is about', () => {
  it('counts items, not calls, in the Wilson interval of a judge asked in both display orders', () => {
    const row = report.pairwise?.rows.find((r) => r.source === 'run:1' && r.criterion === 'label')
    expect(row).toMatchObject({ n_judged: 24, n_items: 12, accuracy: 0.75 })
    const items = wilsonInterval(9, 12)
    expect(row?.ci.accuracy).toMatchObject({ method: 'wilson', n: 12, ci_low: items.lower, ci_high: items.upper })
    // The first-position preference too: 12 of 24 calls, over 12 items.
    const position = report.pairwise?.position.find((p) => p.source === 'run:1')
    const half = wilsonInterval(6, 12)
    expect(position?.ci.first_position_preference).toMatchObject({ n: 12, ci_low: half.lower, ci_high: half.upper })
  })

  it('gives per-label accuracy in both frames, sides and origins, whatever the data', () => {
    const row = report.pairwise?.rows.find((r) => r.source === 'run:1' && r.criterion === 'label')
    expect(row?.per_label_side.map((l) => l.label)).toEqual(['a', 'b'])
    expect(row?.per_label_origin.map((l) => l.label)).toEqual(['human', 'ai'])
    const total = (list: ReadonlyArray<{ n: number; correct: number }> = []) => list.reduce((s, l) => ({ n: s.n + l.n, correct: s.correct + l.correct }), { n: 0, correct: 0 })
    expect(total(row?.per_label_side)).toEqual(total(row?.per_label_origin))
  })
})

describe('one ties policy for human majorities', () => {
  it('leaves a pair the annotators split on out of the majority, in the pairwise table and the field table alike', async () => {
    const project = await Project.create(tmp.file('ties.assay'))
    try {
      const ids = addPairs(project, Array.from({ length: 4 }, (_, i) => ({ id: `p${i}`, label: verdictFor('a') })))
      const item = (i: number) => ids.get(`p${i}`) as number
      annotate(project, 'pairwise-preference', [0, 1, 2, 3].map((i) => ({ item: item(i), judgement: { verdict: verdictFor('a') } })), { human: 'Ada' })
      annotate(project, 'pairwise-preference', [0, 1, 2, 3].map((i) => ({ item: item(i), judgement: { verdict: verdictFor(i === 0 ? 'b' : 'a') } })), { human: 'Ben' })
      const ties = projectReport(project.db, { instrument: 'pairwise-preference', seed: 1 })
      const row = ties.pairwise?.rows.find((r) => r.source === 'human-majority')
      const field = ties.fields.find((f) => f.name === 'winner')?.comparisons.find((r) => r.source === 'human-majority')
      // 3 of 3, never 3 of 4 with the split pair counted as wrong.
      expect(row).toMatchObject({ n_judged: 3, correct: 3, accuracy: 1 })
      expect(field).toMatchObject({ n: 3, correct: 3, accuracy: 1 })
    } finally {
      project.close()
    }
  })
})

describe('the statistics beside each other', () => {
  it("puts Cohen's kappa with its asymptotic interval, Scott's pi and the exact interval of accuracy in each nominal comparison", () => {
    const row = report.fields.find((f) => f.name === 'winner')?.comparisons.find((r) => r.source === 'run:1' && r.criterion === 'label')
    const table = row?.confusion?.counts ?? []
    const withSe = cohenKappaWithSe(table)
    expect(row?.cohen_kappa_se).toBe(withSe.se)
    expect(row?.ci.cohen_kappa_asymptotic).toMatchObject({ method: 'asymptotic normal', ci_low: withSe.lower, ci_high: withSe.upper })
    // Scott's pi: chance agreement from the pooled margins of the two sources.
    const n = table.flat().reduce((a, b) => a + b, 0)
    const pooled = table.map((r, k) => (r.reduce((a, b) => a + b, 0) + table.reduce((a, x) => a + (x[k] ?? 0), 0)) / (2 * n))
    const pe = pooled.reduce((a, m) => a + m * m, 0)
    const po = table.reduce((a, r, k) => a + (r[k] ?? 0), 0) / n
    expect(row?.scott_pi).toBeCloseTo((po - pe) / (1 - pe), 12)
    const exact = clopperPearsonInterval(row?.correct ?? 0, row?.n_judged ?? 0)
    expect(row?.ci.accuracy_exact).toMatchObject({ method: 'clopper-pearson', ci_low: exact.lower, ci_high: exact.upper })
  })

  it('gives the McNemar mid-p beside the exact p, and records the log-loss clipping', () => {
    const pair = report.judge_vs_judge.find((r) => typeof r.mcnemar_p === 'number' && (r.only_first ?? 0) + (r.only_second ?? 0) > 0)
    expect(pair?.mcnemar_mid_p).toBe(mcnemarMidP(pair?.only_first ?? 0, pair?.only_second ?? 0).value)
    expect(report.settings.log_loss_epsilon).toBe(1e-15)
  })
})
