import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import { renderReportHtml, type Report, type ReportSummaryCard } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, demoAfterJudgeRun, verdictFor, type PairSpec } from './fixtures'

// Every figure of a judge that appears in more than one section: where two places show the same quantity they give
// one value; where they show different quantities of the same name (accuracy on the judge's own calls and on the
// units it shares with another judge; agreement with the human majority and with each annotator; the cards' human
// ceiling and the mean over pairs of annotators), each carries its definition and denominator beside the number.
const tmp = tempDir('assay-figures-defined-')
afterAll(() => tmp.cleanup())

let report: Report
beforeAll(async () => {
  const demo = await demoAfterJudgeRun(tmp.file('demo.assay'))
  report = projectReport(demo.db, { instrument: 'pairwise-preference', seed: 11 })
  demo.close()
}, 120_000)

interface Figure {
  where: string
  value: number | null | undefined
  /** What the place says the figure counts (undefined where it says nothing). */
  definition: string | undefined
}

const num = (row: object, name: string): number | null => {
  const v = (row as Record<string, unknown>)[name]
  return typeof v === 'number' ? v : null
}

/**
 * A figure of the card's name is either the card's quantity (same definition, then the same value) or says what
 * else it counts (a definition of its own, different from the card's).
 */
function checkAgainst(card: { value: number | null; definition: string }, figures: readonly Figure[]): number {
  let seen = 0
  for (const f of figures) {
    if (f.value === undefined) continue
    seen++
    if (f.definition === card.definition) {
      expect(f.value, `${f.where} is the card's quantity`).toBe(card.value)
      continue
    }
    if (f.value === card.value) continue
    expect(f.definition, `${f.where} (${f.value}) beside the card's ${card.value} says what it counts`).toEqual(expect.stringMatching(/\w/))
  }
  return seen
}

