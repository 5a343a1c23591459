import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { summaryCardsHtml, type Report } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { num, recommended, recommendedAgreement } from './card-expectations'
import { demoAfterJudgeRun, syntheticPairsProject } from './fixtures'

// Every number on a judge's summary card is a figure of the section it comes from, cited, never recomputed: the
// accuracy and its interval, the denominators and baselines of the pairwise or field row, the agreement with the
// human majority, the human ceiling from the annotators' rows and the position figures.
const tmp = tempDir('assay-cards-')
afterAll(() => tmp.cleanup())

const goldenDir = join(__dirname, 'golden')
const reports: Array<{ name: string; report: Report }> = []

beforeAll(async () => {
  for (const file of readdirSync(goldenDir).filter((f) => f.endsWith('.json'))) {
    reports.push({ name: file, report: JSON.parse(readFileSync(join(goldenDir, file), 'utf8')) as Report })
  }
  const demo = await demoAfterJudgeRun(tmp.file('demo.assay'))
  reports.push({ name: 'demo, fresh', report: projectReport(demo.db, { instrument: 'pairwise-preference' }) })
  demo.close()
  const synthetic = await syntheticPairsProject(tmp.file('synthetic.assay'), 60)
  reports.push({ name: 'synthetic pairs, fresh', report: projectReport(synthetic.db, { instrument: 'pairwise-preference' }) })
  synthetic.close()
}, 120_000)

/** Cards whose row has units answered without a value (split votes, ties), over every report checked. */
let withoutValue = 0
/** Cards whose row has units or calls never answered (failed, abstained, pending), over every report checked. */
let withUnanswered = 0
/** Cards below the minimum of items whose agreement takes its asymptotic interval, over every report checked. */
let smallKappa = 0

function checkCards(report: Report): number {
  const minItems = report.settings.min_items_for_interval
  const majority = report.sources.find((s) => s.kind === 'human_majority')?.id
  const annotators = new Set(report.sources.filter((s) => s.kind === 'annotator').map((s) => s.id))
  let checked = 0
  for (const card of report.summary) {
    const section = report.fields.find((f) => f.name === card.field)
    expect(section, `${card.source}/${card.field}`).toBeDefined()
    const pairwise = card.field === 'winner' ? report.pairwise?.rows.find((r) => r.source === card.source && r.criterion === card.criterion) : undefined
    const row = pairwise ?? section?.comparisons.find((r) => r.source === card.source && r.criterion === card.criterion)
    if (card.accuracy.value !== null) {
      expect(row, `the row behind ${card.source}/${card.field}`).toBeDefined()
      if (!row) continue
      expect(card.accuracy.value).toBe(num(row, 'accuracy'))
      const ci = recommended(row.ci, row.n_items, minItems)
      expect([card.accuracy.ci_low, card.accuracy.ci_high, card.accuracy.ci_method]).toEqual([ci?.ci_low ?? null, ci?.ci_high ?? null, ci && ci.ci_low !== null ? ci.method : null])
      expect(card.n_items).toBe(row.n_items)
      expect(card.n_units).toBe(row.n_judged)
      expect(card.majority_baseline).toBe(num(row, 'majority_baseline'))
      expect(card.random_baseline).toBe(num(row, 'random_baseline'))
      // Units answered without a value are not judged: the card says how many, and the row's share of all in scope.
      const noValue = 'n_no_value' in row ? row.n_no_value : 0
      if (noValue > 0) {
        const ofAll = num(row, 'accuracy_of_all')
        expect(card.accuracy.definition).toContain(`not judged: ${noValue} unit${noValue === 1 ? '' : 's'} without a value`)
        expect(card.accuracy.definition).toContain(`${ofAll === null ? '' : `${(100 * ofAll).toFixed(1)}% `}of all ${row.n_in_scope} in scope`)
        expect(card.n_without_value).toBe(noValue)
        withoutValue++
      } else {
        expect(card.n_without_value ?? 0).toBe(0)
        // Units or calls never answered are named with the share of all in scope that counts them, and only then.
        const unanswered = row.n_failed + row.n_abstained + row.n_pending
        if (unanswered > 0) {
          const ofAll = num(row, 'accuracy_of_all')
          expect(card.accuracy.definition).toContain('; not judged: ')
          expect(card.accuracy.definition).toContain(`${ofAll === null ? '' : `${(100 * ofAll).toFixed(1)}% `}of all ${row.n_in_scope} in scope`)
          withUnanswered++
        } else expect(card.accuracy.definition ?? '').not.toContain('not judged')
      }
    }
    if (card.agreement.value !== null) {
      const withPeople = section?.comparisons.find((r) => r.source === card.source && r.criterion === majority)
      expect(card.agreement.value).toBe(withPeople ? num(withPeople, card.agreement.statistic) : null)
      // The interval the report recommends at its size: below the minimum of items, the asymptotic one where there is one.
      const expected = withPeople ? recommendedAgreement(withPeople.ci, card.agreement.statistic, withPeople.n_items, minItems) : { interval: undefined, small: false }
      const ci = expected.interval
      expect([card.agreement.ci_low, card.agreement.ci_high]).toEqual([ci?.ci_low ?? null, ci?.ci_high ?? null])
      if (expected.small) smallKappa++
    }
    if (card.human_ceiling?.value != null) {
      const values = (section?.comparisons ?? []).filter((r) => r.criterion === majority && annotators.has(r.source) && r.n > 0).map((r) => num(r, card.human_ceiling!.statistic)).filter((v): v is number => v !== null)
      expect(card.human_ceiling.value).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 12)
      expect([card.human_ceiling.min, card.human_ceiling.max]).toEqual([Math.min(...values), Math.max(...values)])
    }
    if (card.position) {
      const position = report.pairwise?.position.find((p) => p.source === card.source)
      expect(card.position).toEqual({ n_pairs: position?.n_pairs, n_compared: position?.n_compared, consistency: position?.position_consistency, biased_to_first: position?.biased_to_first, biased_to_second: position?.biased_to_second, preference_fairness: position?.preference_fairness })
    }
    checked++
  }
  return checked
}

