import { comparisonColumns, fmtInterval, fmtNumber, fmtP, fmtPercent, fmtStatistic, intervalKeyOf, NONE, PERCENT_STATISTICS, statisticLabel } from './format'
import { escapeXml as esc } from './plots/svg'
import { reportPlots, type ReportPlot } from './plots'
import type { Report, ReportComparison, ReportInterval, ReportPairwise } from './schema'

/**
 * The self-contained HTML report: inline CSS, inline SVG plots, the report JSON embedded for provenance, and a
 * content security policy that forbids every request, so the file opens offline and leaks nothing when shared.
 */
export function renderReportHtml(report: Report): string {
  const plots = reportPlots(report)
  const nameOf = new Map(report.sources.map((s) => [s.id, s.name]))
  const name = (id: string) => nameOf.get(id) ?? id
  const sections = [
    header(report),
    warnings(report),
    sourcesTable(report),
    report.pairwise ? pairwiseSection(report.pairwise, plots, name) : '',
    ...report.fields.map((f) => fieldSection(f, plots, name)),
    ceilingSection(report, name),
    judgeVsJudgeSection(report, name),
    methods(report)
  ]
  const title = `Audit: ${report.instrument.title} — ${report.project.name}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Assay ${esc(report.schema)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${sections.filter(Boolean).join('\n')}
</main>
<script type="application/json" id="assay-report">${jsonForScript(report)}</script>
</body>
</html>
`
}

