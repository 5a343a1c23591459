import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { gatherReportInput } from '../../../src/main/report/gather'
import { buildReport, calibrationLines, evaluatedOn, fmtPercent, renderReportHtml, renderReportText, type Report } from '../../../src/shared/report'
import { escapeXml } from '../../../src/shared/report/plots/svg'
import { calibrate } from '../../../src/main/calibrate/service'
import { insertFit } from '../../../src/main/store/calibration-fits'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, annotate, demoWithCheckedProbes, verdictFor, type CallSpec, type PairSpec } from './fixtures'

// Reports in which two places once gave one figure two values, or a figure was plainly wrong.
const tmp = tempDir('assay-contradictions-')
afterAll(() => tmp.cleanup())

const side = (i: number): 'a' | 'b' => (i % 2 ? 'b' : 'a')

/** Labelled pairs, half dev and half test, and an original run answering every pair in one order. */
function pairsWithRun(project: Project, n: number): { ids: Map<string, number>; pairs: PairSpec[]; run: number } {
  const pairs: PairSpec[] = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < n / 2 ? 'dev' : 'test' }))
  const ids = addPairs(project, pairs)
  const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
  addCalls(project, run, pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(i % 3 === 0 ? side(i + 1) : side(i)) } })))
  return { ids, pairs, run }
}

describe('a few-shot fit whose run never answered', () => {
  it('counts the unanswered eval units as missing, never as wrong, and gives no McNemar p', async () => {
    const project = await Project.create(tmp.file('few-shot-pending.assay'))
    const { ids, pairs, run } = pairsWithRun(project, 20)
    const fewShot = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
    const testPairs = pairs.filter((p) => p.split === 'test')
    // Eight calls still pending after a stop, two failed: the endpoint never answered.
    addCalls(project, fewShot, testPairs.map((p, k) => ({ item: ids.get(p.id) as number, status: k < 8 ? 'pending' : 'failed' })))
    const devItems = pairs.filter((p) => p.split === 'dev').slice(0, 2).map((p) => ids.get(p.id) as number)
    project.write((db) =>
      insertFit(
        db,
        { method: 'few-shot', instrument: 'pairwise-preference', source: `run:${run}`, criterion: 'label:citations', score_field: 'verdict', target: { field: 'winner', positive: null }, fit_split: 'dev', eval_split: 'test' },
        { kind: 'few-shot', template: 'pairwise-ranker-fewshot@1', base_template: 'pairwise-ranker@1', k: 2, seed: 's', examples: [{ item: 'p0', label: 'a' }, { item: 'p1', label: 'b' }], run_id: fewShot },
        devItems,
        2
      )
    )
    const report = projectReport(project.db, { instrument: 'pairwise-preference', seed: 3 })
    project.close()
    const [row] = report.calibration ?? []
    // Evaluated on no unit: the ten labelled test units are counted beside, never inside, as a both-orders fit counts.
    expect(row).toMatchObject({ n_eval_items: 0, n_eval_units: 0, n_unanswered_eval_units: 10 })
    expect(evaluatedOn(row!)).toBe('test: 0 items, 0 units; 10 more unanswered, left out')
    expect(row?.decision?.after_accuracy).toBeNull()
    expect(row?.decision?.mcnemar_p).toBeNull()
    expect(row?.decision?.n).toBe(0)
    // Every unit has a label: the reason is the missing answers.
    expect(row?.reasons.decision).toBe('no labelled eval unit has an answer to compare (10 unanswered, left out)')
    expect(row?.warnings.join(' ')).toMatch(/10 of 10 eval unit\(s\) have no answer .* not counted wrong/)
    // In the report's warnings it is named as the fit, as its section names it: its run (the few-shot run, not the
    // original), then its method and number, never as the bare run (a judge with a card of its own).
    const warning = report.warnings.find((w) => w.code === 'fit_warning')
    const fewShotRun = Number(row?.source.replace('run:', ''))
    expect(fewShotRun).not.toBe(run)
    expect(warning?.message).toMatch(new RegExp(`^base · run ${fewShotRun} · few-shot .*· fit ${row?.fit_id}: 10 of 10 eval unit`))
  })
})

