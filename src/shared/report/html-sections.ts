import { alwaysLabel, allAnnotatorsWords, ceilingRangeWords, overWords, comparedAnnotators, majorityUnitsWords, NO_COMPARISON, comparisonColumns, scoredAgainstOutcome, subsetHeading, fmtInterval, fmtRightWrong, plural, fmtNumber, fmtP, fmtPercent, fmtStatistic, intervalKeyOf, NO_SOURCES, NONE, statisticLabel, comparisonNotes } from './format'
import { differenceCell, numericFrom, num, plotFigures, reasonsList, section, statCell, table, td, type Name } from './html-parts'
import type { ReportPlot } from './plots'
import { escapeXml as esc } from './plots/svg'
import type { Report, ReportComparison, ReportPairwise } from './schema'
import { sideFrameNote } from './side-frame'
import { FIELD_COUNT_COLUMNS, PAIRWISE_COUNT_COLUMNS, fieldCountsOf, pairwiseCountsOf } from './count-columns'
import { PUBLISHED_AGREEMENT_NOTE, SUBSETS_NOTE, BRADLEY_TERRY_NOTE, FATAL_FLAW_COLUMNS, FATAL_FLAW_NOTE, WIN_RATES_NOTE, SOURCE_COUNT_COLUMNS, SOURCES_NOTE, FIELD_COUNTS, JUDGE_VS_JUDGE_NOTE, PAIRWISE_COUNTS, POSITION_NOTE } from './definitions'
import { judgeFlawAuditsHtml } from './html-fatal-flaw-audits'
import { fieldLabelOf, judgeBenchWhy, strengthInterval, mcnemarWords, NO_RIGHT_WRONG, publishedChanceWords, labelTermsWords, sourceDetailWords, sourceFlagsWords, undefinedResamplesWords } from './table-words'

/** The drill-down sections of the HTML report, after the summary cards. */

type Who = (id: string, note?: string) => string

export function sourcesSection(report: Report, who: Who): string {
  const rows = report.sources.map((s) => {
    const role = s.left_out ? `${s.role} · ${s.left_out.status}, left out: ${s.left_out.reason}` : s.role
    return [who(s.id), td(s.kind.replace(/_/g, ' ')), td(role), num(s.n_items), num(s.n_calls), num(s.n_answered), num(s.n_failed), num(s.n_unparseable), num(s.n_abstained), num(s.n_pending), num(s.n_tied_votes), `<td class="small">${esc(sourceFlagsWords(s) || NONE)}</td>`, `<td class="small detail">${esc(sourceDetailWords(s))}</td>`]
  })
  const headings = ['Source', 'Kind', 'Role', ...SOURCE_COUNT_COLUMNS, 'Flags', 'Detail']
  return section(
    'sources',
    'Sources and denominators',
    `<p class="muted small">${esc(SOURCES_NOTE)}. The colour beside a name is the source's colour in every plot.</p>
${rows.length === 0 ? `<p class="muted">${esc(NO_SOURCES)}</p>` : table(headings, rows, new Set([3, 4, 5, 6, 7, 8, 9, 10]))}`
  )
}