/** JSON inside a script element: `<` escaped so no text in the data can close the element. */
function jsonForScript(report: Report): string {
  return JSON.stringify(report).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

const CSS = `
:root { --ink: #1d1f21; --muted: #6b6f73; --line: #dedcd5; --accent: #0072B2; --warn: #a4452c; --soft: #f7f7f4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 36px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 22px 0 6px; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--soft); position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td .ci { display: block; color: var(--muted); font-size: 11px; }
td.undefined { color: var(--muted); cursor: help; }
td.below { color: var(--warn); font-weight: 600; }
.table-wrap { overflow-x: auto; }
.warnings { border: 1px solid #efc9bd; background: #fbeae5; padding: 8px 16px; border-radius: 4px; }
.warnings li { margin: 4px 0; }
.plots { display: flex; flex-wrap: wrap; gap: 16px; margin: 8px 0 16px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 4px; padding: 8px; background: #fff; max-width: 100%; overflow-x: auto; }
figcaption { font-size: 12px; color: var(--muted); margin-top: 4px; }
.reasons { font-size: 12px; color: var(--muted); }
.reasons li { margin: 2px 0; }
code { font-size: 12px; }
@media print { th { position: static; } figure { break-inside: avoid; } }
`

function header(report: Report): string {
  const b = report.settings.bootstrap
  return `<header>
<h1>${esc(report.instrument.title)}</h1>
<p class="muted">Audit report of <strong>${esc(report.project.name)}</strong> · instrument <code>${esc(report.instrument.id)}</code> · ${esc(report.instrument.item_kind)}</p>
<dl class="meta">
<dt>Scope</dt><dd>split ${esc(report.scope.split)} · ${report.scope.n_items} items · sets ${esc(report.scope.sets.join(', ') || NONE)}</dd>
<dt>Criteria</dt><dd>${esc(report.criteria.map((c) => report.sources.find((s) => s.id === c)?.name ?? c).join(', ') || 'none')}</dd>
<dt>Intervals</dt><dd>${Math.round(report.settings.level * 100)}% · Wilson for proportions · ${esc(b.method)}, ${b.resamples} resamples, seed ${b.seed} (${esc(b.generator)})</dd>
<dt>Generated</dt><dd>${esc(report.generated_at)} · ${esc(report.schema)}</dd>
</dl>
</header>`
}

function warnings(report: Report): string {
  if (report.warnings.length === 0) return `<section id="warnings"><h2>Warnings</h2><p class="muted">None.</p></section>`
  return `<section id="warnings"><h2>Warnings</h2><ul class="warnings">${report.warnings
    .map((w) => `<li data-code="${esc(w.code)}"><strong>${esc(w.code.replace(/_/g, ' '))}</strong>: ${esc(w.message)}</li>`)
    .join('')}</ul></section>`
}

function table(headings: string[], rows: string[][], numeric: ReadonlySet<number> = new Set()): string {
  const head = headings.map((h, i) => `<th${numeric.has(i) ? ' class="num"' : ''}>${esc(h)}</th>`).join('')
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table></div>`
}

const td = (text: string) => `<td>${esc(text)}</td>`
const num = (v: number | string) => `<td class="num">${esc(String(v))}</td>`

/** A statistic cell: the value, its interval underneath, and the reason as a tooltip when it is undefined. */
function statCell(name: string, value: number | null | undefined, ci: ReportInterval | undefined, reason: string | undefined, below = false): string {
  if (value === null || value === undefined) {
    return `<td class="num undefined" title="${esc(reason ?? 'not computed')}">${NONE}</td>`
  }
  const interval = fmtInterval(ci, PERCENT_STATISTICS.has(name))
  return `<td class="num${below ? ' below' : ''}" data-statistic="${esc(name)}">${esc(fmtStatistic(name, value))}${interval ? `<span class="ci">${esc(interval)}</span>` : ''}</td>`
}

function plotFigures(plots: readonly ReportPlot[]): string {
  if (plots.length === 0) return ''
  return `<div class="plots">${plots.map((p) => `<figure id="plot-${esc(p.id)}" data-kind="${esc(p.kind)}">${p.svg}<figcaption>${esc(p.title)}</figcaption></figure>`).join('')}</div>`
}

function reasonsList(entries: Array<{ who: string; reasons: Record<string, string> }>): string {
  const items = entries.flatMap(({ who, reasons }) => Object.entries(reasons).map(([k, r]) => `<li><strong>${esc(who)}</strong> · ${esc(statisticLabel(k))}: ${esc(r)}</li>`))
  return items.length ? `<details class="reasons"><summary>Undefined statistics and notes (${items.length})</summary><ul>${items.join('')}</ul></details>` : ''
}

function sourcesTable(report: Report): string {
  const rows = report.sources.map((s) => {
    const detail = Object.entries(s.detail)
      .filter(([k, v]) => v !== null && v !== '' && !(k === 'n_invalid_stored' && v === 0))
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
      .join(' · ')
    return [td(s.name), td(s.kind.replace(/_/g, ' ')), td(s.role), num(s.n_items), num(s.n_calls), num(s.n_answered), num(s.n_failed), num(s.n_unparseable), num(s.n_abstained), num(s.n_pending), num(s.n_tied_votes), `<td class="small">${esc(detail)}</td>`]
  })
  return `<section id="sources"><h2>Sources and denominators</h2>
<p class="muted small">Items: items of the scope the source was asked about. Calls: answers on record (one per item, trial and display order; one per item for annotators and derived sources). Tied votes: units left without a value because trials, orders or annotators split evenly.</p>
${table(['Source', 'Kind', 'Role', 'Items', 'Calls', 'Answered', 'Failed', 'Unparseable', 'Abstained', 'Pending', 'Tied votes', 'Detail'], rows, new Set([3, 4, 5, 6, 7, 8, 9, 10]))}
</section>`
}

function pairwiseSection(pairwise: ReportPairwise, plots: readonly ReportPlot[], name: (id: string) => string): string {
  const rows = pairwise.rows.map((r) => [
    td(name(r.source)),
    td(name(r.criterion)),
    num(r.n_in_scope),
    num(r.n_judged),
    num(r.n_failed),
    num(r.n_unparseable),
    num(r.n_abstained),
    num(r.n_ties),
    num(r.correct),
    statCell('accuracy', r.accuracy, r.ci.accuracy, r.reasons.accuracy, r.below_majority_baseline === true),
    `<td class="num">${esc(fmtInterval(r.ci.accuracy_bootstrap, true) || NONE)}</td>`,
    statCell('accuracy_of_all', r.accuracy_of_all, r.ci.accuracy_of_all, r.reasons.accuracy_of_all),
    `<td class="num">${esc(fmtPercent(r.majority_baseline))}<span class="ci">always ${esc(r.majority_label.join('/') || NONE)}</span></td>`,
    statCell('random_baseline', r.random_baseline, undefined, r.reasons.random_baseline),
    td(r.below_majority_baseline === null ? NONE : r.below_majority_baseline ? 'yes' : 'no')
  ])
  // Subsets pivoted: one row per source and criterion, one column per subset (label first, then set, probe, ...).
  const subsetKeys: string[] = []
  for (const r of pairwise.rows) for (const sub of r.subsets) if (!subsetKeys.includes(`${sub.by}\u0000${sub.value}`)) subsetKeys.push(`${sub.by}\u0000${sub.value}`)
  const subsetHeadings = subsetKeys.map((k) => {
    const [by, value] = k.split('\u0000') as [string, string]
    return by === 'label' ? `${value} better` : `${by.replace(/_/g, ' ')}: ${value}`
  })
  const perLabel = pairwise.rows.map((r) => [
    td(name(r.source)),
    td(name(r.criterion)),
    ...subsetKeys.map((k) => {
      const sub = r.subsets.find((x) => `${x.by}\u0000${x.value}` === k)
      if (!sub) return td(NONE)
      const ci = fmtInterval({ method: 'wilson', level: 0.95, ci_low: sub.ci_low, ci_high: sub.ci_high }, true)
      return sub.accuracy === null
        ? `<td class="num undefined" title="no judged calls">${NONE}</td>`
        : `<td class="num">${esc(`${fmtPercent(sub.accuracy)} (${sub.correct}/${sub.n_judged})`)}<span class="ci">${esc(ci)}</span></td>`
    })
  ])
  const position = pairwise.position.map((p) => [
    td(name(p.source)),
    num(p.n_compared),
    num(p.n_consistent),
    num(p.n_incomplete),
    statCell('position_consistency', p.position_consistency, p.ci.position_consistency, p.reasons.position_consistency),
    num(p.n_answered),
    num(p.n_picked_first),
    statCell('first_position_preference', p.first_position_preference, p.ci.first_position_preference, p.reasons.first_position_preference)
  ])
  const strengths = pairwise.systems.flatMap((s) =>
    s.bradley_terry.map((b) => [td(name(s.source)), td(b.player), statCell('bradley_terry', b.strength, { method: 'cluster bootstrap (percentile)', level: 0.95, ci_low: b.ci_low, ci_high: b.ci_high }, s.reasons[`bradley_terry.${b.player}`]), num(b.undefined_resamples)])
  )
  const winRates = pairwise.systems.flatMap((s) =>
    s.win_rates.map((w) => [td(name(s.source)), td(w.system), num(w.m), num(w.wins), num(w.ties), num(w.losses), num(w.missing), statCell('win_rate', w.win_rate, undefined, s.reasons[`win_rate.${w.system}`]), statCell('win_rate_of_judged', w.win_rate_of_judged, undefined, undefined), num(w.cohorts)])
  )
  const fatal = pairwise.fatal_flaws.map((f) => [
    td(name(f.source)),
    num(f.n_fatal),
    num(f.n_judged),
    num(f.n_ruled_against),
    statCell('fatal_flaw_recall', f.fatal_flaw_recall, f.ci.fatal_flaw_recall, f.reasons.fatal_flaw_recall),
    num(f.n_both_fatal),
    f.n_named_judged === undefined ? td(NONE) : num(`${f.n_named}/${f.n_named_judged}`),
    statCell('fatal_flaw_named_recall', f.fatal_flaw_named_recall, f.ci.fatal_flaw_named_recall, f.reasons.fatal_flaw_named_recall)
  ])
  const numbers = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
  return `<section id="pairwise"><h2>Pairwise verdicts</h2>
<p class="muted small">One call per item and display order (trials voted). Accuracy = correct / judged, where judged counts completed calls and an unparseable answer counts as wrong; failed calls are listed and left out; "of all in scope" also counts failed, abstained and pending calls as not correct. Labels are stated in ${pairwise.label_terms === 'origin' ? 'human/AI terms (which origin wrote the better proposal)' : 'side terms (a/b, canonical order)'}; baselines are counted from the labels of the judged items.</p>
${table(['Source', 'Criterion', 'In scope', 'Judged', 'Failed', 'Unparseable', 'Abstained', 'Ties', 'Correct', 'Accuracy (Wilson)', 'Cluster bootstrap', 'Of all in scope', 'Majority baseline', 'Random', 'Below majority'], rows, numbers)}
${plotFigures(plots.filter((p) => p.section === 'pairwise' && p.kind === 'accuracy'))}
<h3>Accuracy per subset</h3>
${table(['Source', 'Criterion', ...subsetHeadings], perLabel, new Set(subsetHeadings.map((_, i) => i + 2)))}
${plotFigures(plots.filter((p) => p.section === 'pairwise' && p.kind === 'subsets'))}
${position.length ? `<h3>Position bias</h3><p class="muted small">Over every call that recorded which proposal was shown first. Consistency: pairs answered in both orders with the same verdict; first-position preference: answered calls that picked the proposal shown first (50% without bias). Wilson intervals treat calls as independent.</p>${table(['Source', 'Pairs in both orders', 'Consistent', 'Incomplete', 'Consistency', 'Answered calls', 'Picked first', 'First-position preference'], position, new Set([1, 2, 3, 4, 5, 6, 7]))}${plotFigures(plots.filter((p) => p.kind === 'position'))}` : ''}
${strengths.length ? `<h3>Bradley–Terry strengths of ideation systems</h3><p class="muted small">Log-strengths centred at 0: P(i beats j) = 1 / (1 + exp(s_j − s_i)); intervals refit on each resample of items.</p>${table(['Source', 'System', 'Log-strength', 'Undefined resamples'], strengths, new Set([2, 3]))}` : ''}
${winRates.length ? `<h3>Win rates against human proposals</h3>${table(['Source', 'System', 'm', 'Wins', 'Ties', 'Losses', 'Missing', 'Win rate (of m)', 'Of judged', 'Cohorts'], winRates, new Set([2, 3, 4, 5, 6, 7, 8, 9]))}` : ''}
${fatal.length ? `<h3>Fatal-flaw recall</h3><p class="muted small">Of the proposals people marked with a fatal flaw (the other proposal not so marked), how often the source's verdict went against that proposal; ${pairwise.n_fatal_flaw_audits} human flaw audits.</p>${table(['Source', 'Marked fatal', 'Judged', 'Ruled against', 'Recall', 'Both sides fatal (left out)', 'Named a fatal flaw', 'Named recall'], fatal, new Set([1, 2, 3, 4, 5, 6, 7]))}` : ''}
${reasonsList(pairwise.rows.map((r) => ({ who: `${name(r.source)} vs ${name(r.criterion)}`, reasons: r.reasons })))}
</section>`
}

function fieldSection(field: Report['fields'][number], plots: readonly ReportPlot[], name: (id: string) => string): string {
  const hasOutcome = field.comparisons.some((c) => c.outcome !== undefined && !c.outcome.startsWith('none'))
  const columns = comparisonColumns(field.level, hasOutcome)
  const headings = ['Source', 'Criterion', 'In scope', 'Judged', 'n', 'Failed', 'Unparseable', 'Abstained', 'No value', ...columns.map(statisticLabel)]
  const rows = field.comparisons.map((c) => [
    td(name(c.source)),
    td(name(c.criterion)),
    num(c.n_in_scope),
    num(c.n_judged),
    num(c.n),
    num(c.n_failed),
    num(c.n_unparseable),
    num(c.n_abstained),
    num(c.n_no_value),
    ...columns.map((s) => statOf(c, s))
  ])
  const numeric = new Set(headings.map((_, i) => i).filter((i) => i >= 2))
  const categories = field.categories ? ` · declared scale: ${field.categories.map(String).join(', ')}` : ''
  return `<section id="field-${esc(field.name)}"><h2>${esc(field.label)} <span class="muted small">${esc(field.name)} · ${esc(field.level)}${esc(categories)}</span></h2>
${field.comparisons.length === 0 ? '<p class="muted">No source could be scored on this field against a criterion.</p>' : table(headings, rows, numeric)}
${plotFigures(plots.filter((p) => p.section === field.name))}
${reasonsList(field.comparisons.map((c) => ({ who: `${name(c.source)} vs ${name(c.criterion)}`, reasons: c.reasons })))}
</section>`
}

function statOf(c: ReportComparison, statistic: string): string {
  const record = c as unknown as Record<string, unknown>
  const value = record[statistic] as number | null | undefined
  if (statistic === 'majority_baseline' && typeof value === 'number') {
    return `<td class="num">${esc(fmtPercent(value))}<span class="ci">always ${esc((c.majority_label ?? []).map(String).join('/'))}</span></td>`
  }
  if (statistic === 'kendall_tau_b' && typeof value === 'number') {
    return `<td class="num" data-statistic="kendall_tau_b">${esc(fmtNumber(value))}<span class="ci">p = ${esc(fmtP(c.kendall_p))}</span></td>`
  }
  if (statistic === 'accuracy' && typeof value === 'number') {
    // Both intervals: Wilson (units independent) and the cluster bootstrap over items where the row has one.
    const wilson = fmtInterval(c.ci.accuracy, true)
    const boot = fmtInterval(c.ci.accuracy_bootstrap, true)
    return `<td class="num${c.below_majority_baseline ? ' below' : ''}" data-statistic="accuracy">${esc(fmtPercent(value))}${wilson ? `<span class="ci">W ${esc(wilson)}</span>` : ''}${boot ? `<span class="ci">B ${esc(boot)}</span>` : ''}</td>`
  }
  return statCell(statistic, value, c.ci[intervalKeyOf(statistic)], c.reasons[statistic])
}

function ceilingSection(report: Report, name: (id: string) => string): string {
  if (report.ceiling.length === 0) return ''
  const blocks = report.ceiling.map((c) => {
    const headings = ['Who', 'Rater pairs', ...c.statistics.map(statisticLabel)]
    const human = [td('Human – human'), num(c.human_human.n_pairs), ...c.statistics.map((s) => statCell(s, c.human_human.mean[s]?.value, undefined, c.human_human.mean[s]?.reason))]
    const judges = c.judge_human.map((j) => [td(`${name(j.source)} – human`), num(j.n_pairs), ...c.statistics.map((s) => statCell(s, j.mean[s]?.value, undefined, j.mean[s]?.reason))])
    const multi = [
      c.human_human.fleiss_kappa !== undefined ? `Fleiss' κ ${fmtNumber(c.human_human.fleiss_kappa)}` : '',
      `Krippendorff's α (${c.level}) ${fmtNumber(c.human_human.krippendorff_alpha)}`,
      `${c.n_annotators} annotators, ${c.human_human.n_items} items`
    ].filter(Boolean)
    return `<h3>${esc(c.field)} <span class="muted small">${esc(c.level)}</span></h3>
<p class="small">All annotators at once: ${esc(multi.join(' · '))}</p>
${table(headings, [human, ...judges], new Set(headings.map((_, i) => i).filter((i) => i >= 1)))}
${reasonsList([{ who: 'Human – human (all annotators)', reasons: c.human_human.reasons }])}`
  })
  return `<section id="ceiling"><h2>Human ceiling</h2>
<p class="muted small">The same statistics averaged over pairs of annotators, and over each judge paired with each annotator: a judge is not expected to agree with a person more than people agree with each other.</p>
${blocks.join('\n')}
</section>`
}

