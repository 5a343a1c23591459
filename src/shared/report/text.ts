import { alwaysLabel, ceilingRangeWords, instrumentVersionsWords, agreementLabel, EVERY_FIGURE, groupedNotes, undefinedNotes, comparedAnnotators, majorityUnitsWords, noCeilingWhy, scoredAgainstOutcome, allAnnotatorsWords, NO_COMPARISON, subsetHeading, comparisonColumns, fmtBounds, plural, positionWords, fatalFlawDenominator, ceilingWords, fmtDifference, intervalMethodName, fmtDifferenceInterval, fmtInterval, fmtNumber, fmtP, fmtPercent, fmtStatistic, NO_SOURCES, NONE, PERCENT_STATISTICS, statisticLabel, comparisonNotes } from './format'
import type { Report, ReportInterval } from './schema'
import { PUBLISHED_AGREEMENT_NOTE, SUBSETS_NOTE, BRADLEY_TERRY_NOTE, FATAL_FLAW_COLUMNS, FATAL_FLAW_NOTE, WIN_RATES_NOTE, SOURCE_COUNT_COLUMNS, SOURCES_NOTE, JUDGE_FLAW_AUDIT_COLUMNS, JUDGE_FLAW_AUDIT_NOTE, FIELD_COUNTS, PAIRWISE_COUNTS, POSITION_NOTE, JUDGE_VS_JUDGE_NOTE } from './definitions'
import { extraSections } from './text-sections'
import { noSummaryWhy } from './summary'
import { fitCardNotes, publishedChanceWords, labelTermsWords, sourceDetailWords, sourceFlagsWords, undefinedResamplesWords } from './table-words'
import { FIELD_COUNT_COLUMNS, PAIRWISE_COUNT_COLUMNS, fieldCountsOf, pairwiseCountsOf } from './count-columns'
import { grid, heading, type Name } from './text-parts'

/**
 * The report as plain text (`assay report` without --json): every section the JSON has, in the order the HTML report
 * shows them, with the same figures formatted the same way. Tables keep the key counts and statistics; each section
 * that leaves columns out says so, and where the rest is (--json, --html).
 */
export function renderReportText(report: Report): string {
  const names = new Map(report.sources.map((s) => [s.id, s.name]))
  const name: Name = (id) => names.get(id) ?? id
  const out: string[] = []
  const versions = instrumentVersionsWords(report.instrument.versions)
  out.push(`${report.instrument.title} (${report.instrument.id}${versions ? `, ${versions}` : ''}) · ${report.project.name} · split ${report.scope.split} · ${report.scope.n_items} items`)
  out.push(`criteria: ${report.criteria.map(name).join(', ') || 'none'}`)
  if (report.settings.panel_rule) out.push(`panel: ${report.settings.panel_rule}`)
  const b = report.settings.bootstrap
  out.push(`${Math.round(report.settings.level * 100)}% intervals, ${b.resamples} cluster-bootstrap resamples over items (seed ${b.seed}); ties: ${report.settings.ties_policy}`)
  for (const w of report.warnings) out.push(`warning: ${w.message}`)
  out.push(...summaryText(report, name))
  out.push(...sourcesText(report))
  out.push(...pairwiseText(report, name))
  out.push(...fieldsText(report, name))
  out.push(...ceilingText(report, name))
  out.push(...judgeVsJudgeText(report, name))
  out.push(...extraSections(report, name))
  out.push('', 'Full figures: --json, or --html <path> for tables and plots.')
  return out.join('\n')
}

const ci = (low: number | null, high: number | null, percent: boolean): string =>
  low === null || high === null ? '' : ` [${percent ? fmtPercent(low) : fmtNumber(low)}, ${percent ? fmtPercent(high) : fmtNumber(high)}]`

