import { useCallback, useEffect, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { AnyInstrument } from '../../../shared/instruments'
import { api } from '../api'
import { SourceView } from '../annotate/source/SourceView'
import { TableScroll } from '../components/TableScroll'
import { TryForm } from './TryForm'

type Preview = OperationOutput<'instruments.preview'>

/** One instrument: what it asks, at which measurement level, and its form tried on one of the project's items. */
export function InstrumentPreview({ instrument }: { instrument: AnyInstrument }) {
  const [itemId, setItemId] = useState<number | undefined>(undefined)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    setError(null)
    api['instruments.preview']({ instrument: instrument.id, ...(itemId === undefined ? {} : { itemId }) }).then(
      (p) => live && setPreview(p),
      (e: Error) => live && setError(e.message)
    )
    return () => {
      live = false
    }
  }, [instrument.id, itemId])

  const check = useCallback(
    (answer: unknown) => api['instruments.preview']({ instrument: instrument.id, ...(preview?.item ? { itemId: preview.item.id } : {}), answer }).then((p) => p.check),
    [instrument.id, preview?.item]
  )

  return (
    <article className="instrument-preview" aria-labelledby="instrument-title">
      <header>
        <h1 id="instrument-title">{instrument.title}</h1>
        <p className="muted small">
          {instrument.id} · version {instrument.version} · asked of {instrument.itemKind} items{instrument.declared ? ' · declared by this project' : ' · built in'}
        </p>
        {instrument.description && <p>{instrument.description}</p>}
      </header>
      <TableScroll label="Fields of the instrument" className="instrument-fields-box">
      <table className="instrument-fields" data-testid="instrument-fields">
        <caption>What the report compares, per field</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Label</th>
            <th scope="col">Measurement level</th>
            <th scope="col">Categories</th>
          </tr>
        </thead>
        <tbody>
          {instrument.fields.map((f) => (
            <tr key={f.name}>
              <td>
                <code>{f.name}</code>
              </td>
              <td>{f.label}</td>
              <td>{f.level}</td>
              <td>{f.categories?.join(', ') ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </TableScroll>
      {error && (
        <p className="failure" role="alert">
          {error}
        </p>
      )}
      {preview && preview.items.length === 0 && <p data-testid="no-items">No {instrument.itemKind} items in this project yet: import some to try the form on one.</p>}
      {preview?.item && (
        <>
          <label className="try-item">
            Try it on{' '}
            <select value={preview.item.id} onChange={(e) => setItemId(Number(e.target.value))} data-testid="try-item">
              {preview.items.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.title && i.title !== i.externalId ? `${i.externalId} — ${i.title}` : i.externalId}
                </option>
              ))}
            </select>
            {preview.itemsTotal > preview.items.length && <span className="muted small"> (the first {preview.items.length} of {preview.itemsTotal})</span>}
          </label>
          {preview.viewProblem && <p className="failure">This item cannot be shown with this instrument: {preview.viewProblem}</p>}
          {preview.view && (
            <div className="try-area">
              <section className="try-source" aria-label="The item as an annotator sees it">
                <h3>As an annotator sees it</h3>
                <SourceView view={preview.view} widgets={instrument.form.widgets} />
              </section>
              <TryForm key={preview.item.id} instrument={instrument} view={preview.view} check={check} />
            </div>
          )}
          <details className="try-request" data-testid="try-request">
            <summary>What a judge is sent for this item</summary>
            {preview.request ? (
              <>
                <p className="muted small">Template {preview.request.template}</p>
                {preview.request.system && <pre aria-label="System message">{preview.request.system}</pre>}
                <pre aria-label="User message">{preview.request.user}</pre>
              </>
            ) : (
              <p>{preview.requestProblem}</p>
            )}
          </details>
        </>
      )}
    </article>
  )
}
