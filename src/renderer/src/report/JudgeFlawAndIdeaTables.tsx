import { NO_QUOTE_OVERLAP, JUDGE_FLAW_AUDIT_COLUMNS, JUDGE_FLAW_AUDIT_NOTE, fmtDifference, fmtDifferenceInterval, fmtNumber, fmtPercent, NONE, type FlawMatchCell, type Report } from '../../../shared/report'
import { Table, Who } from './TableParts'

// The report's sections on generated ideas (chosen beside excluded) and on judges' flaw audits (against the experts',
// and beside them in the fatal-flaw part of a pairwise report).


function Share({ value, ci, k, n }: { value: number | null; ci: [number, number] | null; k: number; n: number }) {
  if (value === null) return <td className="num undefined" title="nothing in the denominator">{NONE}</td>
  return (
    <td className="num">
      {fmtPercent(value)} ({k}/{n}){ci && <span className="ci">[{fmtPercent(ci[0])}, {fmtPercent(ci[1])}]</span>}
    </td>
  )
}

export function IdeaOriginalityTable({ report }: { report: Report }) {
  const s = report.idea_originality
  if (!s) return null
  return (
    <>
      <p className="muted small">
        {s.n_generated} generated ideas. Mean originality of the ideas each generator chose and of those it left out; the difference (chosen − excluded) with a
        cluster-bootstrap interval over keywords.
      </p>
      <Table head={['Source', 'Scheme', 'Keywords', 'Chosen (n)', 'Excluded (n)', 'Difference']} numericFrom={2}>
        {s.rows.map((r) => (
          <tr key={`${r.source}|${r.scheme}`}>
            <Who report={report} id={r.source} />
            <td>{r.scheme}</td>
            <td className="num">{r.n_groups}</td>
            <td className="num">
              {fmtNumber(r.mean_selected)} ({r.n_selected})
            </td>
            <td className="num">
              {fmtNumber(r.mean_excluded)} ({r.n_excluded})
            </td>
            {r.difference === null ? (
              <td className="num undefined" title={Object.values(r.reasons).join('; ')}>
                {NONE}
              </td>
            ) : (
              <td className="num">
                {fmtDifference(r.difference, false)}
                {r.ci_low !== null && r.ci_high !== null && (
                  <span className="ci">{fmtDifferenceInterval(r.ci_low, r.ci_high, false)}</span>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  )
}

export function FlawMatchingTable({ report }: { report: Report }) {
  const s = report.flaw_matching
  if (!s) return null
  const slices = (cells: { overall: FlawMatchCell; by_severity: FlawMatchCell[]; by_type: FlawMatchCell[] }) => [
    ['all flaws', cells.overall] as const,
    ...cells.by_severity.map((c) => [`severity: ${c.key}`, c] as const),
    ...cells.by_type.map((c) => [`type: ${c.key}`, c] as const)
  ]
  return (
    <>
      <p className="muted small">
        A flaw is a side and a type of a pair ({s.match_rule}); {s.n_reference_items} pairs have a reference audit. Recall by the reference&apos;s severity, precision by
        the judge&apos;s; Wilson intervals. Quote overlap: mean word overlap of the judge&apos;s quote with the experts&apos; on matched flaws.
      </p>
      <Table head={['Judge', 'Flaws', 'Recall', 'Precision', 'Quote overlap (matched)', 'Unparseable flaws', 'Reference']} numericFrom={2}>
        {s.rows.flatMap((r) =>
          slices(r).map(([label, c], i) => (
            <tr key={`${r.source}|${label}`}>
              {i === 0 ? <Who report={report} id={r.source} /> : <td />}
              <td>{label}</td>
              <Share value={c.recall} ci={c.recall_ci} k={c.n_expert_found} n={c.n_expert} />
              <Share value={c.precision} ci={c.precision_ci} k={c.n_judge_matched} n={c.n_judge} />
              <td className={i === 0 && r.quote_overlap === null ? 'num undefined' : 'num'} title={i === 0 && r.quote_overlap === null ? NO_QUOTE_OVERLAP : undefined}>
                {i === 0 ? `${fmtNumber(r.quote_overlap)} (${r.n_quote_pairs})` : ''}
              </td>
              <td className="num">{i === 0 ? r.n_unparseable_flaws : ''}</td>
              <td>{i === 0 ? `${r.reference}, ${r.n_items} pairs` : ''}</td>
            </tr>
          ))
        )}
      </Table>
    </>
  )
}

export function JudgeFlawAuditsTable({ report }: { report: Report }) {
  const rows = report.pairwise?.judge_flaw_audits
  if (!rows?.length) return null
  return (
    <>
      <h4>Judges&apos; own flaw audits beside the experts&apos;</h4>
      <p className="muted small">{JUDGE_FLAW_AUDIT_NOTE}.</p>
      <Table head={[...JUDGE_FLAW_AUDIT_COLUMNS]} numericFrom={1}>
        {rows.map((r) => (
          <tr key={r.source}>
            <Who report={report} id={r.source} fallback={r.name} />
            <td className="num">{r.n_fatal}</td>
            <td className="num">{r.n_named}</td>
            <Share value={r.recall} ci={r.recall_ci} k={r.n_named} n={r.n_fatal} />
            <td className="num">{r.n_unparseable}</td>
            <td className="num">{r.n_unanswered}</td>
            <td className="num">{r.n_other_side_fatal}</td>
            <td className="num">{r.n_audited}</td>
          </tr>
        ))}
      </Table>
    </>
  )
}