export function pairwiseSection(pairwise: ReportPairwise, plots: readonly ReportPlot[], name: Name, who: Who, settings: Report['settings']): string {
  const rows = pairwise.rows.map((r) => [
    who(r.source),
    td(name(r.criterion)),
    // The accuracy and the baselines it is read against first, so a narrow window shows them side by side.
    statCell('accuracy', r.accuracy, r.ci.accuracy, r.reasons.accuracy, r.below_majority_baseline === true),
    `<td class="num">${esc(fmtPercent(r.majority_baseline))}<span class="ci">always ${esc(alwaysLabel(r.majority_label))}</span></td>`,
    statCell('random_baseline', r.random_baseline, undefined, r.reasons.random_baseline),
    ...pairwiseCountsOf(r).map(num),
    r.ci.accuracy_bootstrap ? `<td class="num">${esc(fmtInterval(r.ci.accuracy_bootstrap, true))}</td>` : `<td class="num undefined" title="${esc(r.reasons.accuracy_bootstrap ?? r.reasons.accuracy ?? 'not computed')}">${NONE}</td>`,
    statCell('accuracy_of_all', r.accuracy_of_all, r.ci.accuracy_of_all, r.reasons.accuracy_of_all),
    // The items behind the calls: the n of the Wilson interval over items and of the bootstrap.
    num(r.n_items)
  ])
  // Subsets pivoted: one row per source and criterion, one column per subset (label first, then set, probe, ...).
  const subsetKeys: string[] = []
  for (const r of pairwise.rows) for (const sub of r.subsets) if (!subsetKeys.includes(`${sub.by}\u0000${sub.value}`)) subsetKeys.push(`${sub.by}\u0000${sub.value}`)
  const subsetHeadings = subsetKeys.map((k) => {
    const [by, value] = k.split('\u0000') as [string, string]
    return subsetHeading(by, value)
  })
  const perSubset = pairwise.rows.map((r) => [
    who(r.source),
    td(name(r.criterion)),
    ...subsetKeys.map((k) => {
      const sub = r.subsets.find((x) => `${x.by}\u0000${x.value}` === k)
      if (!sub) return td(NONE)
      const ci = fmtInterval({ method: 'wilson', level: settings.level, ci_low: sub.ci_low, ci_high: sub.ci_high }, true)
      return sub.accuracy === null
        ? `<td class="num undefined" title="no judged calls">${NONE}</td>`
        : `<td class="num">${esc(`${fmtPercent(sub.accuracy)} (${sub.correct}/${sub.n_judged})`)}<span class="ci">${esc(ci)}</span></td>`
    })
  ])
  const headings = ['Source', 'Criterion', 'Accuracy (Wilson)', 'Majority baseline', 'Random', ...PAIRWISE_COUNT_COLUMNS, 'Cluster bootstrap', 'Of all in scope', 'Items']
  const body = `<p class="muted small">Counts ${esc(pairwise.unit)} (trials voted), unlike the field tables below, which count units. ${esc(PAIRWISE_COUNTS.charAt(0).toUpperCase() + PAIRWISE_COUNTS.slice(1))}. ${esc(labelTermsWords(pairwise))}.</p>
${table(headings, rows, numericFrom(headings, 2))}
${comparisonNotes(pairwise.rows, name).map((note) => `<p class="muted small">${esc(note)}</p>`).join('')}
${plotFigures(plots.filter((p) => p.section === 'pairwise' && p.kind === 'accuracy'))}
<h3 id="subsets">Accuracy per subset</h3><p class="muted small">${esc(SUBSETS_NOTE)}.</p>
${table(['Source', 'Criterion', ...subsetHeadings], perSubset, new Set(subsetHeadings.map((_, i) => i + 2)))}
${plotFigures(plots.filter((p) => p.section === 'pairwise' && p.kind === 'subsets'))}
${positionPart(pairwise, plots, who)}
${systemsPart(pairwise, who, settings)}
${publishedPart(pairwise, who)}
${fatalPart(pairwise, who)}
${reasonsList(pairwise.rows.map((r) => ({ who: `${name(r.source)} vs ${name(r.criterion)}`, reasons: r.reasons })))}`
  return section('pairwise', 'Pairwise verdicts', body)
}

function positionPart(pairwise: ReportPairwise, plots: readonly ReportPlot[], who: Who): string {
  if (pairwise.position.length === 0) return ''
  const record = (p: ReportPairwise['position'][number]) => p as unknown as Record<string, number | null | undefined>
  const rows = pairwise.position.map((p) => [
    who(p.source),
    num(p.n_pairs),
    statCell('mt_bench_consistency', p.mt_bench_consistency, undefined, p.reasons.mt_bench_consistency),
    statCell('biased_to_first', record(p).biased_to_first, p.ci.biased_to_first, p.reasons.biased_to_first),
    statCell('biased_to_second', record(p).biased_to_second, p.ci.biased_to_second, p.reasons.biased_to_second),
    statCell('error_rate', record(p).error_rate, undefined, p.reasons.error_rate),
    num(p.n_compared),
    statCell('position_consistency', p.position_consistency, p.ci.position_consistency, p.reasons.position_consistency),
    statCell('preference_fairness', record(p).preference_fairness, p.ci.preference_fairness, p.reasons.preference_fairness),
    num(p.n_incomplete),
    statCell('first_position_preference', p.first_position_preference, p.ci.first_position_preference, p.reasons.first_position_preference)
  ])
  const headings = ['Source', 'Pairs in both orders', 'Consistency', 'Biased to first', 'Biased to second', 'Error', 'Compared', 'Consistency of compared', 'Preference fairness', 'Incomplete pairs', 'Picked the first shown']
  return `<h3 id="position">Position bias</h3><p class="muted small">Runs asked in both display orders only. ${esc(POSITION_NOTE)}.</p>${table(headings, rows, numericFrom(headings, 1))}${plotFigures(plots.filter((p) => p.kind === 'position'))}`
}

