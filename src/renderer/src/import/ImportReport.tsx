import type { ImportReportView } from '../../../shared/contract/import-operations'
import type { ErrorLocation } from '../../../shared/errors'
import { TableScroll } from '../components/TableScroll'

/** At most this many errors and warnings are listed; the count says how many there are. */
export const LISTED_PROBLEMS = 100

/** Summary entries as rows: nested counts flattened into `key › subkey`. */
export function summaryRows(summary: Record<string, unknown>, prefix = ''): Array<{ key: string; value: string }> {
  const rows: Array<{ key: string; value: string }> = []
  for (const [k, v] of Object.entries(summary)) {
    const key = prefix ? `${prefix} › ${k}` : k
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) rows.push(...summaryRows(v as Record<string, unknown>, key))
    else rows.push({ key, value: Array.isArray(v) ? v.join(', ') : String(v) })
  }
  return rows
}

function Problems({ title, list, testId, className }: { title: string; list: ReadonlyArray<ErrorLocation>; testId: string; className: string }) {
  if (list.length === 0) return null
  const shown = list.slice(0, LISTED_PROBLEMS)
  return (
    <section aria-label={title}>
      <h2>
        {title} <span className="muted small">({list.length})</span>
      </h2>
      <TableScroll label={`${title} table`}><table className={`grid problems ${className}`} data-testid={testId}>
        <thead>
          <tr>
            <th className="num">Line</th>
            <th>Field</th>
            <th>Problem</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((d, i) => (
            <tr key={i}>
              <td className="num">{d.line ?? '—'}</td>
              <td>{d.field ? <code>{d.field}</code> : '—'}</td>
              <td>{d.message}</td>
            </tr>
          ))}
        </tbody>
      </table></TableScroll>
      {list.length > shown.length && (
        <p className="muted small">
          The first {shown.length} of {list.length} are listed; fix these and preview again, or run <code>assay import --dry-run --json</code> for all.
        </p>
      )}
    </section>
  )
}

/** The dry run or the import: what it would write or wrote, every problem with its line and field, the counts. */
export function ImportReport({ report, done, fileName }: { report: ImportReportView; done: boolean; fileName: string }) {
  // The file's own totals first, then what the format counted in its rows (recounted, never read from the file).
  const counts = [
    { key: 'items', value: String(report.errors.length ? 0 : report.items) },
    { key: 'labels', value: String(report.errors.length ? 0 : report.labels) },
    { key: 'rows skipped', value: String(report.skipped) },
    { key: 'errors', value: String(report.errors.length) },
    { key: 'warnings', value: String(report.warnings.length) },
    ...summaryRows(report.summary)
  ]
  return (
    <div className="import-report" data-testid="import-report">
      <p>
        {done ? 'Imported' : 'Would import'} <strong>{report.items}</strong> items and <strong>{report.labels}</strong> labels from <code>{fileName}</code> as{' '}
        <code>{report.format}</code>
        {report.detected ? ' (detected)' : ''} into set <code>{report.set}</code>, split <code>{report.split}</code>
        {report.skipped ? `; ${report.skipped} skipped` : ''}.
      </p>
      {report.errors.length > 0 && <p className="error-box">Errors below: nothing will be imported until they are fixed.</p>}
      <Problems title="Errors — nothing will be imported" list={report.errors} testId="import-errors" className="errors" />
      <Problems title="Warnings" list={report.warnings} testId="import-warnings" className="" />
      <section aria-label="Counts from the rows">
        <h2>Counts from the rows</h2>
        <TableScroll label="Counts from the rows table"><table className="grid counts-table" data-testid="import-counts">
          <thead>
            <tr>
              <th>What</th>
              <th className="num">Count</th>
            </tr>
          </thead>
          <tbody>
            {counts.map((r) => (
              <tr key={r.key}>
                <td>{r.key}</td>
                <td className="num">{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table></TableScroll>
      </section>
      {report.mapping.length > 0 && (
        <section aria-label="Mapping">
          <h2>Mapping</h2>
          <TableScroll label="Mapping table"><table className="grid" data-testid="import-mapping">
            <thead>
              <tr>
                <th>Field in the file</th>
                <th>Becomes</th>
              </tr>
            </thead>
            <tbody>
              {report.mapping.map((m) => (
                <tr key={m.field}>
                  <td>
                    <code>{m.field}</code>
                  </td>
                  <td>{m.to}</td>
                </tr>
              ))}
            </tbody>
          </table></TableScroll>
        </section>
      )}
      {report.preview.length > 0 && (
        <section aria-label="First rows">
          <h2>First rows</h2>
          <TableScroll label="First rows table"><table className="grid">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Id</th>
                <th>Title</th>
              </tr>
            </thead>
            <tbody>
              {report.preview.map((r) => (
                <tr key={`${r.kind}/${r.external_id}`}>
                  <td>{r.kind}</td>
                  <td>{r.external_id}</td>
                  <td>{r.title}</td>
                </tr>
              ))}
            </tbody>
          </table></TableScroll>
        </section>
      )}
    </div>
  )
}