/** Every accuracy, agreement and ceiling figure of one judge's card, read in every section it appears in. */
function figuresOf(card: ReportSummaryCard): { accuracy: Figure[]; agreement: Figure[]; ceiling: Figure[]; cardAccuracy: string; cardAgreement: string; cardCeiling: string } {
  const judge = card.source
  const field = report.fields.find((f) => f.name === card.field)!
  const pairwise = card.field === 'winner' ? report.pairwise : null
  const fieldUnit = (field as { unit?: string }).unit
  const pairwiseUnit = (pairwise as { unit?: string } | null)?.unit
  const defined = (unit: string | undefined, criterion: string) => (unit ? `${unit} | against ${criterion}` : undefined)
  const cardAccuracy = (pairwise ? defined(pairwiseUnit, card.criterion!) : defined(fieldUnit, card.criterion!)) ?? 'the card'
  const statistic = card.agreement.statistic
  const majority = card.agreement.against!
  const cardAgreement = defined(fieldUnit, majority) ?? 'the card'
  const ceiling = report.ceiling.find((c) => c.field === card.field)!
  const definitions = (ceiling as { definitions?: Record<string, string> }).definitions ?? {}
  const cardCeiling = definitions.against_majority_of_others ?? 'the card'
  const mine = ceiling.judge_human.find((j) => j.source === judge)!
  const againstMajority = (mine as { against_majority?: Record<string, { value: number | null }> }).against_majority
  const againstOthers = (ceiling.human_human as { against_majority_of_others?: Record<string, { value: number | null }> }).against_majority_of_others

  const accuracy: Figure[] = [
    ...(pairwise?.rows ?? []).filter((r) => r.source === judge).map((r) => ({ where: `pairwise row against ${r.criterion}`, value: r.accuracy, definition: defined(pairwiseUnit, r.criterion) })),
    ...field.comparisons.filter((r) => r.source === judge).map((r) => ({ where: `${field.name} table against ${r.criterion}`, value: num(r, 'accuracy'), definition: defined(fieldUnit, r.criterion) })),
    { where: 'ceiling, judge with each annotator', value: mine.mean.accuracy?.value, definition: definitions.judge_with_each_annotator },
    { where: 'ceiling, judge against the majority', value: againstMajority?.accuracy?.value ?? null, definition: definitions.judge_against_majority },
    // Per subset of the pairwise rows: named by what the subset is.
    ...(pairwise?.rows ?? []).filter((r) => r.source === judge).flatMap((r) => r.subsets.map((sub) => ({ where: `subset ${sub.by}=${sub.value} against ${r.criterion}`, value: sub.accuracy, definition: pairwiseUnit ? `${pairwiseUnit} | ${sub.by}=${sub.value}` : undefined }))),
    // Agreement in the published forms: each named by its rule, its chance level stated beside it.
    ...(pairwise?.published_agreement ?? []).filter((r) => r.source === judge).flatMap((r) =>
      (['mt_bench_s1', 'mt_bench_s2', 'alpaca_eval_agreement', 'judgebench_accuracy'] as const).map((rule) => ({ where: `published ${rule}`, value: r[rule], definition: pairwise?.published_chance[rule] !== undefined ? `published rule ${rule}` : undefined }))
    ),
    ...report.judge_vs_judge
      .filter((r) => r.field === card.field && (r.first === judge || r.second === judge))
      .map((r) => ({ where: `judge against judge ${r.first}–${r.second} on ${r.criterion}`, value: r.first === judge ? r.first_value : r.second_value, definition: (r as { definition?: string }).definition }))
  ]
  // The ceiling's judge-against-majority accuracy is the field table's row against the majority, cited.
  const majorityRow = field.comparisons.find((r) => r.source === judge && r.criterion === majority)
  expect(againstMajority?.accuracy?.value, 'the ceiling cites the field table').toBe(majorityRow ? num(majorityRow, 'accuracy') : undefined)

  const agreement: Figure[] = [
    ...field.comparisons.filter((r) => r.source === judge).map((r) => ({ where: `${field.name} table against ${r.criterion}`, value: num(r, statistic), definition: defined(fieldUnit, r.criterion) })),
    { where: 'ceiling, judge with each annotator', value: mine.mean[statistic]?.value, definition: definitions.judge_with_each_annotator },
    { where: 'ceiling, judge against the majority', value: againstMajority?.[statistic]?.value ?? null, definition: definitions.judge_against_majority ? cardAgreement : undefined }
  ]
  const hh = ceiling.human_human as unknown as Record<string, unknown>
  const ceilingFigures: Figure[] = [
    { where: 'ceiling, pairs of annotators', value: ceiling.human_human.mean[statistic]?.value, definition: definitions.annotator_pairs },
    ...['fleiss_kappa', 'gwet_ac1', `krippendorff_alpha_${card.level}`].map((name) => ({ where: `ceiling, all annotators: ${name}`, value: typeof hh[name] === 'number' ? (hh[name] as number) : undefined, definition: definitions.all_annotators })),
    { where: 'ceiling, each annotator against the others’ majority', value: againstOthers?.[statistic]?.value ?? null, definition: definitions.against_majority_of_others ?? 'the card' }
  ]
  return { accuracy, agreement, ceiling: ceilingFigures, cardAccuracy, cardAgreement, cardCeiling }
}

