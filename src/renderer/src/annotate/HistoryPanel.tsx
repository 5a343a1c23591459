import { useEffect, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import { api } from '../api'
import type { Widget } from '../../../shared/instruments/types'
import { AnswerView } from './AnswerView'
import { formatDuration } from './clock'

type Revision = OperationOutput<'annotations.history'>['revisions'][number]

/** Every revision of this item's answer, newest first, each shown read-only as its form, in the annotator's display order. */
export function HistoryPanel(props: { assignmentId: number; version: number; widgets: ReadonlyArray<Widget>; view: Record<string, unknown> }) {
  const { assignmentId, version } = props
  const [revisions, setRevisions] = useState<Revision[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    api['annotations.history']({ assignmentId }).then(
      (r) => live && setRevisions(r.revisions),
      (e: Error) => live && setError(e.message)
    )
    return () => {
      live = false
    }
  }, [assignmentId, version])
  return (
    <section className="history" aria-label="History" data-testid="history">
      <h3 className="form-heading">History</h3>
      {error && <p className="field-issue">{error}</p>}
      {revisions === null && !error && <p className="muted">Loading…</p>}
      {revisions?.length === 0 && <p className="muted">No submission yet.</p>}
      <ol className="revisions" reversed>
        {[...(revisions ?? [])].reverse().map((r) => (
          <li key={r.id} className={r.retracted ? 'revision retracted' : 'revision'} data-testid="revision">
            <div>
              <b>{r.retracted ? 'Withdrawn' : 'Submitted'}</b> {new Date(r.createdAt).toLocaleString()}
              {r.activeMs !== null && r.activeMs > 0 && <span className="muted"> · {formatDuration(r.activeMs)} active</span>}
            </div>
            {!r.retracted && <AnswerView widgets={props.widgets} data={r.judgement} view={props.view} />}
          </li>
        ))}
      </ol>
    </section>
  )
}

