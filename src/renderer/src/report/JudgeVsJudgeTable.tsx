import { fieldLabelOf, fmtDifference, fmtDifferenceInterval, fmtP, fmtRightWrong, JUDGE_VS_JUDGE_NOTE, mcnemarWords, NO_RIGHT_WRONG, NONE, statisticLabel, type Report } from '../../../shared/report'
import { Stat, Table, Who } from './TableParts'

type Name = (id: string) => string

/** Each pair of judges on the units both answered: their figures there, the paired difference and McNemar's test. */
export function JudgeVsJudgeTable({ report, name }: { report: Report; name: Name }) {
  if (report.judge_vs_judge.length === 0) return null
  return (
    <div className="report-long-names">
      <p className="muted small">{JUDGE_VS_JUDGE_NOTE}.</p>
      <Table head={['Field', 'Statistic', 'Criterion', 'First', 'Second', 'First', 'Second', 'Difference', 'McNemar p', 'Shared units', 'Right/wrong']} numericFrom={5}>
        {report.judge_vs_judge.map((r, i) => {
          const percent = r.statistic === 'accuracy'
          const interval = fmtDifferenceInterval(r.ci.difference?.ci_low, r.ci.difference?.ci_high, percent)
          return (
            <tr key={i}>
              <td>{fieldLabelOf(report, r.field)}</td>
              <td>{statisticLabel(r.statistic)}</td>
              <td>{name(r.criterion)}</td>
              <Who report={report} id={r.first} />
              <Who report={report} id={r.second} />
              <Stat name={r.statistic} value={r.first_value} reason={r.reasons.first_value} />
              <Stat name={r.statistic} value={r.second_value} reason={r.reasons.second_value} />
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
              <td className="num" title={mcnemarWords(r)}>
                {r.mcnemar_p === undefined ? NONE : fmtP(r.mcnemar_p)}
              </td>
              {/* The units the figures are on, after the figures, so a narrow window shows the difference. */}
              <td className="num" title={r.definition}>
                {r.n}
                <span className="ci">on the {r.n} shared units</span>
              </td>
              <td className={percent ? 'num' : 'num undefined'} style={{ whiteSpace: 'nowrap' }} title={percent ? undefined : NO_RIGHT_WRONG}>
                {percent ? fmtRightWrong(r) : NONE}
              </td>
            </tr>
          )
        })}
      </Table>
    </div>
  )
}