function systemsPart(pairwise: ReportPairwise, who: Who, settings: Report['settings']): string {
  const strengths = pairwise.systems.flatMap((s) =>
    s.bradley_terry.map((b) => [
      who(s.source),
      td(b.player),
      statCell('bradley_terry', b.strength, strengthInterval(b, settings.level), s.reasons[`bradley_terry.${b.player}`]),
      `<td class="num">${esc(undefinedResamplesWords(b.undefined_resamples, settings.bootstrap.resamples))}</td>`
    ])
  )
  const winRates = pairwise.systems.flatMap((s) =>
    s.win_rates.map((w) => [who(s.source), td(w.system), num(w.m), num(w.wins), num(w.ties), num(w.losses), num(w.missing), statCell('win_rate', w.win_rate, undefined, s.reasons[`win_rate.${w.system}`]), statCell('win_rate_of_judged', w.win_rate_of_judged, undefined, undefined), num(w.cohorts)])
  )
  return `${strengths.length ? `<h3>Bradley–Terry strengths of ideation systems</h3><p class="muted small">${esc(BRADLEY_TERRY_NOTE)}.</p>${table(['Source', 'System', 'Log-strength', 'Undefined resamples'], strengths, new Set([2, 3]))}` : ''}
${winRates.length ? `<h3>Win rates against human proposals</h3><p class="muted small">${esc(WIN_RATES_NOTE)}.</p>${table(['Source', 'System', 'm', 'Wins', 'Ties', 'Losses', 'Missing', 'Win rate (of m)', 'Of judged', 'Cohorts'], winRates, new Set([2, 3, 4, 5, 6, 7, 8, 9]))}` : ''}`
}

function publishedPart(pairwise: ReportPairwise, who: Who): string {
  if (pairwise.published_agreement.length === 0) return ''
  const pair = (value: number | null | undefined, n: number | undefined, reason: string | undefined) => [statCell('accuracy', value, undefined, reason), num(n ?? NONE)]
  const rows = pairwise.published_agreement.map((p) => [
    p.source === 'human-human' ? td('human–human') : who(p.source),
    ...pair(p.mt_bench_s1, p.n_mt_bench_s1, p.reasons.mt_bench_s1),
    ...pair(p.mt_bench_s2, p.n_mt_bench_s2, p.reasons.mt_bench_s2),
    ...pair(p.alpaca_eval_agreement, p.n_alpaca_eval, p.reasons.alpaca_eval_agreement),
    ...pair(p.judgebench_accuracy, p.n_judgebench, judgeBenchWhy(p))
  ])
  const headings = ['Source', 'MT-Bench S1', 'n', 'MT-Bench S2', 'n', 'AlpacaEval', 'n', 'JudgeBench', 'n']
  return `<h3 id="published">Agreement in published forms</h3><p class="muted small">${esc(publishedChanceWords(pairwise.published_chance))}. ${esc(PUBLISHED_AGREEMENT_NOTE)}.</p>${table(headings, rows, numericFrom(headings, 1))}`
}