type OrderCall = Omit<CallSpec, 'item' | 'order' | 'swapped'>

/**
 * `count` labelled pairs, half dev and half test, and a run asked in both display orders: pair i's calls in the first
 * and the second order as `orders(i)` gives them. Returns the project's path and the run, the project closed.
 */
async function bothOrdersProject(name: string, orders: (i: number) => [OrderCall, OrderCall], count = 12): Promise<{ path: string; run: number }> {
  const path = tmp.file(name)
  const project = await Project.create(path)
  const pairs: PairSpec[] = Array.from({ length: count }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < count / 2 ? 'dev' : 'test' }))
  const ids = addPairs(project, pairs)
  const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
  addCalls(project, run, pairs.flatMap((p, i) => {
    const item = ids.get(p.id) as number
    const [first, second] = orders(i)
    return [
      { item, order: 0, swapped: false, ...first },
      { item, order: 1, swapped: true, ...second }
    ]
  }))
  project.close()
  return { path, run }
}

describe('a both-orders fit, as assay calibrate prints it and as the report shows it', () => {
  it('judges each pair once in both places: the same n, the same correct count, the same ties', async () => {
    // Four test pairs where the two orders disagree (a tie under both rules), two where they agree on the right side.
    const verdict = (i: number, order: 0 | 1) => ({ judgement: { verdict: verdictFor(i < 6 || i >= 10 ? side(i) : order === 0 ? 'a' : 'b') } })
    const { path, run } = await bothOrdersProject('both-orders.assay', (i) => [verdict(i, 0), verdict(i, 1)])
    const printed = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders', '--rule', 'conservative', '--json')
    expect(printed.stderr).toBe('')
    const [fit] = JSON.parse(printed.stdout).fits
    expect(fit.changes).toMatchObject({ n_pairs: 6, n_ties: 4 })
    expect(fit.decision).toMatchObject({ n: 6, after_accuracy: 2 / 6 })
    const opened = await Project.open(path)
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    opened.close()
    const row = report.pairwise?.rows.find((r) => r.source === fit.source && r.criterion === 'label:citations')
    expect(row).toMatchObject({ n_judged: fit.decision.n, correct: fit.decision.after_accuracy * fit.decision.n, n_ties: fit.changes.n_ties })
    expect(row?.accuracy).toBe(fit.decision.after_accuracy)
    const reported = report.calibration?.find((c) => c.fit_id === fit.fit_id)
    expect(reported?.decision).toEqual(fit.decision)
    // No display order of its own: the aggregate has no position statistics.
    expect(report.pairwise?.position.some((p) => p.source === fit.source)).toBe(false)
  })
})

describe('a both-orders fit with eval pairs its criterion does not label', () => {
  it('counts its changed verdicts and ties on the labelled pairs its decision and pairwise row judge', async () => {
    const path = tmp.file('both-orders-unlabelled.assay')
    const project = await Project.create(path)
    // Eight test pairs: four labelled (two answered alike in both orders, two split), four unlabelled and split.
    const pairs: PairSpec[] = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, label: i < 8 ? verdictFor(side(i)) : null, labelSource: 'citations', split: i < 4 ? 'dev' : 'test' }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
    addCalls(project, run, pairs.flatMap((p, i) => {
      const item = ids.get(p.id) as number
      const split = i >= 6
      return [
        { item, order: 0, swapped: false, judgement: { verdict: verdictFor(split ? 'a' : side(i)) } },
        { item, order: 1, swapped: true, judgement: { verdict: verdictFor(split ? 'b' : side(i)) } }
      ]
    }))
    const [fit] = calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', rule: 'conservative' }).fits
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    // Before, the four unlabelled pairs were counted too: 8 pairs, 6 ties, beside a decision on 4 pairs.
    expect(fit?.changes).toMatchObject({ n_pairs: 4, n_ties: 2 })
    expect(fit?.decision).toMatchObject({ n: 4 })
    const row = report.pairwise?.rows.find((r) => r.source === fit?.source && r.criterion === 'label:citations')
    expect(row).toMatchObject({ n_judged: fit?.decision?.n, n_ties: fit?.changes?.n_ties })
    expect(report.calibration?.find((c) => c.fit_id === fit?.fit_id)?.changes).toEqual(fit?.changes)
  })
})

