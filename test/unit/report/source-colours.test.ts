import { describe, expect, it } from 'vitest'
import { buildReport, reportColours, reportPlots, sourceColour, summaryCardsHtml, type ReportInput, type ReportSourceInput, type Report } from '../../../src/shared/report'
import { pairwisePreference } from '../../../src/shared/instruments/pairwise-preference'

// Twelve labelled pairs, two annotators and three judge runs of different quality, all asked in both orders.
function input(runs: readonly number[]): ReportInput {
  const items = Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    externalId: `p${i}`,
    set: i % 2 ? 'one' : 'two',
    split: 'none' as const,
    exposures: [],
    pair: { unit: `p${i}`, label: i % 3 ? ('a_better' as const) : ('b_better' as const), labelSource: null, a: { origin: 'human' as const, system: 'human' }, b: { origin: 'ai' as const, system: 'gen' }, cohort: null, probe: null }
  }))
  const verdict = (i: number, right: boolean) => ({ unit: `p${i}`, values: { verdict: (i % 3 ? right : !right) ? 'a_better' : 'b_better', winner: (i % 3 ? right : !right) ? 'a' : 'b' } })
  const sources: ReportSourceInput[] = [
    ...['A01', 'A02'].map((who, k) => ({ id: `annotator:${who}`, kind: 'annotator' as const, name: who, detail: {}, calls: items.map((it, i) => ({ itemId: it.id, trial: 0, order: 0, status: 'ok' as const, observations: [verdict(i, (i + k) % 5 !== 0)] })) })),
    ...runs.map((run) => ({
      id: `run:${run}`,
      kind: 'judge_run' as const,
      name: `judge · run ${run}`,
      detail: { run_id: run },
      calls: items.flatMap((it, i) => [0, 1].map((order) => ({ itemId: it.id, trial: 0, order, shownFirst: (order ? 'b' : 'a') as 'a' | 'b', status: 'ok' as const, observations: [verdict(i, (i * run + order) % 4 !== 0)] })))
    }))
  ]
  return {
    project: { name: 'p', id: 'p' },
    instrument: { id: 'pairwise-preference', title: 'Which is better', itemKind: 'proposal-pair', versions: [1], fields: pairwisePreference.fields },
    split: 'all',
    items,
    sources,
    flawAudits: []
  }
}

/** Every colour each source is drawn in, over all plots and the summary cards. */
function coloursBySource(report: Report): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  const markup = [...reportPlots(report).map((p) => p.svg), summaryCardsHtml(report)].join('')
  for (const m of markup.matchAll(/<(?:rect|circle|polyline)\b[^>]*?(?:fill|stroke)="(#[0-9A-Fa-f]{6})"[^>]*?data-source="([^"]+)"/g)) {
    const set = out.get(m[2]!) ?? new Set<string>()
    set.add(m[1]!.toLowerCase())
    out.set(m[2]!, set)
  }
  return out
}

describe('source colours', () => {
  const all = buildReport(input([1, 2, 3]), { generatedAt: 'now' })

  it('give each source one colour in every plot and card, and judges distinct ones', () => {
    const colours = coloursBySource(all)
    for (const run of ['run:1', 'run:2', 'run:3']) {
      expect(colours.get(run)?.size, run).toBe(1)
      expect([...(colours.get(run) ?? [])][0]).toBe(sourceColour(run, 'judge').toLowerCase())
    }
    expect(new Set(['run:1', 'run:2', 'run:3'].map((r) => sourceColour(r, 'judge'))).size).toBe(3)
  })

  it('give judges whose ids share a preferred hue different colours in one report (fit 7 beside run 7, run 16 beside fit 8)', () => {
    const sources = ['run:7', 'fit:7', 'model:imp-model', 'run:16', 'fit:8'].map((id) => ({ id, role: 'judge' }))
    expect(sourceColour('run:7', 'judge')).toBe(sourceColour('fit:7', 'judge'))
    const colours = reportColours([{ id: 'label', role: 'criterion' }, ...sources])
    expect(new Set(sources.map((s) => colours.get(s.id))).size).toBe(sources.length)
    // The first listed keeps its own hue; people keep their greys.
    expect(colours.get('run:7')).toBe(sourceColour('run:7', 'judge'))
    expect(colours.get('label')).toBe(sourceColour('label', 'criterion'))
    // Beyond eight judges hues repeat, as they must.
    const many = Array.from({ length: 10 }, (_, i) => ({ id: `run:${i + 1}`, role: 'judge' }))
    expect(new Set(many.map((s) => reportColours(many).get(s.id))).size).toBe(8)
  })

  it('keep a source its colour when the others are filtered out', () => {
    const alone = coloursBySource(buildReport(input([3]), { generatedAt: 'now' }))
    expect(alone.get('run:3')).toEqual(coloursBySource(all).get('run:3'))
    expect(alone.has('run:1')).toBe(false)
  })

  it('sort the summary cards by a figure, highest first, and by name', () => {
    const order = (html: string) => [...html.matchAll(/<article class="summary-card" data-source="([^"]+)"/g)].map((m) => m[1])
    const accuracy = new Map(all.summary.filter((c) => c.field === 'winner').map((c) => [c.source, c.accuracy.value ?? -1]))
    const byAccuracy = order(summaryCardsHtml(all, 'accuracy'))
    expect(byAccuracy).toHaveLength(3)
    expect(byAccuracy.map((s) => accuracy.get(s!))).toEqual([...accuracy.values()].sort((a, b) => b - a))
    expect(order(summaryCardsHtml(all, 'name'))).toEqual(['run:1', 'run:2', 'run:3'])
  })
})