function judgeVsJudgeSection(report: Report, name: (id: string) => string): string {
  if (report.judge_vs_judge.length === 0) return ''
  const rows = report.judge_vs_judge.map((r) => [
    td(r.field),
    td(name(r.criterion)),
    td(name(r.first)),
    td(name(r.second)),
    num(r.n),
    td(r.statistic === 'accuracy' ? `${r.both_correct ?? 0} / ${r.only_first ?? 0} / ${r.only_second ?? 0} / ${r.both_wrong ?? 0}` : NONE),
    statCell(r.statistic, r.first_value, undefined, r.reasons.first_value),
    statCell(r.statistic, r.second_value, undefined, r.reasons.second_value),
    statCell(r.statistic === 'accuracy' ? 'accuracy' : 'difference', r.difference, r.ci.difference, r.reasons.difference),
    r.mcnemar_p === undefined ? td(NONE) : `<td class="num" title="${esc(r.reasons.mcnemar_p ?? 'exact binomial, two-sided')}">${esc(fmtP(r.mcnemar_p))}</td>`
  ])
  return `<section id="judge-vs-judge"><h2>Judge against judge</h2>
<p class="muted small">On the units both judges answered and the criterion labels. Right/wrong table: both right / only first / only second / both wrong. Exact McNemar test (two-sided); the difference (first − second) with a paired cluster-bootstrap interval.</p>
${table(['Field', 'Criterion', 'First', 'Second', 'Shared units', 'Right/wrong', 'First', 'Second', 'Difference', 'McNemar p'], rows, new Set([4, 6, 7, 8, 9]))}
</section>`
}