describe('a both-orders fit where an order was unparseable or failed', () => {
  it('judges the unparseable pair as wrong and leaves the failed one out, in the calibration section as in the pairwise table', async () => {
    // Test pairs: 6 and 7 right in both orders; 8 right, then unparseable; 9 right, then failed; 10 and 11 split.
    const { path, run } = await bothOrdersProject('both-orders-unanswered.assay', (i) => {
      const split = i >= 10
      const first = { judgement: { verdict: verdictFor(split ? 'a' : side(i)) } }
      if (i === 8) return [first, { status: 'unparseable' }]
      if (i === 9) return [first, { status: 'failed' }]
      return [first, { judgement: { verdict: verdictFor(split ? 'b' : side(i)) } }]
    })
    const printed = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders', '--rule', 'conservative', '--json')
    expect(printed.stderr).toBe('')
    const [fit] = JSON.parse(printed.stdout).fits
    expect(fit.changes).toMatchObject({ n_pairs: 4, n_ties: 2 })
    // Before, the unparseable pair was left out here (n 4) while the pairwise table judged it (5).
    // The unparseable pair: the fit has no verdict (judged, wrong, as in its pairwise row); the raw judge's value is
    // the one its field table gives, the vote of the order it answered (right), as every fit's "before" reads it.
    expect(fit.decision).toMatchObject({ n: 5, after_accuracy: 2 / 5, before_accuracy: 3 / 5, only_before: 1, only_after: 0, both_wrong: 2 })
    // The failed pair is missing, and said to be.
    expect(fit).toMatchObject({ n_eval_units: 5, n_unanswered_eval_units: 1 })
    expect(fit.warnings.join(' ')).toMatch(/1 of 6 labelled eval pair\(s\) lack an answer .* not counted wrong/)
    const opened = await Project.open(path)
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    opened.close()
    const row = report.pairwise?.rows.find((r) => r.source === fit.source && r.criterion === 'label:citations')
    expect(row).toMatchObject({ n_judged: 5, n_unparseable: 1, n_failed: 1, correct: 2, n_ties: fit.changes.n_ties })
    expect(row?.accuracy).toBe(fit.decision.after_accuracy)
    expect(report.calibration?.find((c) => c.fit_id === fit.fit_id)?.decision).toEqual(fit.decision)
    // Its field table scores its ties as its pairwise row does (its own verdict, judged and not correct), never as
    // units without a value: one accuracy for the same fit, field and criterion.
    const fieldRow = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === fit.source && c.criterion === 'label:citations')
    expect(fieldRow).toMatchObject({ n_in_scope: 6, n_judged: 5, n: 2, n_ties: 2, n_no_value: 0, n_unparseable: 1, n_failed: 1 })
    expect(fieldRow?.accuracy).toBe(row?.accuracy)
    // One answer on record per pair in the sources table too: a tie (two trials, one for each side) is one call.
    const listed = report.sources.find((s) => s.id === fit.source)
    expect(listed).toMatchObject({ n_items: 6, n_calls: 6, n_answered: 4, n_unparseable: 1, n_failed: 1, n_tied_votes: 2 })
    expect(listed?.n_calls).toBe(row?.n_in_scope)
    // A report on the dev split holds none of the fit's test items: it says so, not that no eval unit has a label.
    const reopened = await Project.open(path)
    const onDev = projectReport(reopened.db, { instrument: 'pairwise-preference', split: 'dev' })
    reopened.close()
    const devRow = onDev.calibration?.find((c) => c.fit_id === fit.fit_id)
    expect(devRow?.decision).toBeUndefined()
    expect(devRow?.reasons.eval).toMatch(/^this report covers the dev split only; the fit is evaluated on test/)
    expect(renderReportText(onDev)).toContain(`  eval: ${devRow?.reasons.eval}`)
    // Not "evaluated on test: 0 items, 0 units", which reads as a fit evaluated on nothing.
    expect(evaluatedOn(devRow!)).toBe('test: no figure in this report (eval, below)')
    expect(renderReportText(onDev)).toContain('evaluated on test: no figure in this report (eval, below)')
    // The units compared and the unanswered one beside them, never inside: "5 units; 1 more unanswered, left out".
    expect(evaluatedOn(fit)).toMatch(/ 5 units; 1 more unanswered, left out$/)
  })
})