describe('a judge card cites the sections it comes from', () => {
  it('every number on every card equals the value of its section', () => {
    let cards = 0
    for (const { name, report } of reports) {
      try {
        cards += checkCards(report)
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`)
      }
    }
    expect(cards).toBeGreaterThan(10)
    // Split votes of judges asked in both display orders (the synthetic pairs) are among them.
    expect(withoutValue).toBeGreaterThan(0)
    expect(withUnanswered).toBeGreaterThan(0)
    expect(smallKappa).toBeGreaterThan(0)
  })

  it('a card resting on fewer items than the report’s minimum shows the Wilson interval the warnings recommend, not the bootstrap', () => {
    const { report } = reports.find((r) => r.name === 'demo, fresh')!
    const small = report.summary.filter((c) => c.n_items < report.settings.min_items_for_interval && c.accuracy.ci_low !== null)
    expect(small.length).toBeGreaterThan(0)
    expect(report.warnings.some((w) => /bootstrap intervals unreliable/.test(w.message))).toBe(true)
    for (const card of small) expect(card.accuracy.ci_method).toBe('wilson')
  })

  it("a card's compact row of another field says what its accuracy is of, and the units it leaves without a value", () => {
    const { report } = reports.find((r) => r.name === 'synthetic pairs, fresh')!
    const card = report.summary.find((c) => c.field !== 'winner' && (c.n_without_value ?? 0) > 0)
    expect(card).toBeDefined()
    const html = summaryCardsHtml(report)
    const cardHtml = html.slice(html.indexOf(`data-source="${card!.source}"`))
    const row = /<tr data-field="([^"]+)">.*?<\/tr>/.exec(cardHtml.slice(cardHtml.indexOf(`<tr data-field="${card!.field}">`)))?.[0] ?? ''
    expect(row).toContain(`of ${card!.n_units} judged`)
    expect(row).toContain(`${card!.n_without_value} without a value`)
  })
})