function fatalPart(pairwise: ReportPairwise, who: Who): string {
  if (pairwise.fatal_flaws.length === 0) return judgeFlawAuditsHtml(pairwise.judge_flaw_audits)
  const rows = pairwise.fatal_flaws.map((f) => [
    who(f.source),
    num(f.n_fatal),
    num(f.n_judged),
    num(f.n_ruled_against),
    statCell('fatal_flaw_recall', f.fatal_flaw_recall, f.ci.fatal_flaw_recall, f.reasons.fatal_flaw_recall),
    num(f.n_no_value),
    num(f.n_unanswered),
    num(f.n_both_fatal),
    f.n_named_judged === undefined ? `<td class="num undefined" title="${esc(f.reasons.fatal_flaw_named_recall ?? 'not computed')}">${NONE}</td>` : num(`${f.n_named}/${f.n_named_judged}`),
    statCell('fatal_flaw_named_recall', f.fatal_flaw_named_recall, f.ci.fatal_flaw_named_recall, f.reasons.fatal_flaw_named_recall)
  ])
  return `<h3 id="fatal-flaws">Fatal-flaw recall</h3><p class="muted small">${esc(`${pairwise.n_fatal_flaw_audits} human flaw audits. ${FATAL_FLAW_NOTE}.`)}</p>${table([...FATAL_FLAW_COLUMNS], rows, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]))}${judgeFlawAuditsHtml(pairwise.judge_flaw_audits)}`
}

export function fieldSection(field: Report['fields'][number], plots: readonly ReportPlot[], name: Name, who: Who): string {
  const hasOutcome = scoredAgainstOutcome(field)
  const columns = comparisonColumns(field.level, hasOutcome)
  // The statistics first and their counts after, so a narrow window shows what the rows are compared by.
  const headings = ['Source', 'Criterion', ...columns.map(statisticLabel), ...FIELD_COUNT_COLUMNS]
  const rows = field.comparisons.map((c) => [
    who(c.source),
    td(name(c.criterion)),
    ...columns.map((s) => statOf(c, s)),
    ...fieldCountsOf(c).map(num)
  ])
  const categories = field.categories ? ` · declared scale: ${field.categories.map(String).join(', ')}${sideFrameNote(field.categories)}` : ''
  const body = `<p class="muted small">Counts ${esc(field.unit)}. ${esc(FIELD_COUNTS.charAt(0).toUpperCase() + FIELD_COUNTS.slice(1))}.</p>
${field.comparisons.length === 0 ? `<p class="muted">${esc(NO_COMPARISON)}</p>` : table(headings, rows, numericFrom(headings, 2))}
${comparisonNotes(field.comparisons, name).map((note) => `<p class="muted small">${esc(note)}</p>`).join('')}
${plotFigures(plots.filter((p) => p.section === field.name))}
${reasonsList(field.comparisons.map((c) => ({ who: `${name(c.source)} vs ${name(c.criterion)}`, reasons: c.reasons })))}`
  return section(`field-${field.name}`, field.label, body, `${field.name} · ${field.level}${categories}`)
}