function methods(report: Report): string {
  return `<section id="methods"><h2>Methods</h2>
<ul class="small">
<li>Denominators: <em>in scope</em> = units the criterion labels and the source was asked about; <em>judged</em> = answered or unparseable (unparseable counts as wrong); <em>n</em> = units both gave a value for (the n of every agreement statistic); failed, abstained and pending units are listed and left out of <em>judged</em>. A statistic undefined on the data is shown as ${NONE} with its reason, never as 0 or 1.</li>
<li>Aggregation: ${esc(report.settings.aggregation)}.</li>
<li>Intervals: in tables, W marks a Wilson interval and B a cluster-bootstrap interval. Wilson score intervals for proportions (they treat units as independent); ${esc(report.settings.bootstrap.method)} with ${report.settings.bootstrap.resamples} resamples (seed ${report.settings.bootstrap.seed}) that draw whole items, with all their units, display orders, trials and raters, for every bootstrap interval of the report at once. Below ${report.settings.min_items_for_interval} items an interval is flagged.</li>
<li>Weighted kappas and ordinal statistics use each field's declared scale, so unused categories keep their place. Calibration uses ${report.settings.ece_bins} equal-width bins.</li>
${report.settings.panel_rule ? `<li>Panel: ${esc(report.settings.panel_rule)}.</li>` : ''}
</ul>
</section>`
}
