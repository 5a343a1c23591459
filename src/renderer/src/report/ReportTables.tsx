import { Fragment } from 'react'
import {
  alwaysLabel,
  comparisonColumns,
  scoredAgainstOutcome,
  majorityUnitsWords,
  comparedAnnotators,
  ceilingRangeWords,
  allAnnotatorsWords,
  subsetHeading,
  FATAL_FLAW_COLUMNS,
  NO_COMPARISON,
  sourceFlagsWords,
  sourceDetailWords,
  SOURCE_COUNT_COLUMNS,
  SOURCES_NOTE,
  FIELD_COUNT_COLUMNS,
  PAIRWISE_COUNT_COLUMNS,
  fieldCountsOf,
  pairwiseCountsOf,
  FATAL_FLAW_NOTE,
  FIELD_COUNTS,
  POSITION_NOTE,
  fmtInterval,
  fmtNumber,
  fmtP,
  fmtPercent,
  fmtStatistic,
  plural,
  intervalKeyOf,
  NO_SOURCES,
  NONE,
  colourIn,
  statisticLabel,
  comparisonNotes,
  type Report,
  type ReportComparison
} from '../../../shared/report'
import { OverStat, Stat, Table, Who } from './TableParts'

type Name = (id: string) => string

/** What a table's counts alone do not say (see comparisonNotes), a line each under the table. */
function Notes({ rows, name }: { rows: Parameters<typeof comparisonNotes>[0]; name: Name }) {
  return (
    <>
      {comparisonNotes(rows, name).map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
    </>
  )
}

/** Counts side by side, one numeric cell each, in the order of the table's head. */
function Counts({ of }: { of: ReadonlyArray<number | string> }) {
  return (
    <>
      {of.map((n, i) => (
        <td key={i} className="num">
          {n}
        </td>
      ))}
    </>
  )
}

/** Warnings grouped by kind, so a repeated warning reads once with its instances beneath. */
export function Warnings({ report }: { report: Report }) {
  if (report.warnings.length === 0) return <p className="muted">No warnings.</p>
  const byCode = new Map<string, string[]>()
  for (const w of report.warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w.message])
  return (
    <ul className="report-warnings" data-testid="report-warnings">
      {[...byCode.entries()].map(([code, messages]) => (
        <li key={code} data-code={code}>
          <strong>{code.replace(/_/g, ' ')}</strong>
          {messages.length === 1 ? (
            <>: {messages[0]}</>
          ) : (
            <>
              {' '}
              ({messages.length})
              <ul>
                {messages.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            </>
          )}
        </li>
      ))}
    </ul>
  )
}

export function SourcesTable({ report }: { report: Report }) {
  if (report.sources.length === 0) return <p className="muted">{NO_SOURCES}</p>
  return (
    <>
      <p className="muted small">{SOURCES_NOTE}.</p>
      <Table head={['Source', 'Kind', 'Role', ...SOURCE_COUNT_COLUMNS, 'Flags', 'Detail']} numericFrom={3} textFrom={3 + SOURCE_COUNT_COLUMNS.length}>
        {report.sources.map((s) => (
          <tr key={s.id}>
            <Who report={report} id={s.id} />
            <td>{s.kind.replace(/_/g, ' ')}</td>
            <td>{s.left_out ? `${s.role} · ${s.left_out.status}, left out: ${s.left_out.reason}` : s.role}</td>
            <Counts of={[s.n_items, s.n_calls, s.n_answered, s.n_failed, s.n_unparseable, s.n_abstained, s.n_pending, s.n_tied_votes]} />
            <td className="small">{sourceFlagsWords(s) || NONE}</td>
            <td className="small detail">{sourceDetailWords(s)}</td>
          </tr>
        ))}
      </Table>
    </>
  )
}

export function PairwiseTable({ report, name }: { report: Report; name: Name }) {
  const pairwise = report.pairwise
  if (!pairwise) return null
  return (
    <>
      <Table head={['Source', 'Criterion', 'Accuracy (Wilson)', 'Majority baseline', 'Random', ...PAIRWISE_COUNT_COLUMNS, 'Cluster bootstrap', 'Of all in scope', 'Items']} numericFrom={2}>
        {pairwise.rows.map((r) => (
          <tr key={`${r.source}|${r.criterion}`} data-source={r.source}>
            <Who report={report} id={r.source} />
            <td>{name(r.criterion)}</td>
            {/* The accuracy and the baselines it is read against first, so a narrow window shows them side by side. */}
            <Stat name="accuracy" value={r.accuracy} ci={r.ci.accuracy} reason={r.reasons.accuracy} below={r.below_majority_baseline === true} />
            <td className="num">
              {fmtPercent(r.majority_baseline)}
              <span className="ci">always {alwaysLabel(r.majority_label)}</span>
            </td>
            <Stat name="random_baseline" value={r.random_baseline} reason={r.reasons.random_baseline} />
            <Counts of={pairwiseCountsOf(r)} />
            <td className={r.ci.accuracy_bootstrap ? 'num' : 'num undefined'} title={r.ci.accuracy_bootstrap ? undefined : (r.reasons.accuracy_bootstrap ?? r.reasons.accuracy)}>
              {fmtInterval(r.ci.accuracy_bootstrap, true) || NONE}
            </td>
            <Stat name="accuracy_of_all" value={r.accuracy_of_all} ci={r.ci.accuracy_of_all} reason={r.reasons.accuracy_of_all} />
            {/* The items behind the calls: the n of the Wilson interval over items and of the bootstrap. */}
            <td className="num">{r.n_items}</td>
          </tr>
        ))}
      </Table>
      <Notes rows={pairwise.rows} name={name} />
    </>
  )
}

export function PositionTable({ report }: { report: Report }) {
  const pairwise = report.pairwise
  if (!pairwise || pairwise.position.length === 0) return null
  const value = (p: NonNullable<Report['pairwise']>['position'][number], key: string) => (p as unknown as Record<string, number | null | undefined>)[key]
  return (
    <>
    <p className="muted small">Runs asked in both display orders only. {POSITION_NOTE}.</p>
    <Table head={['Source', 'Pairs in both orders', 'Consistency', 'Biased to first', 'Biased to second', 'Error', 'Compared', 'Consistency of compared', 'Preference fairness', 'Incomplete pairs', 'Picked the first shown']} numericFrom={1}>
      {pairwise.position.map((p) => (
        <tr key={p.source}>
          <Who report={report} id={p.source} />
          <td className="num">{p.n_pairs}</td>
          <Stat name="mt_bench_consistency" value={p.mt_bench_consistency} reason={p.reasons.mt_bench_consistency} />
          <Stat name="biased_to_first" value={value(p, 'biased_to_first')} ci={p.ci.biased_to_first} reason={p.reasons.biased_to_first} />
          <Stat name="biased_to_second" value={value(p, 'biased_to_second')} ci={p.ci.biased_to_second} reason={p.reasons.biased_to_second} />
          <Stat name="error_rate" value={value(p, 'error_rate')} reason={p.reasons.error_rate} />
          <td className="num">{p.n_compared}</td>
          <Stat name="position_consistency" value={p.position_consistency} ci={p.ci.position_consistency} reason={p.reasons.position_consistency} />
          <Stat name="preference_fairness" value={value(p, 'preference_fairness')} ci={p.ci.preference_fairness} reason={p.reasons.preference_fairness} />
          <td className="num">{p.n_incomplete}</td>
          <Stat name="first_position_preference" value={p.first_position_preference} ci={p.ci.first_position_preference} reason={p.reasons.first_position_preference} />
        </tr>
      ))}
    </Table>
    </>
  )
}

/** Accuracy per subset (label, set, probe), one column per subset. */
export function SubsetTable({ report, name }: { report: Report; name: Name }) {
  const rows = report.pairwise?.rows ?? []
  const keys: string[] = []
  for (const r of rows) for (const sub of r.subsets) if (!keys.includes(`${sub.by}\u0000${sub.value}`)) keys.push(`${sub.by}\u0000${sub.value}`)
  if (keys.length === 0) return null
  const heading = (k: string) => {
    const [by, value] = k.split('\u0000') as [string, string]
    return subsetHeading(by, value)
  }
  return (
    <Table head={['Source', 'Criterion', ...keys.map(heading)]} numericFrom={2}>
      {rows.map((r) => (
        <tr key={`${r.source}|${r.criterion}`}>
          <Who report={report} id={r.source} />
          <td>{name(r.criterion)}</td>
          {keys.map((k) => {
            const sub = r.subsets.find((x) => `${x.by}\u0000${x.value}` === k)
            if (!sub || sub.accuracy === null) return <td key={k} className="num undefined">{NONE}</td>
            return (
              <td key={k} className="num">
                {fmtPercent(sub.accuracy)} ({sub.correct}/{sub.n_judged})
                <span className="ci">{fmtInterval({ method: 'wilson', level: report.settings.level, ci_low: sub.ci_low, ci_high: sub.ci_high }, true)}</span>
              </td>
            )
          })}
        </tr>
      ))}
    </Table>
  )
}

export function FatalFlawTable({ report }: { report: Report }) {
  const pairwise = report.pairwise
  if (!pairwise || pairwise.fatal_flaws.length === 0) return null
  return (
    <>
      <p className="muted small">
        {pairwise.n_fatal_flaw_audits} human flaw audits. {FATAL_FLAW_NOTE}.
      </p>
      <Table head={[...FATAL_FLAW_COLUMNS]} numericFrom={1}>
        {pairwise.fatal_flaws.map((f) => (
          <tr key={f.source}>
            <Who report={report} id={f.source} />
            <Counts of={[f.n_fatal, f.n_judged, f.n_ruled_against]} />
            <Stat name="fatal_flaw_recall" value={f.fatal_flaw_recall} ci={f.ci.fatal_flaw_recall} reason={f.reasons.fatal_flaw_recall} />
            <Counts of={[f.n_no_value, f.n_unanswered, f.n_both_fatal]} />
            <td className={f.n_named_judged === undefined ? 'num undefined' : 'num'} title={f.n_named_judged === undefined ? f.reasons.fatal_flaw_named_recall : undefined}>
              {f.n_named_judged === undefined ? NONE : `${f.n_named}/${f.n_named_judged}`}
            </td>
            <Stat name="fatal_flaw_named_recall" value={f.fatal_flaw_named_recall} ci={f.ci.fatal_flaw_named_recall} reason={f.reasons.fatal_flaw_named_recall} />
          </tr>
        ))}
      </Table>
    </>
  )
}

function comparisonCell(c: ReportComparison, statistic: string) {
  const record = c as unknown as Record<string, unknown>
  const value = record[statistic] as number | null | undefined
  if (statistic === 'majority_baseline' && typeof value === 'number') {
    return (
      <td key={statistic} className="num">
        {fmtPercent(value)}
        <span className="ci">always {alwaysLabel(c.majority_label ?? [])}</span>
      </td>
    )
  }
  if (statistic === 'kendall_tau_b' && typeof value === 'number') {
    return (
      <td key={statistic} className="num" data-statistic="kendall_tau_b">
        {fmtNumber(value)}
        <span className="ci">p = {fmtP(c.kendall_p)}</span>
      </td>
    )
  }
  if (statistic === 'accuracy' && typeof value === 'number') {
    // Both intervals, each named (W: Wilson, units independent; B: cluster bootstrap over items), as in the HTML
    // report: the card cites the one the report recommends at its size, and finds it here under its name.
    const wilson = fmtInterval(c.ci.accuracy, true)
    const boot = fmtInterval(c.ci.accuracy_bootstrap, true)
    return (
      <td key={statistic} className={c.below_majority_baseline ? 'num below' : 'num'} data-statistic="accuracy">
        {fmtPercent(value)}
        {wilson && <span className="ci">W {wilson}</span>}
        {boot && <span className="ci">B {boot}</span>}
      </td>
    )
  }
  return <Stat key={statistic} name={statistic} value={value} ci={c.ci[intervalKeyOf(statistic)]} reason={c.reasons[statistic]} />
}

export function FieldTable({ report, field, name }: { report: Report; field: Report['fields'][number]; name: Name }) {
  if (field.comparisons.length === 0) return <p className="muted">{NO_COMPARISON}</p>
  const hasOutcome = scoredAgainstOutcome(field)
  const columns = comparisonColumns(field.level, hasOutcome)
  return (
    <>
    <p className="muted small">
        Counts {field.unit}. {FIELD_COUNTS.charAt(0).toUpperCase() + FIELD_COUNTS.slice(1)}.{' '}
        {columns.includes('accuracy') ? 'Under accuracy, W marks the Wilson interval and B the cluster bootstrap over items; each other interval names its method on hover.' : 'Each interval names its method on hover.'}
      </p>
      {/* The statistics first and their counts after, so a narrow window shows what the rows are compared by. */}
      <Table head={['Source', 'Criterion', ...columns.map(statisticLabel), ...FIELD_COUNT_COLUMNS]} numericFrom={2}>
        {field.comparisons.map((c) => (
          <tr key={`${c.source}|${c.criterion}`} data-source={c.source} data-criterion={c.criterion}>
            <Who report={report} id={c.source} />
            <td>{name(c.criterion)}</td>
            {columns.map((s) => comparisonCell(c, s))}
            <Counts of={fieldCountsOf(c)} />
          </tr>
        ))}
      </Table>
      <Notes rows={field.comparisons} name={name} />
    </>
  )
}

export function CeilingTable({ report, ceiling }: { report: Report; ceiling: Report['ceiling'][number] }) {
  const h = ceiling.human_human
  const d = ceiling.definitions
  const others = h.against_majority_of_others
  const cited = Object.values(others)[0]
  return (
    <>
      <p className="small">
        All annotators at once: {allAnnotatorsWords(h, ceiling.level, ceiling.n_annotators)}
      </p>
      <Table head={['Who', 'Over', ...ceiling.statistics.map(statisticLabel)]} numericFrom={1}>
        <tr>
          <td>Human – human · pairs of annotators</td>
          <td className="num">{plural(h.n_pairs, 'pair')}</td>
          {ceiling.statistics.map((s) => (
            <OverStat key={s} name={s} mean={h.mean[s]} all={h.n_pairs} unit="pair" />
          ))}
        </tr>
        {cited && (
          <tr>
            <td>Each annotator against the majority of the others (the cards’ human ceiling)</td>
            <td className="num">{comparedAnnotators(cited)}</td>
            {ceiling.statistics.map((s) => {
              const o = others[s]
              if (!o || o.value === null) return <Stat key={s} name={s} value={o?.value} reason={o?.reason} />
              return (
                <td key={s} className="num" data-statistic={s}>
                  {fmtStatistic(s, o.value)}
                  {ceilingRangeWords(s, o) && <span className="ci">{ceilingRangeWords(s, o)}</span>}
                </td>
              )
            })}
          </tr>
        )}
        {ceiling.judge_human.map((j) => {
          const majority = Object.values(j.against_majority)[0]
          return (
            <Fragment key={j.source}>
              <tr>
                <WhoWith report={report} id={j.source} words="with each annotator" />
                <td className="num">{plural(j.n_pairs, 'annotator')}</td>
                {ceiling.statistics.map((s) => (
                  <OverStat key={s} name={s} mean={j.mean[s]} all={j.n_pairs} unit="annotator" />
                ))}
              </tr>
              {majority && (
                <tr>
                  <WhoWith report={report} id={j.source} words="against the human majority" />
                  <td className="num">{majorityUnitsWords(j.against_majority)}</td>
                  {ceiling.statistics.map((s) => (
                    <Stat key={s} name={s} value={j.against_majority[s]?.value} reason={j.against_majority[s]?.reason} />
                  ))}
                </tr>
              )}
            </Fragment>
          )
        })}
      </Table>
      <ul className="muted small">
        <li>Pairs of annotators: {d.annotator_pairs}</li>
        <li>All annotators at once: {d.all_annotators}</li>
        <li>Each annotator against the majority of the others: {d.against_majority_of_others}</li>
        <li>With each annotator: {d.judge_with_each_annotator}</li>
        <li>Against the human majority: {d.judge_against_majority}</li>
      </ul>
    </>
  )
}

/** A source's name cell with what the row counts beside it. */
function WhoWith({ report, id, words }: { report: Report; id: string; words: string }) {
  const source = report.sources.find((s) => s.id === id)
  return (
    <td data-source={id} className="report-who">
      <span className="swatch" style={{ background: colourIn(report.sources, id, source?.role) }} />
      {source?.name ?? id} <span className="muted small">· {words}</span>
    </td>
  )
}
