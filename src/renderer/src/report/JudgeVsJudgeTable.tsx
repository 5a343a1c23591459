import { fmtDifference, fmtDifferenceInterval, fmtP, fmtStatistic, NONE, type Report } from '../../../shared/report'
import { Table, Who } from './TableParts'

type Name = (id: string) => string

/** A figure of one judge on the shared units; an undefined one shows why on hover. */
function Figure({ name, value, reason }: { name: string; value: number | null | undefined; reason: string | undefined }) {
  if (value === null || value === undefined) {
    return (
      <td className="num undefined" title={reason ?? 'not computed'}>
        {NONE}
      </td>
    )
  }
  return (
    <td className="num" data-statistic={name}>
      {fmtStatistic(name, value)}
    </td>
  )
}

/** Each pair of judges on the units both answered: their figures there, the paired difference and McNemar's test. */
export function JudgeVsJudgeTable({ report, name }: { report: Report; name: Name }) {
  if (report.judge_vs_judge.length === 0) return null
  return (
    <div className="report-long-names">
      <p className="muted small">
        On the units both judges answered and the criterion labels: each judge's figure here is on the shared units only, not the accuracy on all of its own
        units (that is in the field's table and on its card). Right/wrong: both right / only first / only second / both wrong. Exact McNemar test
        (two-sided); the difference (first − second; of accuracies in percentage points, pp) with a paired cluster-bootstrap interval.
      </p>
      <Table head={['Field', 'Criterion', 'First', 'Second', 'Shared units', 'Right/wrong', 'First', 'Second', 'Difference', 'McNemar p']} numericFrom={4}>
        {report.judge_vs_judge.map((r, i) => {
          const percent = r.statistic === 'accuracy'
          const interval = fmtDifferenceInterval(r.ci.difference?.ci_low, r.ci.difference?.ci_high, percent)
          return (
            <tr key={i}>
              <td>{r.field}</td>
              <td>{name(r.criterion)}</td>
              <Who report={report} id={r.first} />
              <Who report={report} id={r.second} />
              <td className="num" title={r.definition}>
                {r.n}
                <span className="ci">on the {r.n} shared units</span>
              </td>
              <td className="num" style={{ whiteSpace: 'nowrap' }}>
                {percent ? `${r.both_correct ?? 0} / ${r.only_first ?? 0} / ${r.only_second ?? 0} / ${r.both_wrong ?? 0}` : NONE}
              </td>
              <Figure name={r.statistic} value={r.first_value} reason={r.reasons.first_value} />
              <Figure name={r.statistic} value={r.second_value} reason={r.reasons.second_value} />
              {r.difference === null || r.difference === undefined ? (
                <td className="num undefined" title={r.reasons.difference ?? 'not computed'}>
                  {NONE}
                </td>
              ) : (
                <td className="num" data-statistic="difference">
                  {fmtDifference(r.difference, percent)}
                  {interval && <span className="ci">{interval}</span>}
                </td>
              )}
              <td className="num" title={r.reasons.mcnemar_p ?? 'exact binomial, two-sided'}>
                {r.mcnemar_p === undefined ? NONE : fmtP(r.mcnemar_p)}
              </td>
            </tr>
          )
        })}
      </Table>
    </div>
  )
}
