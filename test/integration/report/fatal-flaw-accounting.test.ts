import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import { renderReportHtml, renderReportText } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, annotate, verdictFor, type CallSpec, type PairSpec } from './fixtures'

const tmp = tempDir('assay-fatal-')
afterAll(() => tmp.cleanup())

// Six pairs whose proposal a people marked fatal, judged in both display orders, one way each: the fatal-flaw table
// accounts its pairs as the field tables account units, so that every pair marked fatal is in one count and
// "judged" means what it means in every other table.
describe('fatal-flaw recall of a judge asked in both display orders', () => {
  it('judges the unparseable pair, leaves the split and the unanswered ones out, and says so in every place', async () => {
    const project = await Project.create(tmp.file('fatal.assay'))
    const pairs: PairSpec[] = Array.from({ length: 6 }, (_, i) => ({ id: `f${i}`, label: verdictFor('b') }))
    const ids = addPairs(project, pairs)
    const item = (i: number) => ids.get(`f${i}`) as number
    annotate(
      project,
      'flaw-audit',
      pairs.map((_, i) => ({ item: item(i), judgement: { flaws: [{ side: 'a', type: 'unsound_method', severity: 'fatal', evidence: 'Proposal', note: '' }] } })),
      { human: 'Rita' }
    )
    const run = addRun(project, { instrument: 'pairwise-preference', bothOrders: true })
    const both = (i: number, spec: (order: number) => Omit<CallSpec, 'item' | 'order' | 'swapped'>): CallSpec[] =>
      [0, 1].map((order) => ({ item: item(i), order, swapped: order === 1, ...spec(order) }))
    addCalls(project, run, [
      // Against the fatal proposal in both orders: judged, ruled against.
      ...both(0, () => ({ judgement: { verdict: verdictFor('b') } })),
      // For it in both orders: judged, not ruled against.
      ...both(1, () => ({ judgement: { verdict: verdictFor('a') } })),
      // Whichever proposal is shown first: the orders split, no verdict.
      ...both(2, (order) => ({ judgement: { verdict: verdictFor(order === 0 ? 'a' : 'b') } })),
      // Unreadable in both orders: judged, as every table judges an unparseable answer, and not ruled against.
      ...both(3, () => ({ status: 'unparseable' as const })),
      // Failed in both orders: unanswered.
      ...both(4, () => ({ status: 'failed' as const })),
      // One order failed, the other ruled against: judged on the order that answered.
      ...both(5, (order) => (order === 0 ? { status: 'failed' as const } : { judgement: { verdict: verdictFor('b') } }))
    ])
    const report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()

    const row = report.pairwise?.fatal_flaws.find((f) => f.source === `run:${run}`)
    expect(row).toMatchObject({ n_fatal: 6, n_judged: 4, n_ruled_against: 2, n_no_value: 1, n_unanswered: 1, n_both_fatal: 0 })
    expect(row?.fatal_flaw_recall).toBe(0.5)
    // Every pair marked fatal is in exactly one count, in every row of the table.
    for (const f of report.pairwise?.fatal_flaws ?? []) expect(f.n_judged + f.n_no_value + f.n_unanswered).toBe(f.n_fatal)
    // The field table judges the same unparseable pair and leaves the same split pair without a value.
    const winner = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'label')
    expect(winner).toMatchObject({ n_judged: 4, n_no_value: 1, n_failed: 1, n_unparseable: 1 })

    // The card says what its recall is of and what it leaves out.
    const card = report.summary.find((c) => c.source === `run:${run}` && c.field === 'winner')
    expect(card?.fatal_flaw_recall).toMatchObject({ value: 0.5, n: 4, n_no_value: 1, n_unanswered: 1 })
    const leftOut = 'of 4 judged proposals people marked fatal; not judged: 1 without a verdict (display orders or trials split), 1 unanswered'
    const text = renderReportText(report)
    const html = renderReportHtml(report)
    expect(text).toContain(leftOut)
    expect(html).toContain(leftOut)
    // The text table has the HTML table's columns, the named recall included, and the same note.
    for (const heading of ['No value', 'Unanswered', 'Named a fatal flaw', 'Named recall']) {
      expect(text).toContain(heading)
      expect(html).toContain(`>${heading}</th>`)
    }
    expect(text).toContain('No value: answered, but the display orders or trials split, so no verdict')
    expect(html).toContain('No value: answered, but the display orders or trials split, so no verdict')
  })

  it('keeps a judge whose every answer split between the orders in every table, with all its pairs without a value', async () => {
    const project = await Project.create(tmp.file('first-shown.assay'))
    const pairs: PairSpec[] = Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, label: verdictFor('b') }))
    const ids = addPairs(project, pairs)
    const item = (i: number) => ids.get(`s${i}`) as number
    annotate(project, 'flaw-audit', pairs.map((_, i) => ({ item: item(i), judgement: { flaws: [{ side: 'a', type: 'unsound_method', severity: 'fatal', evidence: 'Proposal', note: '' }] } })), { human: 'Rita' })
    const run = addRun(project, { instrument: 'pairwise-preference', bothOrders: true })
    // Always the proposal shown first: a in the first order, b in the second.
    addCalls(project, run, pairs.flatMap((_, i) => [0, 1].map((order) => ({ item: item(i), order, swapped: order === 1, judgement: { verdict: verdictFor(order === 0 ? 'a' : 'b') } }))))
    const report = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt: '2026-01-01T00:00:00.000Z' })
    project.close()
    // Every field it answered has its row, each unit without a value, where it once had no row at all.
    for (const name of ['verdict', 'winner']) {
      const row = report.fields.find((f) => f.name === name)?.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'label')
      expect(row, name).toMatchObject({ n_in_scope: 4, n_judged: 0, n_no_value: 4 })
    }
    expect(report.pairwise?.fatal_flaws.find((f) => f.source === `run:${run}`)).toMatchObject({ n_fatal: 4, n_judged: 0, n_no_value: 4 })
    // Its cards say so, on every field.
    const cards = report.summary.filter((c) => c.source === `run:${run}`)
    expect(cards.map((c) => c.field).sort()).toEqual(['verdict', 'winner'])
    expect(cards.find((c) => c.field === 'winner')?.fatal_flaw_recall).toMatchObject({ n: 0, n_no_value: 4 })
    // With no judged unit its accuracy is undefined, and the card still says what it left out, in text and HTML.
    const verdict = cards.find((c) => c.field === 'verdict')!
    expect(verdict.accuracy.value).toBeNull()
    expect(verdict.accuracy.definition).toContain('0 judged units against Reference label, on 0 items; not judged: 4 units without a value')
    expect(renderReportText(report)).toContain(verdict.accuracy.definition!)
    expect(renderReportHtml(report)).toContain('4 without a value')
  })
})
