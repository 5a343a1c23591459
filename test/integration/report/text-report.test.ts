import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import { alwaysLabel, ceilingRangeWords, comparisonColumns, scoredAgainstOutcome, FIELD_COUNTS, NO_COMPARISON, PAIRWISE_COUNTS, POSITION_NOTE, SOURCES_NOTE, WIN_RATES_NOTE, agreementLabel, fmtInterval, allAnnotatorsWords, buildReport, renderReportHtml, fmtDifference, fmtNumber, fmtPercent, fmtRange, fmtStatistic, fmtTally, intervalMethodName, renderReportText, summaryCardsHtml, summaryJudges, type ReportInput, type Report } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { addCalls, addItems, addPairs, addRun, annotate, demoAfterJudgeRun, demoWithCheckedProbes, verdictFor, type PairSpec } from './fixtures'

// The text report (`assay report` without --json) shows every section the JSON has, with the same figures formatted
// as the HTML report formats them.
const tmp = tempDir('assay-text-report-')
afterAll(() => tmp.cleanup())

/** The text of one section: from its heading to the next. */
function block(text: string, title: string): string {
  const start = text.indexOf(`== ${title} ==`)
  expect(start, `the text report has a section "${title}"`).toBeGreaterThanOrEqual(0)
  const next = text.indexOf('\n== ', start + 1)
  return text.slice(start, next < 0 ? undefined : next)
}

const lineWith = (text: string, ...parts: string[]): string | undefined => text.split('\n').find((l) => parts.every((p) => l.includes(p)))

/** Every section of the JSON that is present, by the heading the text gives it. */
function headings(report: Report): string[] {
  const out: string[] = []
  if (report.summary.length) out.push('Summary')
  out.push('Sources and denominators')
  if (report.pairwise) out.push('Pairwise verdicts')
  for (const f of report.fields) if (f.comparisons.length) out.push(`${f.label} · ${f.name} (${f.level})`)
  if (report.ceiling.length) out.push('Human ceiling')
  if (report.judge_vs_judge.length) out.push('Judge against judge')
  if (report.calibration?.length) out.push('Recalibrated judges')
  if (report.estimates?.rows.length) out.push('Estimates corrected for judge error')
  if (report.idea_originality) out.push('Originality of chosen and excluded ideas')
  if (report.flaw_matching) out.push('Judges’ flaw audits against the experts’')
  if (report.probes) out.push('Probes')
  return out
}

function everySection(report: Report): string {
  const text = renderReportText(report)
  for (const title of headings(report)) block(text, title)
  return text
}

let demo: Report
let demoPath: string
beforeAll(async () => {
  demoPath = tmp.file('demo.assay')
  const project = await demoAfterJudgeRun(demoPath)
  demo = projectReport(project.db, { instrument: 'pairwise-preference', seed: 11 })
  project.close()
}, 120_000)

