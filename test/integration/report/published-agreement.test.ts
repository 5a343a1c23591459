import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import type { Report } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, annotate, verdictFor, type CallSpec } from './fixtures'

// Four pairs, all labelled "a", three annotators and one judge asked in both display orders; every figure below is
// worked by hand from the published definitions.
const tmp = tempDir('assay-report-published-')
afterAll(() => tmp.cleanup())
let report: Report
let runId: number

beforeAll(async () => {
  const project = await Project.create(tmp.file('published.assay'))
  const ids = addPairs(project, Array.from({ length: 4 }, (_, i) => ({ id: `p${i}`, label: verdictFor('a') })))
  const item = (i: number) => ids.get(`p${i}`) as number
  const votes: Record<string, Array<'a' | 'b'>> = { Ada: ['a', 'a', 'b', 'a'], Ben: ['a', 'b', 'b', 'a'], Cy: ['a', 'a', 'a', 'b'] }
  for (const [name, sides] of Object.entries(votes)) {
    annotate(project, 'pairwise-preference', sides.map((side, i) => ({ item: item(i), judgement: { verdict: verdictFor(side) } })), { human: name })
  }
  runId = addRun(project, { instrument: 'pairwise-preference', bothOrders: true })
  // p0: a in both orders; p1: whichever is shown first (a, then b); p2: b in both; p3: a, then unreadable.
  const calls: CallSpec[] = [
    { item: item(0), order: 0, swapped: false, judgement: { verdict: verdictFor('a') } },
    { item: item(0), order: 1, swapped: true, judgement: { verdict: verdictFor('a') } },
    { item: item(1), order: 0, swapped: false, judgement: { verdict: verdictFor('a') } },
    { item: item(1), order: 1, swapped: true, judgement: { verdict: verdictFor('b') } },
    { item: item(2), order: 0, swapped: false, judgement: { verdict: verdictFor('b') } },
    { item: item(2), order: 1, swapped: true, judgement: { verdict: verdictFor('b') } },
    { item: item(3), order: 0, swapped: false, judgement: { verdict: verdictFor('a') } },
    { item: item(3), order: 1, swapped: true, status: 'unparseable' }
  ]
  addCalls(project, runId, calls)
  report = projectReport(project.db, { instrument: 'pairwise-preference', seed: 1 })
  project.close()
})

describe('agreement in the published forms', () => {
  it('states the chance level of each rule', () => {
    expect(report.pairwise?.published_chance).toEqual({ mt_bench_s1: 1 / 3, mt_bench_s2: 0.5, alpaca_eval_agreement: 0.5, judgebench_accuracy: 0.25 })
  })

  it('MT-Bench S1 and S2: each judge vote against each human vote, an order-dependent verdict counting as a tie', () => {
    const judge = report.pairwise?.published_agreement.find((r) => r.source === `run:${runId}`)
    // Judge votes a, tie, b, a against (a,a,a), (a,b,a), (b,b,a), (a,a,b): 3 + 0 + 2 + 2 = 7 of 12; without p1, 7 of 9.
    expect(judge).toMatchObject({ mt_bench_s1: 7 / 12, n_mt_bench_s1: 12, mt_bench_s2: 7 / 9, n_mt_bench_s2: 9 })
    // People: every pair of votes on a pair, 3 + 1 + 1 + 1 = 6 of 12 (nobody says tie).
    const people = report.pairwise?.published_agreement.find((r) => r.source === 'human-human')
    expect(people).toMatchObject({ mt_bench_s1: 0.5, n_mt_bench_s1: 12, mt_bench_s2: 0.5, n_mt_bench_s2: 12 })
  })

  it('AlpacaEval: each vote against the majority of the other annotators, for people and the judge alike', () => {
    // People: 3 of 3 on p0, then one majority each on p1..p3 and each disagrees: 3 of 6 (split majorities left out).
    expect(report.pairwise?.published_agreement.find((r) => r.source === 'human-human')).toMatchObject({ alpaca_eval_agreement: 0.5, n_alpaca_eval: 6 })
    // The judge meets the same majorities: 3 of 3 on p0, its tie misses p1's, it matches p2's and p3's: 5 of 6.
    expect(report.pairwise?.published_agreement.find((r) => r.source === `run:${runId}`)).toMatchObject({ alpaca_eval_agreement: 5 / 6, n_alpaca_eval: 6 })
  })

  it('JudgeBench: +1 per order right, −1 per order wrong, correct when the sum is positive', () => {
    // p0 +2, p1 0, p2 −2, p3 +1 (the unreadable order scores 0): 2 of 4.
    expect(report.pairwise?.published_agreement.find((r) => r.source === `run:${runId}`)).toMatchObject({
      judgebench_accuracy: 0.5,
      n_judgebench: 4,
      judgebench_criterion: 'label'
    })
  })
})