function summaryText(report: Report, name: Name): string[] {
  if (report.summary.length === 0) return report.sources.some((s) => s.role === 'judge') ? ['', noSummaryWhy(report)] : []
  const out = heading('Summary', 'one card per judge and field; every figure is the one of the section it comes from')
  for (const c of report.summary) {
    out.push(`${c.source_name} · ${c.field} (${c.level}) against ${c.criterion_name ?? 'no criterion'} · ${c.n_items} items`)
    for (const note of fitCardNotes(report, c, name)) out.push(`  ${note}`)
    const a = c.accuracy
    out.push(
      a.value === null
        ? `  accuracy ${NONE} (${a.reason ?? 'not defined for this field'})${a.definition ? ` · ${a.definition}` : ''}`
        : `  accuracy ${fmtPercent(a.value)}${ci(a.ci_low, a.ci_high, true)}${a.ci_method ? ` ${intervalMethodName(a.ci_method)}` : ''} · ${a.definition ?? ''} · majority baseline ${fmtPercent(c.majority_baseline)}${c.majority_label.length ? ` (always ${alwaysLabel(c.majority_label)})` : ''} · random ${fmtPercent(c.random_baseline)}`
    )
    const g = c.agreement
    out.push(`  ${agreementLabel(g.statistic)} ${g.value === null ? `${NONE} (${g.reason ?? 'no human majority'})` : `${fmtNumber(g.value)}${ci(g.ci_low, g.ci_high, false)}`}${g.against ? ` with ${name(g.against)}` : ''}${g.definition ? ` · ${g.definition}` : ''}`)
    const h = c.human_ceiling
    out.push(`  ${h ? ceilingWords(h) : `no human ceiling (${noCeilingWhy(h)})`}`)
    if (c.position) {
      const p = c.position
      out.push(`  ${positionWords(p)}`)
    }
    if (c.fatal_flaw_recall) {
      const f = c.fatal_flaw_recall
      out.push(`  fatal-flaw recall ${fmtPercent(f.value)}${ci(f.ci_low, f.ci_high, true)} ${fatalFlawDenominator(f)}${f.value === null && f.reason ? ` (${f.reason})` : ''}`)
    }
    out.push(`  ${c.verdict}`)
  }
  return out
}

function sourcesText(report: Report): string[] {
  const out = heading('Sources and denominators', SOURCES_NOTE)
  if (report.sources.length === 0) return [...out, NO_SOURCES]
  out.push(
    grid(
      ['source', 'kind', ...SOURCE_COUNT_COLUMNS.map((h) => h.toLowerCase()), 'flags', 'detail'],
      report.sources.map((s) => [
        s.name,
        s.left_out ? `${s.kind} · ${s.left_out.status}, left out: ${s.left_out.reason}` : s.kind,
        ...[s.n_items, s.n_calls, s.n_answered, s.n_failed, s.n_unparseable, s.n_abstained, s.n_pending, s.n_tied_votes].map(String),
        sourceFlagsWords(s) || NONE,
        sourceDetailWords(s) || NONE
      ])
    )
  )
  return out
}

const interval = (i: ReportInterval | undefined, percent: boolean): string => fmtInterval(i, percent) || NONE

