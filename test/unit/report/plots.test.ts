import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  accuracyChart,
  buildReport,
  confusionHeatmap,
  positionBiasChart,
  reliabilityDiagram,
  renderReportHtml,
  reportPlots,
  subsetBars,
  type ReportInput
} from '../../../src/shared/report'
import { pairwisePreference } from '../../../src/shared/instruments/pairwise-preference'

const count = (svg: string, pattern: RegExp) => (svg.match(pattern) ?? []).length

describe('plot builders', () => {
  it('draw accuracy with intervals and both baselines, escaping every label', () => {
    const svg = accuracyChart(
      [
        { label: 'judge <b>&</b>', value: 0.4933, ciLow: 0.38, ciHigh: 0.6, majorityBaseline: 0.76, randomBaseline: 0.5, note: '37/75' },
        { label: 'other', value: 0.8, ciLow: null, ciHigh: null, majorityBaseline: 0.76, randomBaseline: 0.5 },
        { label: 'failed judge', value: null, ciLow: null, ciHigh: null, majorityBaseline: null, randomBaseline: 0.5 },
        { label: 'split judge', value: null, ciLow: null, ciHigh: null, majorityBaseline: null, randomBaseline: 0.5, reason: 'no judged unit: every pair <split> between its orders, a reason longer than the bar has room for' }
      ],
      { title: 'Accuracy' }
    )
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg).toContain('judge &lt;b&gt;&amp;&lt;/b&gt;')
    expect(svg).not.toContain('<b>')
    expect(count(svg, /<rect [^>]*data-value=/g)).toBe(2)
    expect(svg).toContain('49.3% (37/75) &lt; majority')
    // A bar without a value says why, never a bare "undefined": in short where the bar would be, whole on hover.
    expect(svg).not.toContain('undefined')
    expect(svg).toContain('>no value: no judged unit<')
    expect(svg).toContain('<title>no judged unit: every pair &lt;split&gt; between its orders, a reason longer than the bar has room for</title>')
    expect(svg).toContain('>no value: no judged unit: every pair &lt;split&gt; between its …<')
    expect(svg).toContain('<title>Accuracy</title>')
  })

  it('draw a confusion heatmap with every count, and say so when there is nothing to draw', () => {
    const svg = confusionHeatmap({ categories: [0, 1, 2], counts: [[13, 0, 0], [0, 20, 7], [0, 4, 56]], rowTitle: 'person', columnTitle: 'judge' }, { title: 'Score' })
    expect(count(svg, /data-count=/g)).toBe(9)
    expect(svg).toContain('>56<')
    expect(svg).toContain('100 units')
    expect(confusionHeatmap({ categories: ['a'], counts: [[0]], rowTitle: 'r', columnTitle: 'c' }, { title: 'Empty' })).toContain('No units rated by both')
  })

  it('draw a reliability diagram with the count of each bin written out', () => {
    const svg = reliabilityDiagram(
      [
        { lower: 0, upper: 0.1, count: 2, meanPredicted: 0.05, observedFrequency: 0 },
        { lower: 0.9, upper: 1, count: 17, meanPredicted: 0.95, observedFrequency: 1 }
      ],
      { title: 'Calibration', ece: 0.1 }
    )
    expect(count(svg, /<circle /g)).toBe(2)
    expect(svg).toContain('>17<')
    expect(svg).toContain('ECE 0.100')
  })

  it('draw position bias around the no-bias line and subset bars with their counts', () => {
    const position = positionBiasChart(
      [{ label: 'judge', firstPreference: 0.7, firstLow: 0.48, firstHigh: 0.85, consistency: 0.6, consistencyLow: 0.31, consistencyHigh: 0.83 }],
      { title: 'Position' }
    )
    expect(count(position, /<circle /g)).toBe(1)
    expect(position).toContain('70.0%')
    const bars = subsetBars(
      [
        { label: 'human better', series: 'judge', value: 22 / 57, ciLow: 0.26, ciHigh: 0.52, note: '22/57' },
        { label: 'ai better', series: 'judge', value: 15 / 18, ciLow: 0.6, ciHigh: 0.94, note: '15/18' }
      ],
      { title: 'Subsets', reference: 0.5 }
    )
    expect(count(bars, /data-value=/g)).toBe(2)
    expect(bars).toContain('>15/18<')
  })
})

function pairInput(): ReportInput {
  const labels: Array<'a' | 'b'> = ['a', 'a', 'b', 'a', 'b', 'a']
  return {
    project: { name: 'p', id: 'id' },
    instrument: { id: 'pairwise-preference', title: 'Which proposal is better', itemKind: 'proposal-pair', versions: [1], fields: pairwisePreference.fields },
    split: 'all',
    items: labels.map((label, i) => ({
      id: i + 1,
      externalId: `p${i}`,
      set: 's',
      split: 'none' as const,
      exposures: [],
      pair: { unit: `p${i}`, label: `${label}_better` as const, labelSource: 'citations', a: { origin: 'human' as const, system: 'human' }, b: { origin: 'ai' as const, system: 'gen' }, cohort: null, probe: null }
    })),
    sources: [
      {
        id: 'label:citations',
        kind: 'item_label',
        name: 'Citations',
        detail: {},
        calls: labels.map((label, i) => ({ itemId: i + 1, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: `p${i}`, values: { verdict: `${label}_better`, winner: label } }] }))
      },
      {
        id: 'run:1',
        kind: 'judge_run',
        name: 'Judge </script><script>alert(1)</script>',
        detail: {},
        calls: labels.flatMap((_, i) =>
          [false, true].map((swapped, order) => ({
            itemId: i + 1,
            trial: 0,
            order,
            shownFirst: swapped ? ('b' as const) : ('a' as const),
            status: 'ok' as const,
            observations: [{ unit: `p${i}`, values: { verdict: 'a_better', winner: 'a' } }]
          }))
        )
      }
    ],
    flawAudits: []
  }
}

describe('the report’s plots and HTML', () => {
  const report = buildReport(pairInput(), { generatedAt: '2026-01-01T00:00:00.000Z' })

  it('lists every plot once, with ids that can name files', () => {
    const plots = reportPlots(report)
    const ids = plots.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toContain('accuracy-pairwise-label-citations')
    expect(ids).toContain('position-pairwise')
    expect(ids).toContain('subsets-pairwise-label-citations')
    expect(plots.some((p) => p.kind === 'confusion' && p.section === 'verdict')).toBe(true)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/)
  })

  it('is one self-contained page that requests nothing and cannot be broken out of by a name', () => {
    const html = renderReportHtml(report)
    // Nothing may be fetched; the one inline script (sorting the summary cards) runs only because its hash is listed.
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-[A-Za-z0-9+/]{43}='">/)
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    const listed = /script-src 'sha256-([^']+)'/.exec(html)?.[1]
    expect(listed).toBe(createHash('sha256').update(script).digest('base64'))
    // The SVG namespace is a name, not a request; nothing else may point outside the file.
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:\/\//)
    expect(html).not.toMatch(/<(link|img|iframe)\b/)
    expect(html).not.toContain('</script><script>alert(1)')
    expect(html).toContain('Judge &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    const json = /<script type="application\/json" id="assay-report">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(JSON.parse(json)).toEqual(report)
    // Every plot, and one accuracy gauge per summary card with an accuracy.
    expect(count(html, /<svg /g)).toBe(reportPlots(report).length + new Set(report.summary.filter((c) => c.field === 'winner' && c.accuracy.value !== null).map((c) => c.source)).size)
  })
})