describe('a both-orders fit with a pair failed in both orders and one still pending', () => {
  it('counts one call a pair in the sources, pairwise and field tables alike, with one "of all in scope" and its one interval', async () => {
    // Test pairs: 6 and 7 right in both orders; 8 failed in both; 9 right, then pending; 10 unparseable, then right; 11 split.
    const { path, run } = await bothOrdersProject('both-orders-failed-twice.assay', (i) => {
      const right = { judgement: { verdict: verdictFor(side(i)) } }
      if (i === 8) return [{ status: 'failed' }, { status: 'failed' }]
      if (i === 9) return [right, { status: 'pending' }]
      if (i === 10) return [{ status: 'unparseable' }, right]
      if (i === 11) return [{ judgement: { verdict: verdictFor('a') } }, { judgement: { verdict: verdictFor('b') } }]
      return [right, right]
    })
    const printed = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders', '--rule', 'conservative', '--json')
    expect(printed.stderr).toBe('')
    const [fit] = JSON.parse(printed.stdout).fits
    const opened = await Project.open(path)
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    opened.close()
    const listed = report.sources.find((s) => s.id === fit.source)
    const pairwise = report.pairwise?.rows.find((r) => r.source === fit.source && r.criterion === 'label:citations')
    const field = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === fit.source && c.criterion === 'label:citations')
    // The pair failed in both orders is one failed call, not two.
    expect(listed).toMatchObject({ n_items: 6, n_calls: 6, n_failed: 1, n_pending: 1, n_unparseable: 1 })
    expect(pairwise).toMatchObject({ n_in_scope: 6, n_judged: 4, n_failed: 1, n_pending: 1, n_unparseable: 1, n_ties: 1, correct: 2, n_items: 4 })
    expect(field).toMatchObject({ n_in_scope: 6, n_judged: 4, n_failed: 1, n_pending: 1, n_unparseable: 1, n_ties: 1, correct: 2, n_items: 4 })
    // One verdict a pair: calls, units and items are the same, so "of all in scope" has one value and one interval.
    expect(pairwise?.accuracy_of_all).toBe(field?.accuracy_of_all)
    expect([pairwise?.ci.accuracy_of_all?.ci_low, pairwise?.ci.accuracy_of_all?.ci_high]).toEqual([field?.ci.accuracy_of_all?.ci_low, field?.ci.accuracy_of_all?.ci_high])
    const card = report.summary.find((c) => c.source === fit.source && c.field === 'winner')
    expect(card).toMatchObject({ n_items: 4, n_units: 4 })
    // The recalibration compares the four answered pairs; the raw judge's "before" on pair 10 is its field table's value
    // (the order it answered, right), on pair 11 a split (not correct).
    expect(fit.decision).toMatchObject({ n: 4, both_correct: 2, only_before: 1, only_after: 0, both_wrong: 1 })
    expect(fit).toMatchObject({ n_eval_units: 4, n_unanswered_eval_units: 2 })
  })
})

