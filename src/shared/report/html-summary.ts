import { alwaysLabel, agreementLabel, ceilingWords, fmtRange, LOWER_IS_BETTER, noCeilingWhy, fatalFlawDenominator, fmtBounds, fmtNumber, fmtPercent, intervalMethodName, NONE, positionDenominators } from './format'
import { accuracyGauge } from './plots/card-gauge'
import { ceilingVerdictWords, noSummaryWhy } from './summary'
import { fitCardNotes } from './table-words'
import { colourIn } from './plots/colours'
import { escapeXml as esc } from './plots/svg'
import type { Report } from './schema'
import type { ReportSummaryCard } from './summary-schema'

/**
 * The summary cards at the top of the report, one per judge, written once as HTML for both the exported report and
 * the report screen (which sorts them with the same keys). A card leads with the judge's main field (the pairwise
 * winner, else the first field); its other fields follow as one compact row each, so a verdict is said once.
 */

export interface JudgeSummary {
  source: string
  name: string
  colour: string
  main: ReportSummaryCard
  others: ReportSummaryCard[]
}

export const SUMMARY_SORT_KEYS = [
  { key: 'report', label: 'report order' },
  { key: 'accuracy', label: 'accuracy' },
  { key: 'margin', label: 'accuracy above majority baseline' },
  { key: 'agreement', label: 'agreement with people' },
  { key: 'ceiling', label: 'agreement against the human ceiling' },
  { key: 'position', label: 'consistency of compared (position)' },
  { key: 'fatal', label: 'fatal-flaw recall' },
  { key: 'items', label: 'items' },
  { key: 'name', label: 'name' }
] as const
export type SummarySortKey = (typeof SUMMARY_SORT_KEYS)[number]['key']

/** The value a card is sorted by (higher first; names alphabetically; undefined values last). */
export function sortValue(judge: JudgeSummary, key: SummarySortKey, index: number): number | string | null {
  const c = judge.main
  switch (key) {
    case 'report':
      return -index
    case 'name':
      return judge.name
    case 'accuracy':
      return c.accuracy.value
    case 'margin':
      return c.accuracy.value !== null && c.majority_baseline !== null ? c.accuracy.value - c.majority_baseline : null
    case 'agreement':
      // An error (a Brier score) is on no common scale with a κ, where higher is better: such cards go last.
      return LOWER_IS_BETTER.has(c.agreement.statistic) ? null : c.agreement.value
    case 'ceiling':
      // A margin of an error over people's is on another scale than a κ's: such cards go last, as under agreement.
      if (c.agreement.value === null || typeof c.human_ceiling?.value !== 'number' || LOWER_IS_BETTER.has(c.agreement.statistic)) return null
      return c.agreement.value - c.human_ceiling.value
    case 'position':
      return c.position?.consistency ?? null
    case 'fatal':
      return c.fatal_flaw_recall?.value ?? null
    case 'items':
      return c.n_items
  }
}

export function summaryJudges(report: Report): JudgeSummary[] {
  const roleOf = new Map(report.sources.map((s) => [s.id, s.role]))
  const bySource = new Map<string, ReportSummaryCard[]>()
  for (const card of report.summary) bySource.set(card.source, [...(bySource.get(card.source) ?? []), card])
  return [...bySource.entries()].map(([source, cards]) => {
    const main = cards.find((c) => c.field === 'winner') ?? (cards[0] as ReportSummaryCard)
    return { source, name: main.source_name, colour: colourIn(report.sources, source, roleOf.get(source) ?? 'judge'), main, others: cards.filter((c) => c !== main) }
  })
}

export function sortJudges(judges: readonly JudgeSummary[], key: SummarySortKey): JudgeSummary[] {
  const keyed = judges.map((j, i) => ({ j, v: sortValue(j, key, i) }))
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === null ? (b.v === null ? 0 : 1) : -1
    if (typeof a.v === 'string' || typeof b.v === 'string') return String(a.v).localeCompare(String(b.v))
    return b.v - a.v
  })
  return keyed.map((k) => k.j)
}

