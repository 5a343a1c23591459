import { calibrationLines, fitOfRun, fittedOn, fitTarget, CUT_MARK, NOT_A_SHARE, ESTIMATE_COLUMNS, estimateCutLines, estimateNoteLines, estimateOf, evaluatedOn, fmtBounds, fmtNumber, NONE, type Report } from '../../../shared/report'
import { Table, Who } from './TableParts'

type Name = (id: string) => string


/** Each stored recalibration against its raw judge on the eval split: before → after, with its paired test. */
export function CalibrationTable({ report, name }: { report: Report; name: Name }) {
  const rows = report.calibration ?? []
  if (rows.length === 0) return null
  return (
    <div className="report-long-names">
      <p className="muted small">
        Each fit learned on its fit split only and is evaluated on its eval split against the raw judge on the same units. Decisions: exact McNemar test;
        probabilities and values on the human scale: after − before with a paired cluster-bootstrap interval.
      </p>
      <Table head={['Fit', 'Raw judge', 'Aimed at', 'Fitted on', 'Evaluated on', 'Before → after']} numericFrom={6}>
        {rows.map((c) => (
          <tr key={c.fit_id}>
            <Who report={report} id={c.source} note={fitOfRun(c)} />
            <Who report={report} id={c.raw_source} />
            <td>
              {fitTarget(c)} of {name(c.criterion)}
            </td>
            <td>{fittedOn(c)}</td>
            <td>
              {evaluatedOn(c)}
            </td>
            <td className="before-after">
              {calibrationLines(c).map((line, i) => (
                <div key={`line-${i}`}>{line}</div>
              ))}
              {Object.entries(c.reasons).map(([key, reason]) => (
                <div key={`reason-${key}`} className="muted">
                  {key}: {reason}
                </div>
              ))}
              {c.warnings.map((w, i) => (
                <div key={i} className="report-warning-line">
                  ⚠ {w}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  )
}

function Estimate({ m }: { m: ReturnType<typeof estimateOf> }) {
  if (!m)
    return (
      <td className="num undefined" title={NOT_A_SHARE}>
        {NONE}
      </td>
    )
  if (m.value === null)
    return (
      <td className="num undefined" title={m.reason}>
        {NONE}
      </td>
    )
  return (
    <td className="num">
      {fmtNumber(m.value)}
      {m.cut_to_range ? ` ${CUT_MARK}` : null}
      <span className="ci">{fmtBounds(m.ci_low, m.ci_high)}</span>
    </td>
  )
}

/** PPI, PPI++ and Rogan–Gladen beside the human-only and judge-only estimates. */
export function EstimatesTable({ report, name }: { report: Report; name: Name }) {
  const e = report.estimates
  if (!e || e.rows.length === 0) return null
  return (
    <>
      <p className="muted small">
        {Math.round(e.level * 100)}% normal intervals. Labelled units carry a label from the criterion and the judge; unlabelled ones no person labelled, and units people
        labelled without a criterion value (a tie, no adjudication) are left out, as are labelled units the judge gave no value on. PPI uses
        the human labels to correct the judge&apos;s mean; Rogan–Gladen corrects its positive rate by its sensitivity and specificity on the labelled units.
      </p>
      {e.warnings.map((w, i) => (
        <p key={i} className="small" role="note">
          ⚠ {w}
        </p>
      ))}
      <Table head={['Judge', 'Criterion', 'Quantity', 'Labelled / unlabelled', ...ESTIMATE_COLUMNS.map(([, heading]) => heading)]} numericFrom={3}>
        {e.rows.map((r, i) => (
          <tr key={i}>
            <Who report={report} id={r.source} />
            <td>{name(r.criterion)}</td>
            <td>{r.quantity}</td>
            <td className="num">
              {r.n_labelled} / {r.n_unlabelled}
              {r.n_left_out > 0 ? <span title={`${r.left_out?.reason ?? ''}: ${r.left_out?.units.join(', ') ?? ''}`}> ({r.n_left_out} left out)</span> : null}
            </td>
            {ESTIMATE_COLUMNS.map(([key]) => (
              <Estimate key={key} m={estimateOf(r, key)} />
            ))}
          </tr>
        ))}
      </Table>
      {[...estimateCutLines(e.rows, name), ...estimateNoteLines(e.rows, name)].map((line, i) => (
        <p key={i} className="muted small">
          {line}
        </p>
      ))}
    </>
  )
}