describe("a card's accuracy on a field table with units split, failed and pending", () => {
  it('names every unit its "of all in scope" counts as not correct, not only those without a value', async () => {
    // Pair 0 split between the orders; pair 1 failed in both; pair 2 pending in both; the others right in both.
    const { path, run } = await bothOrdersProject('card-not-judged.assay', (i) => {
      if (i === 0) return [{ judgement: { verdict: verdictFor('a') } }, { judgement: { verdict: verdictFor('b') } }]
      if (i === 1) return [{ status: 'failed' }, { status: 'failed' }]
      if (i === 2) return [{ status: 'pending' }, { status: 'pending' }]
      return [{ judgement: { verdict: verdictFor(side(i)) } }, { judgement: { verdict: verdictFor(side(i)) } }]
    })
    const opened = await Project.open(path)
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    opened.close()
    const row = report.fields.find((f) => f.name === 'verdict')?.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'label:citations')
    expect(row).toMatchObject({ n_in_scope: 12, n_judged: 9, n_no_value: 1, n_failed: 1, n_pending: 1 })
    const card = report.summary.find((c) => c.source === `run:${run}` && c.field === 'verdict')
    expect(card?.accuracy.definition).toContain(
      `not judged: 1 unit without a value (display orders or trials that split evenly, or an answer that leaves the field empty), 1 failed, 1 pending; all counted as not correct in ${fmtPercent(row!.accuracy_of_all)} of all 12 in scope`
    )
    // The text and HTML field tables give the pending unit its own column.
    const text = renderReportText(report)
    expect(text).toMatch(/in scope\s+judged\s+n\s+failed\s+unparseable\s+abstained\s+pending\s+no value/)
    expect(renderReportHtml(report)).toContain('>Pending</th><th class="num">No value</th>')
  })
})

describe('the majority baseline of a row that counts calls', () => {
  it('is scored on the judged calls its accuracy is scored on, not on their items', async () => {
    const project = await Project.create(tmp.file('baseline-calls.assay'))
    // Four pairs labelled a, two labelled b; asked in both orders, the first pair's second order failed.
    const pairs: PairSpec[] = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, label: verdictFor(i < 4 ? 'a' : 'b'), labelSource: 'citations' }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'j', bothOrders: true })
    addCalls(project, run, pairs.flatMap((p, i) => [0, 1].map((order) => ({ item: ids.get(p.id) as number, order, swapped: order === 1, ...(i === 0 && order === 1 ? { status: 'failed' as const } : { judgement: { verdict: verdictFor('b') } }) }))))
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const row = report.pairwise?.rows.find((r) => r.source === `run:${run}`)
    // Always answering "a" on the 11 judged calls is right 7 times (the items would say 4 of 6).
    expect(row).toMatchObject({ n_judged: 11, correct: 4, label_counts: { a: 7, b: 4 }, majority_label: ['a'] })
    expect(row?.majority_baseline).toBe(7 / 11)
    expect(report.warnings.find((w) => w.code === 'below_majority_baseline' && w.source === `run:${run}`)?.message).toContain('4/11 = 36.4% < 63.6%')
  })
})