/** Plain words for the verdict codes, in the order the report gives them; the figures stand beside them. */
const VERDICT_WORDS: Readonly<Record<string, string>> = {
  too_few_items: 'too few items to say',
  unreliable_interval: 'interval unreliable',
  below_majority_baseline: 'below its majority baseline',
  at_or_above_majority_baseline: 'at or above its majority baseline',
  mostly_unreadable: 'most answers unreadable (counted as not correct)',
  below_human_ceiling: 'below the human ceiling',
  within_human_ceiling: 'within the human ceiling',
  above_human_ceiling: 'above the human ceiling',
  no_human_ceiling: 'no human ceiling to compare with',
  position_inconsistent: 'changes its verdict when the order is swapped',
  misses_fatal_flaws: 'misses fatal flaws'
}
const WARNING_VERDICTS: ReadonlySet<string> = new Set(['too_few_items', 'unreliable_interval', 'below_majority_baseline', 'mostly_unreadable', 'below_human_ceiling', 'position_inconsistent', 'misses_fatal_flaws'])

/** Flags are shown as chips with their figures, so the sentence leaves them out. */
const FLAG_VERDICTS: ReadonlySet<string> = new Set(['too_few_items', 'unreliable_interval'])

function verdictLine(card: ReportSummaryCard): string {
  const words = card.verdicts.filter((v) => !FLAG_VERDICTS.has(v)).map((v) => VERDICT_WORDS[v] ?? v.replace(/_/g, ' '))
  const line = words.join('; ')
  return line ? `${line.charAt(0).toUpperCase()}${line.slice(1)}.` : ''
}

/** Where an error leads (Brier: lower is better), the ceiling's words say which way they read. */
const ERROR_CEILING_WORDS: Readonly<Record<string, string>> = {
  below_human_ceiling: 'below the human ceiling: a larger error',
  above_human_ceiling: 'above the human ceiling: a smaller error'
}

function tags(card: ReportSummaryCard): string {
  const error = LOWER_IS_BETTER.has(card.agreement.statistic)
  return card.verdicts
    .map((v) => {
      // A ceiling chip's hover gives its figures and which way it reads, as the verdict sentence does.
      const title = v === 'no_human_ceiling' ? noCeilingWhy(card.human_ceiling) : v === 'above_human_ceiling' || v === 'within_human_ceiling' || v === 'below_human_ceiling' ? ceilingVerdictWords(v, card) : ''
      const words = (error ? ERROR_CEILING_WORDS[v] : undefined) ?? VERDICT_WORDS[v] ?? v
      return `<span class="tag${WARNING_VERDICTS.has(v) ? ' warn' : ''}" data-verdict="${esc(v)}"${title ? ` title="${esc(title)}"` : ''}>${esc(words)}</span>`
    })
    .join(' ')
}


/** A card's interval, written as the tables write it (3 decimals, or 1 for percentages), with how it was made. */
const interval = (f: { ci_low: number | null; ci_high: number | null; ci_method?: string | null }, asPercent: boolean) => {
  const written = fmtBounds(f.ci_low, f.ci_high, asPercent)
  const method = intervalMethodName(f.ci_method)
  return written && method ? `${written} ${method}` : written
}

function figure(label: string, main: string, sub: string, attrs = ''): string {
  return `<div class="figure"${attrs}><dt>${esc(label)}</dt><dd class="value">${main}</dd>${sub ? `<dd class="sub">${sub}</dd>` : ''}</div>`
}

/** The card's accuracy definition, shortened to its denominator: "of 23 judged calls (each display order of each pair), 12 items". */
function accuracyWords(definition: string): string {
  return definition.replace(/^correct share of /, 'of ').replace(/ against .*, on /, ', ')
}

function accuracyFigure(c: ReportSummaryCard): string {
  if (c.accuracy.value === null) return figure('Accuracy', NONE, `${esc(c.accuracy.reason ?? 'not defined for this field')}${c.accuracy.definition ? `<br>${esc(accuracyWords(c.accuracy.definition))}` : ''}`)
  const ci = interval(c.accuracy, true)
  const always = c.majority_label.length ? ` (always ${alwaysLabel(c.majority_label)})` : ''
  const below = c.majority_baseline !== null && c.accuracy.value < c.majority_baseline
  return figure(
    'Accuracy',
    `<strong class="${below ? 'below' : ''}">${esc(fmtPercent(c.accuracy.value))}</strong> <span class="ci">${esc(ci)}</span>`,
    `${c.accuracy.definition ? `${esc(accuracyWords(c.accuracy.definition))}<br>` : ''}majority baseline ${esc(fmtPercent(c.majority_baseline))}${esc(always)} · random ${esc(fmtPercent(c.random_baseline))}`
  )
}

