import { useState } from 'react'
import { IMPORT_FORMAT_NAMES, type ImportReportView } from '../../../shared/contract/import-operations'
import { formatLocation } from '../../../shared/errors'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { api } from '../api'
import { Choices } from '../components/Choices'

type Format = (typeof IMPORT_FORMAT_NAMES)[number]

/**
 * Import a file from this machine: a dry run first (detected format, first rows, counts, warnings and errors with
 * their lines), then the import itself, all or nothing.
 */
export function ImportScreen() {
  const [path, setPath] = useState('')
  const [format, setFormat] = useState<Format | ''>('')
  const [set, setSet] = useState('')
  const [split, setSplit] = useState<Split>('none')
  const [preview, setPreview] = useState<ImportReportView | null>(null)
  const [done, setDone] = useState<ImportReportView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const input = () => ({ path: path.trim(), ...(format ? { format } : {}), ...(set.trim() ? { set: set.trim() } : {}), split })

  async function run(kind: 'import.preview' | 'import.run') {
    setBusy(true)
    setError(null)
    try {
      const report = await api[kind](input())
      if (kind === 'import.preview') {
        setPreview(report)
        setDone(null)
        if (!format) setFormat(report.format)
      } else setDone(report)
    } catch (e) {
      const err = e as Error & { details?: Array<{ file?: string; line?: number; field?: string; message: string }> }
      setError([err.message, ...(err.details ?? []).map(formatLocation)].join('\n'))
    } finally {
      setBusy(false)
    }
  }

  const report = done ?? preview
  return (
    <section className="import-screen">
      <h1>Import</h1>
      <form
        className="import-form"
        onSubmit={(e) => {
          e.preventDefault()
          void run('import.preview')
        }}
      >
        <label>
          File on this machine
          <input aria-label="File path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/pairs.jsonl" required />
        </label>
        <label>
          Format
          <select aria-label="Format" value={format} onChange={(e) => setFormat(e.target.value as Format | '')}>
            <Choices values={IMPORT_FORMAT_NAMES} empty="Detect" />
          </select>
        </label>
        <label>
          Set
          <input aria-label="Set name" value={set} onChange={(e) => setSet(e.target.value)} placeholder="file name" />
        </label>
        <label>
          Split
          <select aria-label="Import split" value={split} onChange={(e) => setSplit(e.target.value as Split)}>
            <Choices values={SPLITS} />
          </select>
        </label>
        <div className="actions">
          <button type="submit" disabled={busy || !path.trim()}>
            Preview
          </button>
          <button type="button" disabled={busy || !preview || preview.errors.length > 0 || done !== null} onClick={() => void run('import.run')}>
            Import
          </button>
        </div>
      </form>
      {error && (
        <pre className="error-box" role="alert">
          {error}
        </pre>
      )}
      {report && (
        <div className="import-report" data-testid="import-report">
          <p>
            {done ? 'Imported' : 'Would import'} <strong>{report.items}</strong> items and <strong>{report.labels}</strong> labels as{' '}
            <code>{report.format}</code>
            {report.detected ? ' (detected)' : ''} into set <code>{report.set}</code>, split <code>{report.split}</code>
            {report.skipped ? `; ${report.skipped} skipped` : ''}.
          </p>
          {report.errors.length > 0 && (
            <>
              <h2>Errors — nothing will be imported</h2>
              <ul className="problems errors">
                {report.errors.map((d, i) => (
                  <li key={i}>{formatLocation(d)}</li>
                ))}
              </ul>
            </>
          )}
          {report.warnings.length > 0 && (
            <>
              <h2>Warnings</h2>
              <ul className="problems">
                {report.warnings.map((d, i) => (
                  <li key={i}>{formatLocation(d)}</li>
                ))}
              </ul>
            </>
          )}
          {Object.keys(report.summary).length > 0 && (
            <>
              <h2>Counts from the rows</h2>
              <pre className="json">{JSON.stringify(report.summary, null, 2)}</pre>
            </>
          )}
          {report.mapping.length > 0 && (
            <>
              <h2>Mapping</h2>
              <table className="grid" data-testid="import-mapping">
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
              </table>
            </>
          )}
          {report.preview.length > 0 && (
            <>
              <h2>First rows</h2>
              <table className="grid">
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
              </table>
            </>
          )}
        </div>
      )}
    </section>
  )
}
