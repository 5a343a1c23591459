import type { ReactNode } from 'react'
import { fmtInterval, fmtStatistic, intervalTitle, NONE, overWords, PERCENT_STATISTICS, colourIn, type Report, type ReportInterval } from '../../../shared/report'
import { TableScroll } from '../components/TableScroll'

// The pieces every report table on screen is made of, so all sections look and read alike.

/** A report table: a header row, numeric columns from `numericFrom` on right-aligned, scrolling in its own box. */
/** A report table: columns from `numericFrom` on hold numbers (right-aligned), up to `textFrom` where given. */
export function Table({ head, numericFrom, textFrom, label, children }: { head: string[]; numericFrom: number; textFrom?: number; label?: string; children: ReactNode }) {
  return (
    <TableScroll className="report-table-wrap" label={label ?? head.join(', ')}>
      <table className="grid report-table" aria-label={label}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={`${h}-${i}`} className={i >= numericFrom && (textFrom === undefined || i < textFrom) ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  )
}

/**
 * A source's name with its swatch: the colour the source has in every plot. Where a `fallback` name is given, an id
 * that is no source of the report shows that name without a swatch.
 */
export function Who({ report, id, fallback, note }: { report: Report; id: string; fallback?: string; note?: string }) {
  const source = report.sources.find((s) => s.id === id)
  return (
    <td data-source={id} className="report-who">
      {(source || fallback === undefined) && <span className="swatch" data-colour={colourIn(report.sources, id, source?.role)} style={{ background: colourIn(report.sources, id, source?.role) }} />}
      {source?.name ?? fallback ?? id}
      {note ? <span className="muted small"> · {note}</span> : null}
    </td>
  )
}

/** A statistic with its interval underneath; an undefined one shows its reason on hover. */
export function Stat({ name, value, ci, reason, below }: { name: string; value: number | null | undefined; ci?: ReportInterval | undefined; reason?: string | undefined; below?: boolean }) {
  if (value === null || value === undefined) {
    return (
      <td className="num undefined" title={reason ?? 'not computed'}>
        {NONE}
      </td>
    )
  }
  const interval = fmtInterval(ci, PERCENT_STATISTICS.has(name))
  return (
    <td className={below ? 'num below' : 'num'} data-statistic={name} title={interval && ci ? intervalTitle(ci) : undefined}>
      {fmtStatistic(name, value)}
      {interval && <span className="ci">{interval}</span>}
    </td>
  )
}

/** A ceiling average, saying beneath it when it is over fewer pairs than its row counts. */
export function OverStat({ name, mean, all, unit }: { name: string; mean: { value: number | null; n_pairs: number; reason?: string | undefined } | undefined; all: number; unit: string }) {
  const words = overWords(mean?.n_pairs, all, unit)
  if (!mean || mean.value === null || !words) return <Stat name={name} value={mean?.value} reason={mean?.reason} />
  return (
    <td className="num" data-statistic={name}>
      {fmtStatistic(name, mean.value)}
      <span className="ci">{words}</span>
    </td>
  )
}