function agreementFigure(c: ReportSummaryCard, name: (id: string) => string): string {
  const a = c.agreement
  const against = a.against ? ` with ${name(a.against)}` : ' with people'
  const units = a.definition ? (/on the (\d+ units?)/.exec(a.definition)?.[1] ?? null) : null
  const ceiling = c.human_ceiling
  const sub = ceiling ? ceilingWords(ceiling) : `no human ceiling (${noCeilingWhy(ceiling)})`
  const main = a.value === null ? `<span title="${esc(a.reason ?? '')}">${NONE}</span>` : `<strong>${esc(fmtNumber(a.value))}</strong> <span class="ci">${esc(interval(a, false))}</span>`
  return figure(`${agreementLabel(c.agreement.statistic)}${against}`, main, `${units ? `${esc(`on ${units}`)}<br>` : ''}${esc(sub)}`)
}

/**
 * The card's position figure: the position table's "Consistency of compared", under that name and with its interval,
 * read from the table's row. A card without one says why: a fit that combines both orders gives one verdict a pair.
 */
function positionFigure(report: Report, c: ReportSummaryCard): string {
  const p = c.position
  if (!p) return figure('Position bias', `<span class="muted">${NONE}</span>`, noPositionWhy(report, c.source))
  const ci = report.pairwise?.position.find((row) => row.source === c.source)?.ci.position_consistency
  const bounds = ci ? interval({ ...ci, ci_method: ci.method }, true) : ''
  return figure(
    'Consistency of compared',
    `<strong>${esc(fmtPercent(p.consistency))}</strong>${bounds ? ` <span class="ci">${esc(bounds)}</span>` : ''}`,
    esc(positionDenominators(p))
  )
}

/** Why a card has no position figure. */
function noPositionWhy(report: Report, source: string): string {
  const listed = report.sources.find((s) => s.id === source)
  if (listed?.kind === 'calibrated' && listed.detail.method === 'both-orders') return 'one verdict per pair, both display orders combined by the fit: no order to compare'
  return 'not asked in both display orders'
}

function fatalFigure(c: ReportSummaryCard): string {
  const f = c.fatal_flaw_recall
  if (!f) return figure('Fatal-flaw recall', `<span class="muted">${NONE}</span>`, 'no fatal flaws marked by people')
  return figure(
    'Fatal-flaw recall',
    f.value === null ? NONE : `<strong>${esc(fmtPercent(f.value))}</strong> <span class="ci">${esc(interval(f, true))}</span>`,
    esc(fatalFlawDenominator(f))
  )
}

/** Under a compact row's accuracy: what it is of, and the units answered without a value that it leaves out. */
function compactDenominator(c: ReportSummaryCard): string {
  if (c.accuracy.value === null) return c.n_without_value ? `<span class="of">0 judged</span><span class="of">${c.n_without_value} without a value</span>` : ''
  const without = c.n_without_value ? `<span class="of">${c.n_without_value} without a value</span>` : ''
  return `<span class="of">of ${c.n_units} judged</span>${without}`
}

/** Under a compact row's agreement: its interval and the units it is on, as the main figure gives them. */
function agreementExtent(c: ReportSummaryCard): string {
  const a = c.agreement
  if (a.value === null) return ''
  const units = a.definition ? (/on the (\d+ units?)/.exec(a.definition)?.[1] ?? null) : null
  const parts = [interval(a, false), units ? `on ${units}` : ''].filter(Boolean)
  return parts.length ? `<span class="of">${esc(parts.join(' · '))}</span>` : ''
}