describe('assay calibrate printing a McNemar p far below a thousandth', () => {
  it('writes it as the report does, never as 0', async () => {
    // Forty test pairs the raw judge splits on (no vote: wrong), each averaged to the right side (strongly, then weakly against).
    const other = (i: number) => (side(i) === 'a' ? 'b' : 'a')
    const { path, run } = await bothOrdersProject('mcnemar-small-p.assay', (i) => [{ judgement: { verdict: verdictFor(side(i), 'much_better') } }, { judgement: { verdict: verdictFor(other(i)) } }], 80)
    const printed = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders', '--rule', 'average')
    expect(printed.stderr).toBe('')
    expect(printed.stdout).toMatch(/only before 0, only after 40, neither 0/)
    // 2 × 0.5^40: about 1.8e-12.
    expect(printed.stdout).toMatch(/exact McNemar p = 1\.82e-12\n/)
    // The report's recalibration section, in text and in HTML, writes the same lines, word for word.
    const json = await runCli('report', path, '--instrument', 'pairwise-preference', '--json')
    const [row] = (JSON.parse(json.stdout) as Report).calibration ?? []
    const lines = calibrationLines(row!)
    expect(lines[0]).toMatch(/^accuracy 0\.0% → 100\.0% on 40 units \(before: the raw judge's vote over both orders, read as its field table reads it \(an order that could not be read casts no vote\), except that a split vote, a unit without a value there, is counted here as not correct\); difference \+100\.0 pp \[100\.0, 100\.0\] pp \(after − before, paired/)
    const text = await runCli('report', path, '--instrument', 'pairwise-preference')
    const html = await runCli('report', path, '--instrument', 'pairwise-preference', '--html', `${path}.html`)
    expect(html.code).toBe(0)
    // Asked for a file, the command says where it wrote it and prints nothing more.
    expect(html.stdout.trim()).toBe(`Wrote ${path}.html`)
    const page = readFileSync(`${path}.html`, 'utf8')
    for (const line of [...lines, evaluatedOn(row!)]) {
      expect(printed.stdout).toContain(line)
      expect(text.stdout).toContain(line)
      expect(page).toContain(escapeXml(line))
    }
  })
})

describe('probe detection where every probe was answered', () => {
  it('says the answers tied between orders, not that no probe was answered', async () => {
    const { path, probes } = await demoWithCheckedProbes(tmp.file('probes-tied.assay'), 3)
    const opened = await Project.open(path)
    const run = addRun(opened, { instrument: 'pairwise-preference', judge: 'torn', bothOrders: true })
    // Every probe answered in both orders, the two orders always picking opposite sides.
    addCalls(opened, run, probes.flatMap((p) => [
      { item: p.itemId, order: 0, swapped: false, judgement: { verdict: 'a_better' } },
      { item: p.itemId, order: 1, swapped: true, judgement: { verdict: 'b_better' } }
    ]))
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    // One assembler: the report built from what gathering reads has its probes, as the project's report does.
    const assembled = buildReport(gatherReportInput(opened.db, { instrument: 'pairwise-preference' }), { generatedAt: report.generated_at })
    opened.close()
    expect(assembled).toEqual(report)
    const row = report.probes?.detection.find((r) => r.source === `run:${run}`)
    expect(row).toMatchObject({ n_probes: 0, n_tied: 3, rate: null })
    expect(row?.wilson.reason).toMatch(/every answered probe \(3\) was tied/)
    expect(row?.bootstrap.reason).not.toMatch(/no probes answered/)
  })

  it('counts a verified probe whose calls all failed as unanswered, and lets only verified probes be reference labels', async () => {
    // Three probes verified by their check, the fourth rejected (the planted change is not the only one).
    const { path, probes } = await demoWithCheckedProbes(tmp.file('probes-unanswered.assay'), 4, (k) => k < 3)
    const opened = await Project.open(path)
    const run = addRun(opened, { instrument: 'pairwise-preference', judge: 'flaky' })
    // The first verified probe answered, the second unreadable, the third failed; the rejected one answered.
    addCalls(opened, run, probes.map((p, k) => (k === 2 ? { item: p.itemId, status: 'failed' as const } : k === 1 ? { item: p.itemId, status: 'unparseable' as const } : { item: p.itemId, judgement: { verdict: 'a_better' } })))
    const report = projectReport(opened.db, { instrument: 'pairwise-preference' })
    opened.close()
    expect(report.probes).toMatchObject({ n_verified: 3, n_rejected: 1 })
    const row = report.probes?.detection.find((r) => r.source === `run:${run}`)
    // The unreadable probe is judged and detects nothing, as the field table judges it; the failed one is unanswered.
    expect(row).toMatchObject({ n_probes: 2, n_tied: 0, n_unanswered: 1 })
    expect(row?.detected).toBeLessThanOrEqual(1)
    // The probes' expected verdicts label the verified probes only: the rejected one is in no table's denominator.
    const probeLabel = report.pairwise?.rows.find((r) => r.source === `run:${run}` && r.criterion === 'label:probe')
    expect(probeLabel).toMatchObject({ n_in_scope: 3, n_judged: 2, n_failed: 1, n_unparseable: 1 })
    const field = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'label:probe')
    expect(field).toMatchObject({ n_judged: row!.n_probes + row!.n_tied, n_unparseable: 1, n_failed: 1 })
  })
})

describe('a run in which every call failed, and one with nothing finished', () => {
  it('are listed with their status and reason, and left out of every comparison and card', async () => {
    const project = await Project.create(tmp.file('failed-run.assay'))
    const { ids, pairs, run } = pairsWithRun(project, 12)
    const failed = addRun(project, { instrument: 'pairwise-preference', judge: 'down' })
    addCalls(project, failed, pairs.map((p) => ({ item: ids.get(p.id) as number, status: 'failed' })))
    const pending = addRun(project, { instrument: 'pairwise-preference', judge: 'queued' })
    addCalls(project, pending, pairs.map((p) => ({ item: ids.get(p.id) as number, status: 'pending' })))
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const source = (id: string) => report.sources.find((s) => s.id === id)
    expect(source(`run:${failed}`)?.left_out).toEqual({ status: 'failed', reason: 'every call failed (12 of 12): nothing to compare' })
    expect(source(`run:${pending}`)?.left_out).toEqual({ status: 'empty', reason: 'no call has finished (12 pending): nothing to compare' })
    expect(source(`run:${run}`)?.left_out).toBeUndefined()
    for (const id of [`run:${failed}`, `run:${pending}`]) {
      expect(report.summary.some((c) => c.source === id)).toBe(false)
      expect(report.pairwise?.rows.some((r) => r.source === id)).toBe(false)
      expect(report.fields.some((f) => f.comparisons.some((r) => r.source === id))).toBe(false)
      expect(report.warnings.find((w) => w.source === id)?.code).toBe('left_out_source')
    }
    expect(report.summary[0]?.source).toBe(`run:${run}`)
  })
})

describe('the majority baseline of a comparison', () => {
  it('is counted in terms chosen on its own items: probes joining the project never change it', async () => {
    const project = await Project.create(tmp.file('baseline-terms.assay'))
    // Nine human-vs-AI pairs, seven won by the human proposal, on either side.
    const pairs: PairSpec[] = Array.from({ length: 9 }, (_, i) => {
      const humanFirst = i % 3 !== 0
      const humanWins = i < 7
      return { id: `h${i}`, origins: humanFirst ? ['human', 'ai'] : ['ai', 'human'], label: verdictFor(humanWins === humanFirst ? 'a' : 'b'), labelSource: 'citations' }
    })
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
    addCalls(project, run, pairs.map((p) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor('a') } })))
    const rowOf = (r: ReturnType<typeof projectReport>) => r.pairwise?.rows.find((x) => x.source === `run:${run}`)
    const before = rowOf(projectReport(project.db, { instrument: 'pairwise-preference' }))
    expect(before).toMatchObject({ majority_baseline: 7 / 9, majority_label: ['human'] })
    // Probe pairs (an original against its copy, both human) join, judged by another run only.
    const probes = addPairs(project, Array.from({ length: 6 }, (_, i) => ({ id: `probe${i}`, origins: ['human', 'human'] as ['human', 'human'], label: verdictFor('b'), labelSource: 'citations' })))
    const other = addRun(project, { instrument: 'pairwise-preference', judge: 'prober' })
    addCalls(project, other, [...probes.values()].map((item) => ({ item, judgement: { verdict: verdictFor('b') } })))
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    expect(report.pairwise?.label_terms).toBe('side')
    const after = rowOf(report)
    expect(after).toMatchObject({ majority_baseline: before?.majority_baseline, majority_label: ['human'], baseline_terms: 'origin', label_counts: { human: 7, ai: 2 } })
  })
})