describe('the text report of the demo project after a judge run', () => {
  it('has every section the JSON has, with the cards, position, systems, fatal flaws and published agreement', () => {
    const text = everySection(demo)
    const pairwise = block(text, 'Pairwise verdicts')
    for (const sub of ['Position bias', 'Bradley–Terry', 'Win rates against human proposals', 'Fatal-flaw recall', 'Agreement in published forms', 'Accuracy per subset']) expect(pairwise).toContain(sub)
    expect(pairwise).toContain(demo.pairwise!.unit)
  })

  it('gives each field row’s majority baseline with the label it always answers, as the HTML table does', () => {
    const text = renderReportText(demo)
    const field = demo.fields.find((f) => f.name === 'winner')!
    const row = field.comparisons.find((c) => typeof c.majority_baseline === 'number')!
    const table = block(text, `${field.label} · ${field.name} (${field.level})`)
    expect(lineWith(table, `${fmtPercent(row.majority_baseline)} (always ${alwaysLabel(row.majority_label ?? [])})`)).toBeDefined()
  })

  it('names the instrument versions the answers were given under, as the JSON and the HTML report do', () => {
    const mixed = { ...demo, instrument: { ...demo.instrument, versions: [1, 2] } }
    expect(renderReportText(demo).split('\n')[0]).toContain('(pairwise-preference, version 1)')
    expect(renderReportText(mixed).split('\n')[0]).toContain('(pairwise-preference, versions 1, 2)')
    expect(renderReportHtml(mixed)).toContain('instrument <code>pairwise-preference</code> (versions 1, 2)')
  })

  it('gives every card’s figures as the card gives them, with what they count', () => {
    const summary = block(renderReportText(demo), 'Summary')
    const cards = summary.split('\n').slice(2).join('\n').split(/\n(?=\S)/)
    expect(cards).toHaveLength(demo.summary.length)
    demo.summary.forEach((card, i) => {
      const text = cards[i] as string
      expect(text.startsWith(`${card.source_name} · ${card.field} (${card.level})`)).toBe(true)
      const accuracyInterval = `[${fmtPercent(card.accuracy.ci_low)}, ${fmtPercent(card.accuracy.ci_high)}] ${intervalMethodName(card.accuracy.ci_method)}`
      if (card.accuracy.value !== null) expect(text).toContain(`accuracy ${fmtPercent(card.accuracy.value)} ${accuracyInterval} · ${card.accuracy.definition}`)
      const agreement = `${fmtNumber(card.agreement.value)} [${fmtNumber(card.agreement.ci_low)}, ${fmtNumber(card.agreement.ci_high)}]`
      if (card.agreement.value !== null) expect(text).toContain(`${agreementLabel(card.agreement.statistic)} ${agreement}`)
      const range = card.human_ceiling ? fmtRange(card.human_ceiling.min, card.human_ceiling.max) : ''
      const ceiling = card.human_ceiling ? `human ceiling ${fmtNumber(card.human_ceiling.value)}${range.includes('–') ? ` (${range})` : ''} · ${card.human_ceiling.rule}` : ''
      if (card.human_ceiling) expect(text).toContain(ceiling)
      // The HTML card (the report screen shows the same HTML) writes each of these figures the same way.
      const html = summaryCardsHtml(demo, 'report')
      const own = html.slice(html.indexOf(`data-source="${card.source}"`))
      const main = summaryJudges(demo).find((j) => j.source === card.source)?.main === card
      const field = main ? own.slice(0, own.indexOf('Other fields')) : own.slice(own.indexOf(`data-field="${card.field}"`))
      if (main) {
        if (card.accuracy.value !== null) expect(field).toContain(accuracyInterval)
        if (card.agreement.value !== null) expect(field).toContain(`${fmtNumber(card.agreement.value)}</strong> <span class="ci">[${fmtNumber(card.agreement.ci_low)}, ${fmtNumber(card.agreement.ci_high)}]`)
        if (card.human_ceiling) expect(field).toContain(ceiling)
      } else if (card.agreement.value !== null) expect(field.slice(0, 600)).toContain(`>${fmtNumber(card.agreement.value)}<`)
      if (card.position) expect(text).toContain(`consistency of compared ${fmtPercent(card.position.consistency)}`)
      expect(text).toContain(card.verdict)
    })
  })

  it('gives the position table’s shares of the pairs in both orders adding up to 100%, and the consistency of compared beside them', () => {
    // The golden 240-pair project has unparseable orders, so its two consistencies differ; the demo's do not.
    const golden = JSON.parse(readFileSync(new URL('./golden/synthetic-pairs.json', import.meta.url), 'utf8')) as Report
    expect(golden.pairwise!.position.some((p) => p.position_consistency !== p.mt_bench_consistency)).toBe(true)
    for (const report of [demo, golden]) positionRowsAddUp(report)
  })

  function positionRowsAddUp(report: Report): void {
    const pairwise = block(renderReportText(report), 'Pairwise verdicts')
    const start = pairwise.indexOf('Position bias (runs asked in both display orders)')
    const table = pairwise.slice(start, pairwise.indexOf('\n\n', start))
    const names = new Map(report.sources.map((s) => [s.id, s.name]))
    expect(table).toContain(POSITION_NOTE)
    expect(report.pairwise!.position.length).toBeGreaterThan(0)
    for (const p of report.pairwise!.position) {
      const line = table.split('\n').find((l) => l.startsWith(`${names.get(p.source)}  `) && l.includes(`  ${p.n_pairs}  `))
      expect(line, p.source).toBeDefined()
      const cells = line!.split(/\s{2,}/)
      expect(cells.slice(1, 8)).toEqual([String(p.n_pairs), fmtPercent(p.mt_bench_consistency), fmtPercent(p.biased_to_first), fmtPercent(p.biased_to_second), fmtPercent(p.error_rate), String(p.n_compared), fmtPercent(p.position_consistency)])
      // The HTML table's consistency column is the same MT-Bench share.
      // (A golden report leaves out its time of making.)
      const html = renderReportHtml({ ...report, generated_at: report.generated_at ?? 'fixed' })
      const position = html.slice(html.indexOf('id="position"'))
      expect(position).toContain(`data-statistic="mt_bench_consistency">${fmtPercent(p.mt_bench_consistency)}`)
      const shares = [p.mt_bench_consistency, p.biased_to_first, p.biased_to_second, p.error_rate] as number[]
      expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12)
    }
  }

  it('gives the pairwise table’s counts as the HTML does, with what accuracy is of', () => {
    const pairwise = block(renderReportText(demo), 'Pairwise verdicts')
    const table = pairwise.slice(0, pairwise.indexOf('\n\n'))
    expect(table).toContain(PAIRWISE_COUNTS)
    const names = new Map(demo.sources.map((s) => [s.id, s.name]))
    for (const r of demo.pairwise!.rows) {
      const line = table.split('\n').find((l) => l.startsWith(`${names.get(r.source)}  `) && l.includes(`  ${names.get(r.criterion)}  `))
      expect(line, `${r.source} ${r.criterion}`).toBeDefined()
      const counts = [r.n_in_scope, r.n_judged, r.n_failed, r.n_unparseable, r.n_abstained, r.n_pending, r.n_ties, r.correct].map(String)
      // The accuracy, its Wilson interval and the two baselines first, then the counts.
      const cells = line!.split(/\s{2,}/)
      expect(cells[2]).toBe(fmtPercent(r.accuracy))
      expect(cells[4]).toBe(`${fmtPercent(r.majority_baseline)} (always ${alwaysLabel(r.majority_label)})`)
      expect(cells.slice(6, 14)).toEqual(counts)
    }
  })

  it('gives each field table’s counts as the HTML does, with what each count is', () => {
    const text = renderReportText(demo)
    const html = renderReportHtml(demo)
    const names = new Map(demo.sources.map((s) => [s.id, s.name]))
    for (const field of demo.fields) {
      if (field.comparisons.length === 0) continue
      const table = block(text, `${field.label} · ${field.name} (${field.level})`)
      expect(table).toContain(FIELD_COUNTS)
      for (const c of field.comparisons) {
        const line = table.split('\n').find((l) => l.startsWith(`${names.get(c.source)}  `) && l.includes(`  ${names.get(c.criterion)}  `))
        expect(line, `${field.name} ${c.source} ${c.criterion}`).toBeDefined()
        const counts = [c.n_in_scope, c.n_judged, c.n, c.n_failed, c.n_unparseable, c.n_abstained, c.n_pending, c.n_no_value].map(String)
        // The statistics first, then the counts.
        const statistics = comparisonColumns(field.level, scoredAgainstOutcome(field)).length
        expect(line!.split(/\s{2,}/).slice(2 + statistics, 10 + statistics)).toEqual(counts)
      }
      const section = html.slice(html.indexOf(`id="field-${field.name}"`))
      expect(section.slice(0, 4000)).toContain('judged: n, the unparseable and the ties a source gave as its answer')
    }
  })

  it('gives the sources’ denominators, the ceiling in both forms and judge against judge as the JSON does', () => {
    const text = renderReportText(demo)
    const sources = block(text, 'Sources and denominators')
    // What "tied votes" counts (a unit once, whatever its fields), said with the table in text and in HTML alike.
    expect(sources).toContain(SOURCES_NOTE)
    expect(renderReportHtml(demo)).toContain(SOURCES_NOTE.replace(/'/g, '&#39;'))
    for (const s of demo.sources) {
      const line = lineWith(sources, s.name, s.kind)
      expect(line, s.name).toBeDefined()
      expect(line!.split(/\s{2,}/).slice(2, 10)).toEqual([s.n_items, s.n_calls, s.n_answered, s.n_failed, s.n_unparseable, s.n_abstained, s.n_pending, s.n_tied_votes].map(String))
    }
    const ceiling = block(text, 'Human ceiling')
    const name = new Map(demo.sources.map((s) => [s.id, s.name]))
    for (const c of demo.ceiling) {
      const start = ceiling.indexOf(`\n${c.field} (${c.level}) · all annotators at once`)
      expect(start).toBeGreaterThan(0)
      const end = ceiling.indexOf('\n\n', start + 1)
      const part = ceiling.slice(start, end < 0 ? undefined : end)
      for (const j of c.judge_human) {
        const line = lineWith(part, `${name.get(j.source)} · with each annotator`)
        expect(line).toBeDefined()
        for (const s of c.statistics) expect(line).toContain(fmtStatistic(s, j.mean[s]?.value))
      }
      const others = lineWith(part, 'each annotator against the majority of the others')
      for (const s of c.statistics) {
        const o = c.human_human.against_majority_of_others[s]
        expect(others).toContain(fmtStatistic(s, o?.value))
        // With the annotators' range beside it, as its heading promises and the HTML table gives it.
        if (o && o.value !== null && ceilingRangeWords(s, o)) expect(others).toContain(`(${ceilingRangeWords(s, o)})`)
      }
    }
    const jvj = block(text, 'Judge against judge')
    for (const r of demo.judge_vs_judge) {
      const line = lineWith(jvj, `${r.both_correct}/${r.only_first}/${r.only_second}/${r.both_wrong}`, fmtPercent(r.first_value), fmtPercent(r.second_value), fmtDifference(r.difference, true))
      expect(line, `${r.field} ${r.first} ${r.second}`).toBeDefined()
    }
  })

  it('gives the ceiling’s all-annotators line, Gwet’s AC1 included, the same in text and HTML', () => {
    const text = renderReportText(demo)
    const html = renderReportHtml(demo)
    const withAc1 = demo.ceiling.filter((c) => c.human_human.gwet_ac1 !== undefined)
    expect(withAc1.length).toBeGreaterThan(0)
    for (const c of demo.ceiling) {
      const line = allAnnotatorsWords(c.human_human, c.level, c.n_annotators)
      if (c.human_human.gwet_ac1 !== undefined) expect(line).toContain(`Gwet's AC1 ${fmtNumber(c.human_human.gwet_ac1)}`)
      expect(text).toContain(`${c.field} (${c.level}) · all annotators at once: ${line}`)
      expect(html).toContain(`All annotators at once: ${line.replace(/'/g, '&#39;')}`)
    }
  })

  it('names a subset of pairs by an imported probe tag as such, never as the probes the probes section counts', () => {
    const tagged = demo.pairwise!.rows.flatMap((r) => r.subsets).filter((s) => s.by === 'probe')
    expect(tagged.length).toBeGreaterThan(0)
    const text = renderReportText(demo)
    const html = renderReportHtml(demo)
    for (const s of tagged) {
      expect(text).toContain(`imported probe tag: ${s.value}`)
      expect(html).toContain(`imported probe tag: ${s.value}`)
    }
    expect(text).not.toMatch(/\bprobe: /)
  })

  it('gives the win rates’ note, each "of all in scope" with its interval, and fields no source could be scored on, as the HTML does', () => {
    const text = renderReportText(demo)
    const html = renderReportHtml(demo)
    expect(demo.pairwise!.systems.some((s) => s.win_rates.length > 0)).toBe(true)
    expect(text).toContain(WIN_RATES_NOTE)
    expect(html).toContain(WIN_RATES_NOTE.replace(/'/g, '&#39;'))
    const pairwise = block(text, 'Pairwise verdicts')
    for (const r of demo.pairwise!.rows) expect(pairwise).toContain(`${fmtPercent(r.accuracy_of_all)} ${fmtInterval(r.ci.accuracy_of_all, true)}`)
    const empty = demo.fields.filter((f) => f.comparisons.length === 0)
    expect(empty.length).toBeGreaterThan(0)
    for (const f of empty) expect(block(text, `${f.label} · ${f.name} (${f.level})`)).toContain(NO_COMPARISON)
  })

  it('is what assay report prints without --json', async () => {
    const printed = await runCli('report', demoPath, '--instrument', 'pairwise-preference', '--seed', '11')
    expect(printed.code).toBe(0)
    expect(printed.stdout.trimEnd()).toBe(renderReportText(demo).trimEnd())
  })
})

describe('the text report’s sections present only for some projects', () => {
  it('recalibrated judges', async () => {
    const project = await Project.create(tmp.file('fits.assay'))
    const side = (i: number): 'a' | 'b' => (i % 2 ? 'b' : 'a')
    const pairs: PairSpec[] = Array.from({ length: 16 }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < 8 ? 'dev' : 'test' }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
    addCalls(project, run, pairs.flatMap((p, i) => [
      { item: ids.get(p.id) as number, order: 0, swapped: false, judgement: { verdict: verdictFor(i % 3 === 0 ? 'a' : side(i)) } },
      { item: ids.get(p.id) as number, order: 1, swapped: true, judgement: { verdict: verdictFor(i % 4 === 0 ? 'b' : side(i)) } }
    ]))
    calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', rule: 'conservative' })
    const report = projectReport(project.db, { instrument: 'pairwise-preference', seed: 4 })
    project.close()
    const section = block(everySection(report), 'Recalibrated judges')
    const [row] = report.calibration!
    expect(section).toContain(`accuracy ${fmtPercent(row!.decision!.before_accuracy)} → ${fmtPercent(row!.decision!.after_accuracy)}`)
    expect(section).toContain(`${row!.changes!.n_ties} ties of ${row!.changes!.n_pairs} pairs`)
  })

  it('estimates corrected for judge error', async () => {
    const p = await Project.create(tmp.file('estimates.assay'))
    const byId = addItems(p, 'rediscovery-task', Array.from({ length: 60 }, (_, k) => ({ id: `t${k}`, payload: { task_id: `t${k}`, background: 'b', question: 'q', finding: 'f' } })))
    const ids = [...byId.values()]
    const leak = (v: boolean) => ({ leak: v, evidence: '' })
    annotate(p, 'leak-audit', ids.slice(0, 40).map((item, k) => ({ item, judgement: leak(k % 4 === 0) })), { human: 'Expert A' })
    const run = addRun(p, { instrument: 'leak-audit', judge: 'leak-judge' })
    addCalls(p, run, ids.map((item, k) => ({ item, judgement: leak(k % 3 === 0) })))
    const report = projectReport(p.db, { instrument: 'leak-audit', seed: 7 })
    p.close()
    const section = block(everySection(report), 'Estimates corrected for judge error')
    const row = report.estimates!.rows[0]!
    expect(lineWith(section, row.quantity, String(row.n_labelled), String(row.n_unlabelled), fmtNumber(row.ppi.value))).toBeDefined()
  })

  it('originality of chosen and excluded ideas, and judges’ flaw audits against the experts’', () => {
    const idea = (id: number, keyword: string, selected: boolean) => ({ id, externalId: `i${id}`, set: 'gen', split: 'none' as const, exposures: [], generatedIdea: { selected, scheme: 'omega-point', group: `1\u0000${keyword}` } })
    const ideas: ReportInput = {
      project: { name: 'p', id: 'p' },
      instrument: { id: 'idea-review', title: 'Review of an idea', itemKind: 'idea', versions: [1], fields: [{ name: 'originality', label: 'Originality', level: 'ordinal', categories: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }] },
      split: 'all',
      items: [idea(1, 'a', true), idea(2, 'a', false), idea(3, 'b', true), idea(4, 'b', false)],
      sources: [{ id: 'run:1', kind: 'judge_run', name: 'reviewer', detail: {}, calls: [8, 4, 6, 5].map((v, i) => ({ itemId: i + 1, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'idea', values: { originality: v } }] })) }],
      flawAudits: []
    }
    const originality = buildReport(ideas, { generatedAt: 'x' })
    const section = block(everySection(originality), 'Originality of chosen and excluded ideas')
    for (const r of originality.idea_originality!.rows) expect(lineWith(section, r.scheme, fmtNumber(r.mean_selected), fmtNumber(r.mean_excluded), fmtNumber(r.difference))).toBeDefined()

    const flaw = (side: 'a' | 'b', type: string, severity: string) => ({ side, type, severity, evidence: 'the words' })
    const audit = (id: string, kind: 'annotator' | 'judge_run', flaws: ReturnType<typeof flaw>[]) => ({ id, kind, name: id, detail: {}, calls: [{ itemId: 1, trial: 0, order: 0, status: 'ok' as const, observations: [], flaws, unparseableFlaws: 0 }] })
    const audits: ReportInput = {
      project: { name: 'p', id: 'p' },
      instrument: { id: 'flaw-audit', title: 'Flaws', itemKind: 'proposal-pair', versions: [2], fields: [{ name: 'has_fatal', label: 'Has a fatal flaw', level: 'nominal', categories: [false, true] }] },
      split: 'all',
      items: [{ id: 1, externalId: 'p1', set: 's', split: 'none', exposures: [] }],
      sources: [audit('annotator:x', 'annotator', [flaw('b', 'unsound_method', 'fatal')]), audit('annotator:y', 'annotator', [flaw('b', 'unsound_method', 'major')]), audit('run:1', 'judge_run', [flaw('b', 'unsound_method', 'minor'), flaw('a', 'infeasible', 'fatal')])],
      flawAudits: []
    }
    const matching = buildReport(audits, { generatedAt: 'x' })
    const flaws = block(everySection(matching), 'Judges’ flaw audits against the experts’')
    const [row] = matching.flaw_matching!.rows
    expect(lineWith(flaws, row!.reference, fmtPercent(row!.overall.recall), fmtPercent(row!.overall.precision))).toBeDefined()
  })

  it('probes', async () => {
    const { path, probes } = await demoWithCheckedProbes(tmp.file('probes.assay'), 3)
    const opened = await Project.open(path)
    const run = addRun(opened, { instrument: 'pairwise-preference', judge: 'prober' })
    addCalls(opened, run, probes.map((p, k) => ({ item: p.itemId, judgement: { verdict: k === 0 ? 'b_better' : 'a_better' } })))
    const report = projectReport(opened.db, { instrument: 'pairwise-preference', seed: 2 })
    opened.close()
    const section = block(everySection(report), 'Probes')
    expect(section).toContain(`${report.probes!.n_verified} verified`)
    const row = report.probes!.detection.find((r) => r.source === `run:${run}`)!
    expect(lineWith(section, 'prober', row.kind, String(row.n_probes), String(row.detected), fmtPercent(row.rate))).toBeDefined()
    // Every column the HTML's detection table has, in the same words: role, families, the count as the HTML writes it.
    const line = lineWith(section, 'prober', row.kind)!
    expect(line.split(/\s{2,}/).slice(0, 9)).toEqual(['prober · run ' + run, row.role, row.kind, String(row.n_probes), String(row.n_families), String(row.n_tied), String(row.n_unanswered), fmtTally(row.detected), fmtPercent(row.rate)])
    const html = renderReportHtml(report)
    expect(html).toContain(`<td class="num">${fmtTally(row.detected)} / ${row.n_probes}</td><td class="num">${row.n_families}</td>`)
  }, 120_000)
})