/** Under a compact row's ceiling: the annotators' range its verdict is read against, where they differ. */
function ceilingRangeOf(c: ReportSummaryCard): string {
  const h = c.human_ceiling
  if (!h || h.value === null || h.min === null || h.max === null || h.min === h.max) return ''
  return `<span class="of">annotators ${esc(fmtRange(h.min, h.max))}</span>`
}

/** A cell's hover text: why a dash is one, or what a figure is. */
const cellTitle = (words: string | null | undefined): string => (words ? ` title="${esc(words)}"` : '')

function otherFields(others: readonly ReportSummaryCard[], label: (field: string) => string): string {
  if (others.length === 0) return ''
  const rows = others.map(
    (c) =>
      `<tr data-field="${esc(c.field)}"><td>${esc(label(c.field))}</td><td class="num"${cellTitle(c.accuracy.value === null ? (c.accuracy.reason ?? c.accuracy.definition) : c.accuracy.definition)}>${esc(fmtPercent(c.accuracy.value))}${compactDenominator(c)}</td><td class="num"${cellTitle(c.majority_baseline === null ? (c.accuracy.reason ?? 'no majority label to always answer') : null)}>${esc(fmtPercent(c.majority_baseline))}</td><td class="num"${cellTitle(c.agreement.value === null ? c.agreement.reason : c.agreement.definition)}>${esc(fmtNumber(c.agreement.value))}<span class="of">${esc(agreementLabel(c.agreement.statistic))}${LOWER_IS_BETTER.has(c.agreement.statistic) ? ', lower is better' : ''}</span>${agreementExtent(c)}</td><td class="num"${cellTitle(c.human_ceiling?.value == null ? noCeilingWhy(c.human_ceiling) : ceilingWords(c.human_ceiling))}>${esc(fmtNumber(c.human_ceiling?.value ?? null))}${ceilingRangeOf(c)}</td><td>${tags(c)}</td></tr>`
  )
  return `<details class="other-fields"><summary>Other fields (${others.length})</summary><table><thead><tr><th>Field</th><th class="num">Accuracy</th><th class="num">Majority</th><th class="num">Agreement</th><th class="num">Ceiling</th><th>Verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`
}

function flags(c: ReportSummaryCard, minItems: number): string {
  const out: string[] = []
  if (c.flags.too_few_items) out.push(`too few items to say: ${c.n_items}, below ${minItems}`)
  if (c.flags.unreliable_interval) out.push(`unreliable interval: ${fmtPercent(c.flags.undefined_resample_share)} of resamples undefined`)
  return out.length ? `<p class="flags">${out.map((f) => `<span class="flag">${esc(f)}</span>`).join(' ')}</p>` : ''
}

function fittedAgainst(report: Report, c: ReportSummaryCard, name: (id: string) => string): string {
  return fitCardNotes(report, c, name).map((note) => `<p class="muted small fit-note">${esc(note)}.</p>`).join('')
}

function card(report: Report, j: JudgeSummary, index: number): string {
  const names = new Map(report.sources.map((s) => [s.id, s.name]))
  const name = (id: string) => names.get(id) ?? id
  const labels = new Map(report.fields.map((f) => [f.name, f.label]))
  const label = (field: string) => labels.get(field) ?? field
  const source = report.sources.find((s) => s.id === j.source)
  const kind = `${source?.kind.replace(/_/g, ' ') ?? 'judge'}${source?.detail.archived === true ? ' (archived)' : ''}`
  const c = j.main
  const sortAttrs = SUMMARY_SORT_KEYS.map(({ key }) => {
    const v = sortValue(j, key, index)
    return v === null ? '' : ` data-sort-${key}="${esc(String(v))}"`
  }).join('')
  const gauge = accuracyGauge(
    { value: c.accuracy.value, ciLow: c.accuracy.ci_low, ciHigh: c.accuracy.ci_high, majorityBaseline: c.majority_baseline, randomBaseline: c.random_baseline, source: j.source, colour: j.colour },
    { title: `Accuracy of ${j.name} with its majority (solid) and random (dashed) baselines` }
  )
  return `<article class="summary-card" data-source="${esc(j.source)}" style="--source-colour: ${esc(j.colour)}"${sortAttrs}>
<header><span class="swatch" style="background: ${esc(j.colour)}" data-source="${esc(j.source)}"></span><h3>${esc(j.name)}</h3><span class="muted small">${esc(kind)} · ${esc(label(c.field))} (${esc(c.level)}) against ${esc(c.criterion_name ?? 'no criterion')} · ${c.n_items} items</span></header>
${flags(c, report.settings.min_items_for_interval)}${fittedAgainst(report, c, name)}
<p class="verdict" title="${esc(c.verdict)}">${esc(verdictLine(c))}</p>
${c.accuracy.value !== null ? `<div class="gauge">${gauge}</div>` : ''}
<dl class="figures">${accuracyFigure(c)}${agreementFigure(c, name)}${report.pairwise ? positionFigure(report, c) + fatalFigure(c) : ''}</dl>
${otherFields(j.others, label)}
</article>`
}

