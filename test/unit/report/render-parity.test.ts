import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fitCardNotes, labelTermsWords, renderReportHtml, renderReportText, sourceDetailWords, sourceFlagsWords, summaryCardsHtml, undefinedResamplesWords, type Report } from '../../../src/shared/report'

// What a reader meets in the text and HTML reports (the screen renders the same cards, and the same words through
// the same functions): figures named as their section names them, and nothing the JSON has left unsaid.
// The stored golden reports, as the report builder wrote them (their volatile fields left out).
const golden = (name: string): Report => ({ generated_at: 'golden', ...(JSON.parse(readFileSync(new URL(`../../integration/report/golden/${name}.json`, import.meta.url), 'utf8')) as Omit<Report, 'generated_at'>) }) as Report

/** The text of an HTML fragment, tags dropped and entities of the report's escaping read back. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ')

describe('the pairwise section as rendered', () => {
  const report = golden('demo-after-judge')

  it('gives each Bradley–Terry interval its undefined resamples, and calls it unreliable where they are many', () => {
    const html = textOf(renderReportHtml(report))
    const text = renderReportText(report)
    const strength = report.pairwise!.systems.flatMap((s) => s.bradley_terry).find((b) => b.undefined_resamples > 0)!
    const words = undefinedResamplesWords(strength.undefined_resamples, report.settings.bootstrap.resamples)
    expect(words).toMatch(/^\d+ of 2000 \(\d+\.\d%\): interval unreliable$/)
    expect(html).toContain(words)
    expect(text).toContain(words)
  })

  it('gives each pairwise row its items, as the text report does', () => {
    const html = renderReportHtml(report)
    const section = html.slice(html.indexOf('id="pairwise"'))
    const table = section.slice(0, section.indexOf('</table>'))
    expect(textOf(table)).toContain('Of all in scope Items')
    const rows = table.split('<tr').slice(2)
    expect(rows).toHaveLength(report.pairwise!.rows.length)
    rows.forEach((row, i) => expect(textOf(row).trim().endsWith(` ${report.pairwise!.rows[i]!.n_items}`)).toBe(true))
  })

  it('shows the agreement in published forms in the HTML report as in the text report', () => {
    const html = textOf(renderReportHtml(report))
    expect(html).toContain('Agreement in published forms')
    expect(html).toContain('Chance: MT-Bench S1 33.3%, S2 50.0%, AlpacaEval 50.0%, JudgeBench 25.0%')
    expect(renderReportText(report)).toContain('Agreement in published forms (chance: MT-Bench S1 33.3%')
  })

  it('gives every source its flags and its facts in both reports', () => {
    const html = textOf(renderReportHtml(report))
    const text = renderReportText(report)
    const flagged = report.sources.find((s) => s.unreliable_interval)!
    expect(sourceFlagsWords(flagged)).toMatch(/unreliable interval \(\d+\.\d% undefined\)/)
    expect(html).toContain(sourceFlagsWords(flagged))
    const run = report.sources.find((s) => s.kind === 'judge_run')!
    expect(sourceDetailWords(run)).toMatch(/both orders: /)
    expect(html).toContain(sourceDetailWords(run))
    expect(text).toContain(sourceDetailWords(run))
  })

  it('names the card’s position figure as the position table does, with the table’s interval', () => {
    const row = report.pairwise!.position.find((p) => p.position_consistency !== null)!
    const card = textOf(summaryCardsHtml(report))
    const ci = row.ci.position_consistency!
    expect(card).toContain(`Consistency of compared ${(100 * row.position_consistency!).toFixed(1)}% [${(100 * ci.ci_low!).toFixed(1)}%, ${(100 * ci.ci_high!).toFixed(1)}%]`)
    expect(card).not.toMatch(/Position consistency/i)
  })
})

describe('a both-orders fit’s card', () => {
  it('says why it has no position figure: the fit combines both orders into one verdict', () => {
    const report = golden('fits-both-orders')
    const fit = report.calibration!.find((c) => c.method === 'both-orders')!
    const html = summaryCardsHtml(report)
    const card = textOf(html.slice(html.indexOf(`data-source="${fit.source}"`)).split('</article>')[0]!)
    expect(card).toContain('Position bias — one verdict per pair, both display orders combined by the fit')
    expect(card).not.toContain('not asked in both display orders')
  })
})

describe('label terms', () => {
  it('say when rows state their majority baseline in other terms than the section', () => {
    expect(labelTermsWords({ label_terms: 'origin', rows: [{}, {}] })).toBe('Labels are stated in human/AI terms (which origin wrote the better proposal)')
    // Probes (no origin) in scope put the section in side terms; rows over human-vs-AI pairs keep their own.
    expect(labelTermsWords({ label_terms: 'side', rows: [{ baseline_terms: 'origin' }, { baseline_terms: 'origin' }, {}] })).toBe(
      'Labels are stated in side terms (a/b, canonical order); the majority baseline of 2 of 3 rows is stated in human/AI terms (which origin wrote the better proposal), the terms of that row\'s own judged pairs (each sets a human proposal against an AI one)'
    )
  })
})

describe('a card of an interval field', () => {
  it('gives its α the bootstrap interval the field table gives it', () => {
    const report = golden('rubric-points')
    const card = report.summary.find((c) => c.agreement.statistic === 'krippendorff_alpha_interval' && c.agreement.value !== null)!
    const row = report.fields.find((f) => f.name === card.field)!.comparisons.find((r) => r.source === card.source && r.criterion === card.agreement.against)!
    expect(row.ci.krippendorff_alpha_interval?.method).toBe('cluster bootstrap (percentile)')
    expect([card.agreement.ci_low, card.agreement.ci_high]).toEqual([row.ci.krippendorff_alpha_interval!.ci_low, row.ci.krippendorff_alpha_interval!.ci_high])
    expect(card.agreement.ci_low! <= card.agreement.value! && card.agreement.value! <= card.agreement.ci_high!).toBe(true)
  })
})

describe('a fit’s card', () => {
  it('says it is scored on its eval split only, and against which criterion it was fitted where that is another', () => {
    const name = (id: string) => ({ 'human-majority': 'Human majority', label: 'Reference label' })[id] ?? id
    const report = { scope: { split: 'all' }, calibration: [{ source: 'fit:14', criterion: 'human-majority', eval_split: 'test' }] } as unknown as Pick<Report, 'calibration' | 'scope'>
    expect(fitCardNotes(report, { source: 'fit:14', criterion: 'label', criterion_name: 'Reference label' }, name)).toEqual([
      'Scored on the test split only, where it is held out; the human ceiling beside it is over every item in scope',
      'Fitted against Human majority; scored here against Reference label, as every card. Its figures against Human majority are under Recalibrated judges'
    ])
    // Units the fit could not map are pointed to from the card, which counts them.
    const unscored = { scope: { split: 'test' }, calibration: [{ source: 'fit:7', criterion: 'label', eval_split: 'test', n_eval_units: 16, n_unscored_eval_units: 4 }] } as unknown as Pick<Report, 'calibration' | 'scope'>
    expect(fitCardNotes(unscored, { source: 'fit:7', criterion: 'label', criterion_name: 'Reference label' }, name)).toEqual([
      'Its row under Recalibrated judges compares 16 units: 4 more have no score from the raw judge to map, where this card counts an unreadable answer as judged and wrong'
    ])
    // A report on the eval split alone: the ceiling is on those items too; and the same criterion says nothing.
    const onTest = { ...report, scope: { split: 'test' } }
    expect(fitCardNotes(onTest, { source: 'fit:14', criterion: 'human-majority', criterion_name: 'Human majority' }, name)).toEqual([])
    expect(fitCardNotes(report, { source: 'run:1', criterion: 'label', criterion_name: 'Reference label' }, name)).toEqual([])
  })
})
