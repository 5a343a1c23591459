import type { Report, ReportComparison } from '../schema'
import { subsetHeading } from '../format'
import { accuracyChart, type AccuracyBar } from './accuracy-chart'
import { confusionHeatmap } from './confusion-heatmap'
import { positionBiasChart } from './position-chart'
import { reliabilityDiagram } from './reliability-diagram'
import { subsetBars, type SubsetBar } from './subset-bars'
import { colourIn } from './colours'

export { accuracyChart, type AccuracyBar } from './accuracy-chart'
export { confusionHeatmap, type ConfusionData } from './confusion-heatmap'
export { positionBiasChart, type PositionRow } from './position-chart'
export { reliabilityDiagram, type ReliabilityBinData } from './reliability-diagram'
export { subsetBars, type SubsetBar } from './subset-bars'
export { escapeXml } from './svg'
export { colourIn, reportColours, sourceColour, JUDGE_COLOURS, PEOPLE_COLOURS } from './colours'

export type PlotKind = 'accuracy' | 'confusion' | 'reliability' | 'position' | 'subsets'

export interface ReportPlot {
  /** Stable id, usable as a file name: `<kind>-<section>-<source>`. */
  id: string
  kind: PlotKind
  /** The report section the plot belongs to: 'pairwise' or a field name. */
  section: string
  title: string
  svg: string
}

/** Confusion matrices drawn per field (the rest stay in the JSON). */
const MAX_CONFUSION_PER_FIELD = 6

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