/** The cards, in the given order (the report's own order by default). */
export function summaryCardsHtml(report: Report, key: SummarySortKey = 'report'): string {
  const judges = summaryJudges(report)
  if (judges.length === 0) return `<p class="muted">${esc(noSummaryWhy(report))}</p>`
  const index = new Map(judges.map((j, i) => [j.source, i]))
  return `<div class="summary-cards" id="summary-cards">${sortJudges(judges, key)
    .map((j) => card(report, j, index.get(j.source) ?? 0))
    .join('\n')}</div>`
}

/** Styles of the cards, shared by the exported report and the report screen (whose theme variables they take). */
export const SUMMARY_CSS = `
.summary-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 14px; margin: 10px 0 8px; }
.summary-card { border: 1px solid var(--line, #dedcd5); border-top: 4px solid var(--source-colour, #6b6f73); border-radius: 6px; padding: 10px 14px 12px; background: var(--panel, #fff); color: var(--ink, #1d1f21); }
.summary-card header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 8px; }
.summary-card h3 { font-size: 15px; margin: 0; }
.summary-card .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; }
.summary-card .verdict { margin: 6px 0 4px; font-size: 13px; }
.summary-card .gauge svg { display: block; max-width: 100%; height: auto; }
.summary-card dl.figures { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 14px; margin: 6px 0 0; }
.summary-card .figure { min-width: 0; }
.summary-card dt { font-size: 11.5px; font-weight: 600; color: var(--muted, #6b6f73); }
.summary-card dd { margin: 0; }
.summary-card dd.value { font-size: 15px; font-variant-numeric: tabular-nums; }
.summary-card dd.sub { font-size: 11px; color: var(--muted, #6b6f73); }
.summary-card .ci { font-size: 11px; color: var(--muted, #6b6f73); }
.summary-card .muted { color: var(--muted, #6b6f73); }
.summary-card strong.below { color: var(--warn, #a4452c); }
.summary-card .flags { margin: 6px 0 0; }
.summary-card .flag { display: inline-block; font-size: 11px; border: 1px solid var(--warn-line, #e3b7a8); background: var(--warn-bg, #fbeae5); color: var(--warn, #7a3420); border-radius: 10px; padding: 0 7px; margin: 0 4px 2px 0; }
.summary-card .tag { display: inline-block; font-size: 10px; border: 1px solid var(--line, #dedcd5); border-radius: 8px; padding: 0 5px; margin: 0 2px 2px 0; }
.summary-card .tag.warn { border-color: var(--warn-line, #e3b7a8); color: var(--warn, #7a3420); }
.summary-card .other-fields { margin-top: 8px; font-size: 12px; }
.summary-card .other-fields table { border-collapse: collapse; margin-top: 4px; width: 100%; }
.summary-card .other-fields th, .summary-card .other-fields td { border-bottom: 1px solid var(--line, #eceae4); padding: 2px 4px; text-align: left; vertical-align: top; }
.summary-card .other-fields .num { text-align: right; font-variant-numeric: tabular-nums; }
.summary-card .other-fields .of { display: block; color: var(--muted, #6b6f73); font-size: 11px; white-space: normal; }
.swatch { display: inline-block; width: 9px; height: 9px; border-radius: 2px; margin-right: 5px; vertical-align: baseline; }
@media print { .summary-cards { grid-template-columns: 1fr 1fr; } .summary-card { break-inside: avoid; } }
`