describe('a human majority whose annotators split on some pairs', () => {
  it('leaves the split units out of its field comparisons as it does in the pairwise table: one "in scope", one "of all"', async () => {
    const project = await Project.create(tmp.file('majority-ties.assay'))
    const pairs: PairSpec[] = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations' }))
    const ids = addPairs(project, pairs)
    // Both annotators agree with the label on seven pairs; on three they split (one each way).
    annotate(project, 'pairwise-preference', pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(side(i)) } })), { human: 'ann' })
    annotate(project, 'pairwise-preference', pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(i < 3 ? side(i + 1) : side(i)) } })), { human: 'bob' })
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const majority = report.sources.find((s) => s.kind === 'human_majority')
    expect(majority?.n_tied_votes).toBe(3)
    const pairwise = report.pairwise?.rows.find((r) => r.source === majority?.id && r.criterion === 'label:citations')
    const winner = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === majority?.id && c.criterion === 'label:citations')
    expect(pairwise).toMatchObject({ n_in_scope: 7, correct: 7, accuracy_of_all: 1, n_tied_votes: 3 })
    // Before, the field table counted the three split units in scope, and so against the majority: 7 of 10.
    expect(winner).toMatchObject({ n_in_scope: 7, n_no_value: 0, n_tied_votes: 3, correct: 7, accuracy_of_all: 1 })
    // An annotator against the majority has no tied votes of its own: the field is absent from its rows.
    const annotator = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source.startsWith('annotator:') && c.criterion === 'label:citations')
    expect(annotator?.n_tied_votes).toBeUndefined()
    expect(annotator?.criterion_form).toBeUndefined()
    // Against the majority, an annotator's units are the other annotator's (all ten), not the majority's seven: said.
    const againstMajority = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === annotator?.source && c.criterion === majority?.id)
    expect(againstMajority).toMatchObject({ n_in_scope: 10, criterion_form: 'majority_of_others' })
  })

  it('leaves the split pairs out of its win rates too: no half wins for a pair it has no label on', async () => {
    const project = await Project.create(tmp.file('majority-ties-systems.assay'))
    // A human proposal on side a against the AI system's on side b; the label picks a in even pairs, b in odd ones.
    const pairs: PairSpec[] = Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, label: verdictFor(side(i)), labelSource: 'citations', origins: ['human', 'ai'], generators: [null, 'sys'] }))
    const ids = addPairs(project, pairs)
    annotate(project, 'pairwise-preference', pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(side(i)) } })), { human: 'ann' })
    annotate(project, 'pairwise-preference', pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(i < 3 ? side(i + 1) : side(i)) } })), { human: 'bob' })
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const majority = report.pairwise?.systems.find((s) => s.source === 'human-majority')
    // Seven pairs with a majority label: the system (side b) won the odd ones among them (3, 5, 7, 9).
    expect(majority?.win_rates).toEqual([expect.objectContaining({ system: 'sys', m: 7, wins: 4, ties: 0, losses: 3, missing: 0 })])
  })
})

describe("a judge's card where the human majority labels none of the judge's pairs", () => {
  it('names the majority its field row is against and why the agreement is undefined, not that the field has no majority', async () => {
    const project = await Project.create(tmp.file('majority-elsewhere.assay'))
    const pairs: PairSpec[] = Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations' }))
    const ids = addPairs(project, pairs)
    // The judge answers the first four pairs; two people answer the last four only.
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
    addCalls(project, run, pairs.slice(0, 4).map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(side(i)) } })))
    for (const human of ['ann', 'bob']) annotate(project, 'pairwise-preference', pairs.slice(4).map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(side(i)) } })), { human })
    const report = projectReport(project.db, { instrument: 'pairwise-preference' })
    project.close()
    const card = report.summary.find((c) => c.source === `run:${run}` && c.field === 'winner')
    const row = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'human-majority')
    expect(row).toMatchObject({ n_in_scope: 0, n_not_asked: 4, cohen_kappa: null })
    // Before, the card said "no human majority on this field" beside the field table's row against it.
    expect(card?.agreement).toMatchObject({ value: null, against: 'human-majority', reason: row?.reasons.cohen_kappa })
    expect(card?.agreement.definition).toContain('on the 0 units both have a value for')
  })
})