function statOf(c: ReportComparison, statistic: string): string {
  const record = c as unknown as Record<string, unknown>
  const value = record[statistic] as number | null | undefined
  if (statistic === 'majority_baseline' && typeof value === 'number') {
    return `<td class="num">${esc(fmtPercent(value))}<span class="ci">always ${esc(alwaysLabel(c.majority_label ?? []))}</span></td>`
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

export function ceilingSection(report: Report, who: Who): string {
  if (report.ceiling.length === 0) return ''
  const blocks = report.ceiling.map((c) => {
    const d = c.definitions
    const headings = ['Who', 'Over', ...c.statistics.map(statisticLabel)]
    const human = [td('Human – human · pairs of annotators'), num(plural(c.human_human.n_pairs, 'pair')), ...c.statistics.map((s) => overCell(s, c.human_human.mean[s], c.human_human.n_pairs, 'pair'))]
    const others = c.human_human.against_majority_of_others
    const cited = Object.values(others)[0]
    const ceilingRow = cited
      ? [
          td('Each annotator against the majority of the others (the cards’ human ceiling)'),
          num(comparedAnnotators(cited)),
          ...c.statistics.map((s) => {
            const o = others[s]
            if (!o || o.value === null) return statCell(s, o?.value, undefined, o?.reason)
            const words = ceilingRangeWords(s, o)
            const range = words ? `<span class="ci">${esc(words)}</span>` : ''
            return `<td class="num" data-statistic="${esc(s)}">${esc(fmtStatistic(s, o.value))}${range}</td>`
          })
        ]
      : null
    const judges = c.judge_human.flatMap((j) => {
      const mean = [who(j.source, 'with each annotator'), num(plural(j.n_pairs, 'annotator')), ...c.statistics.map((s) => overCell(s, j.mean[s], j.n_pairs, 'annotator'))]
      const majority = Object.values(j.against_majority)[0]
      if (!majority) return [mean]
      return [mean, [who(j.source, 'against the human majority'), num(majorityUnitsWords(j.against_majority)), ...c.statistics.map((s) => statCell(s, j.against_majority[s]?.value, undefined, j.against_majority[s]?.reason))]]
    })
    const multi = allAnnotatorsWords(c.human_human, c.level, c.n_annotators)
    const legend = [
      ['Pairs of annotators', d.annotator_pairs],
      ['All annotators at once', d.all_annotators],
      ['Each annotator against the majority of the others', d.against_majority_of_others],
      ['With each annotator', d.judge_with_each_annotator],
      ['Against the human majority', d.judge_against_majority]
    ]
      .map(([term, words]) => `<li><strong>${esc(term as string)}</strong>: ${esc(words as string)}</li>`)
      .join('')
    return `<h3>${esc(fieldLabelOf(report, c.field))} <span class="muted small">${esc(c.level)}</span></h3>
<p class="small">All annotators at once: ${esc(multi)}</p>
${table(headings, [human, ...(ceilingRow ? [ceilingRow] : []), ...judges], numericFrom(headings, 1))}
<ul class="muted small definitions">${legend}</ul>
${reasonsList([{ who: 'Human – human (all annotators)', reasons: c.human_human.reasons }])}`
  })
  return section(
    'ceiling',
    'Human ceiling',
    `<p class="muted small">The same statistics between people and between each judge and the same people, in two forms: averaged over pairs of raters, and against a majority (the form of the summary cards). The two forms are different quantities; each row says which it is and over what.</p>
${blocks.join('\n')}`
  )
}

/** A ceiling average, saying beneath it when it is over fewer pairs than its row counts. */
function overCell(statistic: string, mean: { value: number | null; n_pairs: number; reason?: string | undefined } | undefined, all: number, unit: string): string {
  const words = overWords(mean?.n_pairs, all, unit)
  if (!mean || mean.value === null || !words) return statCell(statistic, mean?.value, undefined, mean?.reason)
  return `<td class="num" data-statistic="${esc(statistic)}">${esc(fmtStatistic(statistic, mean.value))}<span class="ci">${esc(words)}</span></td>`
}

export function judgeVsJudgeSection(report: Report, name: Name, who: Who): string {
  if (report.judge_vs_judge.length === 0) return ''
  const rows = report.judge_vs_judge.map((r) => [
    td(fieldLabelOf(report, r.field)),
    td(statisticLabel(r.statistic)),
    td(name(r.criterion)),
    who(r.first),
    who(r.second),
    statCell(r.statistic, r.first_value, undefined, r.reasons.first_value),
    statCell(r.statistic, r.second_value, undefined, r.reasons.second_value),
    differenceCell(r.difference, r.ci.difference, r.statistic === 'accuracy', r.reasons.difference),
    `<td class="num" title="${esc(mcnemarWords(r))}">${esc(r.mcnemar_p === undefined ? NONE : fmtP(r.mcnemar_p))}</td>`,
    // The units the figures are on, after the figures, so a narrow window shows the difference.
    `<td class="num" title="${esc(r.definition)}">${esc(String(r.n))}<span class="ci">${esc(`on the ${r.n} shared units`)}</span></td>`,
    r.statistic === 'accuracy' ? td(fmtRightWrong(r)) : `<td class="undefined" title="${esc(NO_RIGHT_WRONG)}">${NONE}</td>`
  ])
  return section(
    'judge-vs-judge',
    'Judge against judge',
    `<p class="muted small">${esc(JUDGE_VS_JUDGE_NOTE)}.</p>
${table(['Field', 'Statistic', 'Criterion', 'First', 'Second', 'First', 'Second', 'Difference', 'McNemar p', 'Shared units', 'Right/wrong'], rows, new Set([5, 6, 7, 8, 9]))}`
  )
}