function pairwiseText(report: Report, name: Name): string[] {
  const pw = report.pairwise
  if (!pw) return []
  const out = heading('Pairwise verdicts', `counts ${pw.unit}; ${labelTermsWords(pw)}`)
  if (pw.rows.length) {
    out.push(
      grid(
        ['source', 'criterion', 'accuracy', 'Wilson', 'majority', 'random', ...PAIRWISE_COUNT_COLUMNS.map((h) => h.toLowerCase()), 'bootstrap', 'of all', 'items'],
        pw.rows.map((r) => [
          name(r.source),
          name(r.criterion),
          fmtPercent(r.accuracy),
          interval(r.ci.accuracy, true),
          `${fmtPercent(r.majority_baseline)} (always ${alwaysLabel(r.majority_label)})`,
          fmtPercent(r.random_baseline),
          ...pairwiseCountsOf(r).map(String),
          interval(r.ci.accuracy_bootstrap, true),
          `${fmtPercent(r.accuracy_of_all)} ${fmtInterval(r.ci.accuracy_of_all, true)}`.trim(),
          String(r.n_items)
        ])
      ),
      PAIRWISE_COUNTS
    )
    out.push(...comparisonNotes(pw.rows, name).map((note) => `  ${note}`))
    const subsets = pw.rows.flatMap((r) => r.subsets.map((s) => [name(r.source), name(r.criterion), subsetHeading(s.by, s.value), String(s.n_judged), String(s.correct), fmtPercent(s.accuracy), ci(s.ci_low, s.ci_high, true).trim() || NONE]))
    if (subsets.length) out.push('', 'Accuracy per subset (calls)', grid(['source', 'criterion', 'subset', 'judged', 'correct', 'accuracy', 'Wilson'], subsets, 3), SUBSETS_NOTE)
  }
  if (pw.position.length) {
    out.push(
      '',
      'Position bias (runs asked in both display orders)',
      grid(
        ['source', 'pairs', 'consistency', 'biased to first', 'biased to second', 'error', 'compared', 'consistency of compared', 'preference fairness', 'incomplete', 'picked first shown'],
        pw.position.map((p) => [
          name(p.source),
          String(p.n_pairs),
          fmtPercent(p.mt_bench_consistency),
          fmtPercent(p.biased_to_first),
          fmtPercent(p.biased_to_second),
          fmtPercent(p.error_rate),
          String(p.n_compared),
          fmtPercent(p.position_consistency),
          fmtNumber(p.preference_fairness),
          String(p.n_incomplete),
          fmtPercent(p.first_position_preference)
        ])
      ),
      POSITION_NOTE
    )
  }
  const resamples = report.settings.bootstrap.resamples
  const strengths = pw.systems.flatMap((s) => s.bradley_terry.map((b) => [name(s.source), b.player, fmtNumber(b.strength), ci(b.ci_low, b.ci_high, false).trim() || NONE, undefinedResamplesWords(b.undefined_resamples, resamples)]))
  if (strengths.length) out.push('', 'Bradley–Terry log-strengths of ideation systems', grid(['source', 'system', 'log-strength', 'interval', 'undefined resamples'], strengths), BRADLEY_TERRY_NOTE)
  const wins = pw.systems.flatMap((s) => s.win_rates.map((w) => [name(s.source), w.system, String(w.m), String(w.wins), String(w.ties), String(w.losses), String(w.missing), fmtPercent(w.win_rate), fmtPercent(w.win_rate_of_judged)]))
  if (wins.length) out.push('', 'Win rates against human proposals', grid(['source', 'system', 'm', 'wins', 'ties', 'losses', 'missing', 'win rate (of m)', 'of judged'], wins), WIN_RATES_NOTE)
  if (pw.fatal_flaws.length) {
    out.push(
      '',
      `Fatal-flaw recall (${pw.n_fatal_flaw_audits} human flaw audits)`,
      grid(
        // The interval has a column of its own here, after the recall it belongs to.
        FATAL_FLAW_COLUMNS.flatMap((c) => (c === 'Recall' ? [c, 'Interval'] : [c])),
        pw.fatal_flaws.map((f) => [
          name(f.source),
          String(f.n_fatal),
          String(f.n_judged),
          String(f.n_ruled_against),
          fmtPercent(f.fatal_flaw_recall),
          interval(f.ci.fatal_flaw_recall, true),
          String(f.n_no_value),
          String(f.n_unanswered),
          String(f.n_both_fatal),
          f.n_named_judged === undefined ? NONE : `${f.n_named}/${f.n_named_judged}`,
          f.n_named_judged === undefined ? NONE : `${fmtPercent(f.fatal_flaw_named_recall)} ${fmtInterval(f.ci.fatal_flaw_named_recall, true)}`.trim()
        ])
      ),
      FATAL_FLAW_NOTE
    )
  }
  if (pw.judge_flaw_audits?.length) {
    out.push(
      '',
      'Judges’ own flaw audits beside the experts’',
      grid(
        JUDGE_FLAW_AUDIT_COLUMNS.flatMap((c) => (c === 'Recall' ? [c, 'Interval'] : [c])),
        pw.judge_flaw_audits.map((j) => [
          j.name,
          String(j.n_fatal),
          String(j.n_named),
          fmtPercent(j.recall),
          j.recall_ci ? fmtBounds(j.recall_ci[0], j.recall_ci[1], true) : NONE,
          String(j.n_unparseable),
          String(j.n_unanswered),
          String(j.n_other_side_fatal),
          String(j.n_audited)
        ])
      ),
      JUDGE_FLAW_AUDIT_NOTE
    )
  }
  if (pw.published_agreement.length) {
    out.push(
      '',
      `Agreement in published forms (${publishedChanceWords(pw.published_chance).replace(/^Chance/, 'chance')})`,
      grid(
        ['source', 'MT-Bench S1', 'n', 'MT-Bench S2', 'n', 'AlpacaEval', 'n', 'JudgeBench', 'n'],
        pw.published_agreement.map((p) => [p.source === 'human-human' ? 'human–human' : name(p.source), fmtPercent(p.mt_bench_s1), String(p.n_mt_bench_s1), fmtPercent(p.mt_bench_s2), String(p.n_mt_bench_s2), fmtPercent(p.alpaca_eval_agreement), String(p.n_alpaca_eval), fmtPercent(p.judgebench_accuracy), p.n_judgebench === undefined ? NONE : String(p.n_judgebench)])
      ),
      PUBLISHED_AGREEMENT_NOTE
    )
  }
  return out
}