describe('one judge’s figures in every section of the demo project’s report', () => {
  it('are the card’s value where they are the card’s quantity, and say what they count where they are not', () => {
    const cards = report.summary.filter((c) => c.accuracy.value !== null && c.agreement.value !== null && c.human_ceiling?.value != null)
    // The judges of the demo: the two runs (one with a failed and an unreadable call) and the imported model.
    expect(new Set(cards.map((c) => c.source)).size).toBeGreaterThanOrEqual(3)
    let seen = 0
    for (const card of cards) {
      const f = figuresOf(card)
      seen += checkAgainst({ value: card.accuracy.value, definition: f.cardAccuracy }, f.accuracy)
      seen += checkAgainst({ value: card.agreement.value, definition: f.cardAgreement }, f.agreement)
      seen += checkAgainst({ value: card.human_ceiling!.value, definition: f.cardCeiling }, f.ceiling)
    }
    expect(seen).toBeGreaterThan(50)
  })

  it('the card states its own definitions, and the ceiling row it cites carries the same range', () => {
    const card = report.summary.find((c) => c.source === 'run:2' && c.field === 'winner')!
    // Its one failed call is named, with the share of all 24 calls in scope that counts it as not correct.
    expect(card.accuracy.definition).toBe('correct share of 23 judged calls (each display order of each pair) against Reference label, on 12 items; not judged: 1 failed, counted as not correct in 45.8% of all 24 in scope')
    expect(card.agreement.definition).toBe("Cohen's κ of the judge against the human majority, on the 2 units both have a value for")
    // An imported model gave one verdict per pair, with no display order: its denominator says so.
    const imported = report.summary.find((c) => c.source === 'model:demo-style-judge' && c.field === 'winner')!
    expect(imported.accuracy.definition).toBe('correct share of 12 judged verdicts (one per pair) against Reference label, on 12 items')
    const cited = report.ceiling.find((c) => c.field === 'winner')!.human_human.against_majority_of_others.cohen_kappa
    expect(cited).toEqual({ value: card.human_ceiling!.value, min: card.human_ceiling!.min, max: card.human_ceiling!.max, n_annotators: card.human_ceiling!.n_annotators })
  })

  it('the HTML report shows the definitions beside the numbers', () => {
    const html = renderReportHtml(report)
    const ceiling = html.slice(html.indexOf('id="ceiling"'), html.indexOf('id="judge-vs-judge"'))
    expect(ceiling).toContain('Each annotator against the majority of the others')
    expect(ceiling).toContain('against the human majority')
    expect(ceiling).toContain('with each annotator')
    expect(ceiling).toContain('pairs of annotators')
    const jvj = html.slice(html.indexOf('id="judge-vs-judge"'))
    expect(jvj).toContain('on the 2 shared units')
    const pairwise = html.slice(html.indexOf('id="pairwise"'), html.indexOf('id="ceiling"'))
    expect(pairwise).toContain('Counts calls:')
    const card = html.slice(html.indexOf('data-source="run:2"'))
    expect(card.slice(0, 4000)).toContain('of 23 judged calls')
  })

  it('a fit’s card and its calibration row give one accuracy on the same eval units, and the raw judge’s differs with its own denominator', async () => {
    const project = await Project.create(tmp.file('fit.assay'))
    const side = (i: number): 'a' | 'b' => (i % 2 ? 'b' : 'a')
    const pairs: PairSpec[] = Array.from({ length: 16 }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < 8 ? 'dev' : 'test' }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
    addCalls(project, run, pairs.flatMap((p, i) => [
      { item: ids.get(p.id) as number, order: 0, swapped: false, judgement: { verdict: verdictFor(i % 3 === 0 ? 'a' : side(i)) } },
      { item: ids.get(p.id) as number, order: 1, swapped: true, judgement: { verdict: verdictFor(i % 4 === 0 ? 'b' : side(i)) } }
    ]))
    calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', rule: 'conservative' })
    const fitted = projectReport(project.db, { instrument: 'pairwise-preference', seed: 4 })
    project.close()
    const row = fitted.calibration![0]!
    const card = fitted.summary.find((c) => c.source === row.source && c.field === 'winner')!
    expect(card.criterion).toBe(row.criterion)
    expect([card.n_items, card.n_units]).toEqual([row.n_eval_items, row.decision!.n])
    expect(card.accuracy.value).toBe(row.decision!.after_accuracy)
    expect(card.accuracy.definition).toBe(`correct share of 8 judged verdicts (one per pair) against ${card.criterion_name}, on 8 items`)
    const raw = fitted.summary.find((c) => c.source === `run:${run}` && c.field === 'winner')!
    expect(raw.accuracy.definition).toBe(`correct share of 32 judged calls (each display order of each pair) against ${raw.criterion_name}, on 16 items`)
    expect(row.eval_split).toBe('test')
  })
})