/** Every plot of a report, in reading order. Pure: the HTML report and the report screen draw the same SVG. */
export function reportPlots(report: Report): ReportPlot[] {
  const nameOf = new Map(report.sources.map((s) => [s.id, s.name]))
  const roleOf = new Map(report.sources.map((s) => [s.id, s.role]))
  const name = (id: string) => nameOf.get(id) ?? id
  const colour = (id: string) => colourIn(report.sources, id, roleOf.get(id))
  const plots: ReportPlot[] = []
  const level = `${Math.round(report.settings.level * 100)}%`

  const pairwise = report.pairwise
  if (pairwise) {
    for (const criterion of [...new Set(pairwise.rows.map((r) => r.criterion))]) {
      const rows = pairwise.rows.filter((r) => r.criterion === criterion)
      const bars: AccuracyBar[] = rows.map((r) => ({
        label: name(r.source),
        value: r.accuracy,
        ciLow: r.ci.accuracy_bootstrap?.ci_low ?? null,
        ciHigh: r.ci.accuracy_bootstrap?.ci_high ?? null,
        majorityBaseline: r.majority_baseline,
        randomBaseline: r.random_baseline,
        note: `${r.correct}/${r.n_judged}`,
        ...(r.accuracy === null ? { reason: r.reasons.accuracy ?? 'no judged call' } : {}),
        source: r.source,
        colour: colour(r.source)
      }))
      const title = `Pairwise accuracy against ${name(criterion)}`
      plots.push({ id: `accuracy-pairwise-${slug(criterion)}`, kind: 'accuracy', section: 'pairwise', title, svg: accuracyChart(bars, { title, intervalLabel: `${level} cluster bootstrap` }) })
      // Every source gets its subsets drawn: the judges in one plot, the people (and the majority and labels they
      // make) in a second, so neither crowds the other and a judge's weak subset can be read against the people's.
      const subsetBarsOf = (sources: readonly typeof rows[number][]): SubsetBar[] =>
        sources.flatMap((r) =>
          r.subsets.map((s) => ({
            label: subsetHeading(s.by, s.value),
            series: name(r.source),
            value: s.accuracy,
            ciLow: s.ci_low,
            ciHigh: s.ci_high,
            note: `${s.correct}/${s.n_judged}`,
            source: r.source,
            colour: colour(r.source)
          }))
        )
      const groups = [
        { id: `subsets-pairwise-${slug(criterion)}`, title: `Judges: accuracy per subset against ${name(criterion)}`, bars: subsetBarsOf(rows.filter((r) => roleOf.get(r.source) === 'judge')) },
        { id: `subsets-people-pairwise-${slug(criterion)}`, title: `People: accuracy per subset against ${name(criterion)}`, bars: subsetBarsOf(rows.filter((r) => roleOf.get(r.source) !== 'judge')) }
      ]
      for (const g of groups) {
        if (g.bars.length) plots.push({ id: g.id, kind: 'subsets', section: 'pairwise', title: g.title, svg: subsetBars(g.bars, { title: g.title, reference: 0.5, referenceLabel: 'random 50%' }) })
      }
    }
    if (pairwise.position.length) {
      const title = 'Position bias'
      plots.push({
        id: 'position-pairwise',
        kind: 'position',
        section: 'pairwise',
        title,
        svg: positionBiasChart(
          pairwise.position.map((p) => ({
            label: name(p.source),
            firstPreference: p.first_position_preference,
            firstLow: p.ci.first_position_preference?.ci_low ?? null,
            firstHigh: p.ci.first_position_preference?.ci_high ?? null,
            consistency: p.position_consistency,
            consistencyLow: p.ci.position_consistency?.ci_low ?? null,
            consistencyHigh: p.ci.position_consistency?.ci_high ?? null,
            ...(p.first_position_preference === null ? { firstReason: p.reasons.first_position_preference ?? 'no answered call' } : {}),
            source: p.source,
            colour: colour(p.source)
          })),
          { title }
        )
      })
    }
  }

  for (const field of report.fields) {
    const categorical = field.level === 'nominal' || field.level === 'ordinal'
    const byCriterion = new Map<string, ReportComparison[]>()
    for (const c of field.comparisons) byCriterion.set(c.criterion, [...(byCriterion.get(c.criterion) ?? []), c])
    for (const [criterion, rows] of byCriterion) {
      // The pairwise section already draws the winner's accuracy call by call.
      if (categorical && !(pairwise && field.name === 'winner')) {
        const title = `${field.label}: accuracy against ${name(criterion)}`
        const bars = rows.map((r) => ({
          label: name(r.source),
          value: r.accuracy ?? null,
          ciLow: r.ci.accuracy_bootstrap?.ci_low ?? null,
          ciHigh: r.ci.accuracy_bootstrap?.ci_high ?? null,
          majorityBaseline: r.majority_baseline ?? null,
          randomBaseline: r.random_baseline ?? null,
          note: `${r.correct ?? 0}/${r.n_judged}`,
          ...(r.accuracy == null ? { reason: r.reasons.accuracy ?? 'no judged unit' } : {}),
          source: r.source,
          colour: colour(r.source)
        }))
        plots.push({ id: `accuracy-${slug(field.name)}-${slug(criterion)}`, kind: 'accuracy', section: field.name, title, svg: accuracyChart(bars, { title, intervalLabel: `${level} cluster bootstrap` }) })
      }
      // Confusion matrices against the first criterion only, judges and the human majority first.
      if (categorical && criterion === report.criteria[0]) {
        const ranked = rows.filter((r) => roleOf.get(r.source) !== 'human').sort((a, b) => rank(roleOf.get(a.source)) - rank(roleOf.get(b.source))).slice(0, MAX_CONFUSION_PER_FIELD)
        for (const r of ranked) {
          if (!r.confusion) continue
          const title = `${field.label}: ${name(r.source)} against ${name(criterion)}`
          plots.push({
            id: `confusion-${slug(field.name)}-${slug(r.source)}-${slug(criterion)}`,
            kind: 'confusion',
            section: field.name,
            title,
            svg: confusionHeatmap({ categories: r.confusion.categories, counts: r.confusion.counts, rowTitle: name(criterion), columnTitle: name(r.source) }, { title, colour: colour(r.source) })
          })
        }
      }
      for (const r of rows) {
        if (!r.reliability) continue
        const title = `${field.label}: calibration of ${name(r.source)} (outcome: ${r.outcome ?? ''})`
        plots.push({
          id: `reliability-${slug(field.name)}-${slug(r.source)}-${slug(criterion)}`,
          kind: 'reliability',
          section: field.name,
          title,
          svg: reliabilityDiagram(
            r.reliability.map((b) => ({ lower: b.lower, upper: b.upper, count: b.count, meanPredicted: b.mean_predicted, observedFrequency: b.observed_frequency })),
            { title, ece: r.ece ?? null, source: r.source, colour: colour(r.source) }
          )
        })
      }
    }
  }
  return plots
}

function rank(role: string | undefined): number {
  return role === 'judge' ? 0 : role === 'criterion' ? 1 : 2
}
