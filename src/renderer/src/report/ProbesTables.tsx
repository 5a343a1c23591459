import { detectionRuleWords, fmtTally, NONE, probeCountsWords, probeExpectationWords, type Report } from '../../../shared/report'
import { Table, Who } from './TableParts'

// The "Probes" section on screen: what the HTML report shows, as tables of the same numbers.

const pct = (v: number | null | undefined) => (v === null || v === undefined ? NONE : `${(100 * v).toFixed(1)}%`)
type Interval = { low: number | null; high: number | null; reason: string | null }
const ci = (i: Interval) => (i.low === null || i.high === null ? NONE : `[${pct(i.low)}, ${pct(i.high)}]`)

/** The pooled annotators are no source of their own: a row without a swatch. */
function ProbeWho({ report, id }: { report: Report; id: string }) {
  if (id === 'all-annotators') return <td className="report-who">All annotators (pooled)</td>
  return <Who report={report} id={id} />
}

export function ProbesTables({ report }: { report: Report }) {
  const s = report.probes
  if (!s) return null
  const typed = s.detection.some((r) => r.type_matched !== null)
  return (
    <>
      <p className="muted small" data-testid="probe-counts">
        {probeCountsWords(s)}.
      </p>
      <Table label="Probe kinds" head={['Kind', 'Expected verdict', 'Verified', 'Rejected', 'Unchecked']} numericFrom={2}>
        {s.by_kind.map((k) => (
          <tr key={k.kind}>
            <td>{k.kind}</td>
            <td>{probeExpectationWords(s.rules[k.kind])}</td>
            <td className="num">{k.verified}</td>
            <td className="num">{k.rejected}</td>
            <td className="num">{k.unchecked}</td>
          </tr>
        ))}
      </Table>
      {s.detection.length > 0 && (
        <>
          <h3>Detection rate</h3>
          <Table label="Probe detection" head={['Source', 'Role', 'Kind', 'Detected / probes', 'Families', 'Rate', 'Wilson', 'Bootstrap (families)', 'Ties', 'Unanswered', ...(typed ? ['Planted type named', 'Planted change quoted'] : [])]} numericFrom={3}>
            {s.detection.map((r) => (
              <tr key={`${r.source}/${r.kind}`}>
                <ProbeWho report={report} id={r.source} />
                <td>{r.role}</td>
                <td>{r.kind}</td>
                <td className="num">
                  {fmtTally(r.detected)} / {r.n_probes}
                </td>
                <td className="num">{r.n_families}</td>
                <td className="num">{pct(r.rate)}</td>
                <td className="num" title={r.wilson.reason ?? undefined}>{ci(r.wilson)}</td>
                <td className="num" title={r.bootstrap.reason ?? undefined}>{ci(r.bootstrap)}</td>
                <td className="num">{r.n_tied}</td>
                <td className="num">{r.n_unanswered}</td>
                {typed && <td className="num">{r.type_matched === null ? NONE : fmtTally(r.type_matched)}</td>}
                {typed && <td className="num">{r.location_matched === null ? NONE : fmtTally(r.location_matched)}</td>}
              </tr>
            ))}
          </Table>
          <p className="muted small">{detectionRuleWords(s.detection[0]?.rule ?? '')}.</p>
        </>
      )}
      {s.framing_preference.length > 0 && (
        <>
          <h3>Framing preference</h3>
          <p className="muted small">How often the version with inflated framing wins; framing alone should decide nothing (50%).</p>
          <Table label="Framing preference" head={['Source', 'Role', 'Kind', 'Inflated wins / probes', 'Families', 'Rate', 'Wilson', 'Bootstrap (families)', 'Ties', 'Unanswered']} numericFrom={3}>
            {s.framing_preference.map((r) => (
              <tr key={`${r.source}/${r.kind}`}>
                <ProbeWho report={report} id={r.source} />
                <td>{r.role}</td>
                <td>{r.kind}</td>
                <td className="num">
                  {fmtTally(r.probe_wins)} / {r.n_probes}
                </td>
                <td className="num">{r.n_families}</td>
                <td className="num">{pct(r.rate)}</td>
                <td className="num">{ci(r.wilson)}</td>
                <td className="num">{ci(r.bootstrap)}</td>
                <td className="num">{r.n_tied}</td>
                <td className="num">{r.n_unanswered}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </>
  )
}