function fieldsText(report: Report, name: Name): string[] {
  const out: string[] = []
  for (const field of report.fields) {
    if (field.comparisons.length === 0) {
      // Said as the HTML and the screen say it, rather than left out.
      out.push(...heading(`${field.label} · ${field.name} (${field.level})`, `counts ${field.unit}`), NO_COMPARISON)
      continue
    }
    const columns = comparisonColumns(field.level, scoredAgainstOutcome(field))
    out.push(...heading(`${field.label} · ${field.name} (${field.level})`, `counts ${field.unit}`), FIELD_COUNTS)
    out.push(
      grid(
        ['source', 'criterion', ...columns.map(statisticLabel), ...FIELD_COUNT_COLUMNS.map((h) => h.toLowerCase())],
        field.comparisons.map((c) => {
          const record = c as unknown as Record<string, number | null | undefined>
          const counts = fieldCountsOf(c).map(String)
          // The baseline with the label it always answers, as the HTML table and the screen give it.
          const cell = (k: string) =>
            k === 'majority_baseline' && typeof record[k] === 'number' ? `${fmtPercent(record[k])} (always ${alwaysLabel(c.majority_label ?? [])})` : PERCENT_STATISTICS.has(k) ? fmtPercent(record[k]) : fmtNumber(record[k])
          return [name(c.source), name(c.criterion), ...columns.map(cell), ...counts]
        })
      )
    )
    out.push(...comparisonNotes(field.comparisons, name).map((note) => `  ${note}`))
    const valueOf = (row: number, column: string) => (field.comparisons[row] as unknown as Record<string, number | null | undefined>)[column]
    out.push(...undefinedNotes(field.comparisons, columns, valueOf, name).map((note) => `  ${note}`))
  }
  return out
}

function ceilingText(report: Report, name: Name): string[] {
  if (report.ceiling.length === 0) return []
  const out = heading('Human ceiling', 'two forms of the same statistics: averaged over pairs of raters, and against a majority (the cards’ form)')
  for (const c of report.ceiling) {
    const h = c.human_human
    out.push('', `${c.field} (${c.level}) · all annotators at once: ${allAnnotatorsWords(h, c.level, c.n_annotators)}`)
    const cells = (values: Record<string, { value: number | null } | undefined>) => c.statistics.map((s) => fmtStatistic(s, values[s]?.value))
    const others = Object.values(h.against_majority_of_others)[0]
    const rows = [
      ['human – human · pairs of annotators', plural(h.n_pairs, 'pair'), ...cells(h.mean)],
      // With the annotators' range beside each figure, as the HTML table and the cards give it.
      ...(others
        ? [
            [
              'each annotator against the majority of the others',
              comparedAnnotators(others),
              ...c.statistics.map((s) => {
                const o = h.against_majority_of_others[s]
                const words = o && o.value !== null ? ceilingRangeWords(s, o) : ''
                return `${fmtStatistic(s, o?.value)}${words ? ` (${words})` : ''}`
              })
            ]
          ]
        : []),
      ...c.judge_human.flatMap((j) => {
        const majority = Object.values(j.against_majority)[0]
        return [[`${name(j.source)} · with each annotator`, plural(j.n_pairs, 'annotator'), ...cells(j.mean)], ...(majority ? [[`${name(j.source)} · against the human majority`, majorityUnitsWords(j.against_majority), ...cells(j.against_majority)]] : [])]
      })
    ]
    out.push(grid(['who', 'over', ...c.statistics.map(statisticLabel)], rows))
    out.push(...ceilingNotes(c, name).map((note) => `  ${note}`))
    const d = c.definitions
    out.push(`  pairs of annotators: ${d.annotator_pairs}`, `  all annotators at once: ${d.all_annotators}`, `  against the majority of the others: ${d.against_majority_of_others}`, `  with each annotator: ${d.judge_with_each_annotator}`, `  against the human majority: ${d.judge_against_majority}`)
  }
  return out
}

/**
 * Under a ceiling table, what its cells cannot show: a figure averaged over fewer pairs or annotators than its row
 * counts (the others' figure undefined), and why each "—" is one (once per reason and set of rows).
 */
function ceilingNotes(c: Report['ceiling'][number], name: Name): string[] {
  const partial: string[] = []
  const over = (who: string, values: Record<string, { value: number | null; n_pairs?: number; n_annotators?: number; n_undefined?: number } | undefined>, total: number, unit: string) => {
    for (const s of c.statistics) {
      const v = values[s]
      if (!v || v.value === null) continue
      const counted = v.n_pairs ?? v.n_annotators ?? total
      const all = v.n_undefined !== undefined ? counted + v.n_undefined : total
      if (counted < all) partial.push(`${statisticLabel(s)} ${who}: over ${counted} of ${plural(all, unit)} (undefined for ${all - counted})`)
    }
  }
  over('of pairs of annotators', c.human_human.mean, c.human_human.n_pairs, 'pair')
  over('against the majority of the others', c.human_human.against_majority_of_others, 0, 'annotator')
  for (const j of c.judge_human) over(`of ${name(j.source)} with each annotator`, j.mean, j.n_pairs, 'annotator')
  const reasonsOf = (values: Record<string, { value: number | null; reason?: string | undefined } | undefined>) =>
    c.statistics.flatMap((s) => {
      const v = values[s]
      return v && v.value === null && v.reason ? [[s, v.reason] as const] : []
    })
  const rows = [
    { who: 'pairs of annotators', reasons: reasonsOf(c.human_human.mean) },
    { who: 'each annotator against the majority of the others', reasons: reasonsOf(c.human_human.against_majority_of_others) },
    ...c.judge_human.flatMap((j) => [
      { who: `${name(j.source)} with each annotator`, reasons: reasonsOf(j.mean) },
      { who: `${name(j.source)} against the human majority`, reasons: noUnits(j.against_majority) ? [[EVERY_FIGURE, 'no unit both have a value for'] as const] : reasonsOf(j.against_majority) }
    ])
  ]
  return [...partial, ...groupedNotes(rows)]
}

/** Whether a judge's row against the human majority rests on no unit (every figure of it undefined). */
function noUnits(against: Record<string, { n: number } | undefined>): boolean {
  const entries = Object.values(against)
  return entries.length > 0 && entries.every((e) => e?.n === 0)
}

function judgeVsJudgeText(report: Report, name: Name): string[] {
  if (report.judge_vs_judge.length === 0) return []
  const out = heading('Judge against judge', JUDGE_VS_JUDGE_NOTE)
  out.push(
    grid(
      ['field', 'statistic', 'criterion', 'first', 'second', 'first', 'second', 'difference', 'interval', 'McNemar p', 'shared units', 'right/wrong'],
      report.judge_vs_judge.map((r) => {
        const percent = r.statistic === 'accuracy'
        const f = (v: number | null) => (percent ? fmtPercent(v) : fmtNumber(v))
        return [
          r.field,
          statisticLabel(r.statistic),
          name(r.criterion),
          name(r.first),
          name(r.second),
          f(r.first_value),
          f(r.second_value),
          fmtDifference(r.difference, percent),
          fmtDifferenceInterval(r.ci.difference?.ci_low, r.ci.difference?.ci_high, percent) || NONE,
          r.mcnemar_p === undefined ? NONE : fmtP(r.mcnemar_p),
          // The units the figures are on, after the figures, as on the screen and in the HTML report.
          String(r.n),
          percent ? `${r.both_correct ?? 0}/${r.only_first ?? 0}/${r.only_second ?? 0}/${r.both_wrong ?? 0}` : NONE
        ]
      })
    )
  )
  return out
}
