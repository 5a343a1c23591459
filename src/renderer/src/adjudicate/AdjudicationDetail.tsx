import { useEffect, useState } from 'react'
import type { AdjudicationItem } from '../../../shared/contract/packet-operations'
import { getInstrument, type InstrumentId } from '../../../shared/instruments'
import { api } from '../api'
import { SourceView } from '../annotate/source/SourceView'
import { JudgementView } from './JudgementView'

const CURATOR_KEY = 'assay.curator-name'

function rememberedCurator(): string {
  try {
    return localStorage.getItem(CURATOR_KEY) ?? ''
  } catch {
    return ''
  }
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
}

/**
 * One item: the answers side by side (in the order of the blinded view shown below them), what disagrees, earlier
 * decisions, and the form for the final label. The label starts from an annotator's answer or the current decision
 * and is edited as JSON in the same terms the answers are shown in.
 */
export function AdjudicationDetail({ instrument, itemId, onRecorded }: { instrument: InstrumentId; itemId: number; onRecorded: () => void }) {
  const [item, setItem] = useState<AdjudicationItem | null>(null)
  const [draft, setDraft] = useState('')
  const [reason, setReason] = useState('')
  const [curator, setCurator] = useState(rememberedCurator)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const [generation, setGeneration] = useState(0)
  const spec = getInstrument(instrument)

  useEffect(() => {
    let live = true
    setItem(null)
    setError(null)
    api['adjudication.item']({ instrument, itemId }).then(
      (loaded) => {
        if (!live) return
        setItem(loaded)
        const start = loaded.current?.judgement ?? loaded.answers[0]?.judgement ?? null
        setDraft(start === null ? '' : JSON.stringify(start, null, 2))
        setReason('')
      },
      (e: Error) => live && setError(e.message)
    )
    return () => {
      live = false
    }
  }, [instrument, itemId, generation])

  const record = async () => {
    setError(null)
    setSaved(null)
    let judgement: unknown
    try {
      judgement = JSON.parse(draft)
    } catch {
      return setError('The final label is not valid JSON.')
    }
    if (!curator.trim()) return setError('Say who decides (your name is recorded with the decision).')
    try {
      localStorage.setItem(CURATOR_KEY, curator.trim())
    } catch {
      // Private windows may refuse storage; the name is asked again next time.
    }
    try {
      const r = await api['adjudication.record']({
        instrument,
        itemId,
        judgement,
        reason,
        curator,
        basedOn: item?.answers.map((a) => a.annotationId) ?? [],
        expectedCurrent: item?.current?.id ?? null
      })
      setSaved(r.supersedes ? 'Recorded; it replaces the earlier decision (kept in the history).' : 'Recorded.')
      setGeneration((g) => g + 1)
      onRecorded()
    } catch (e) {
      setError((e as Error).message)
    }
  }

  if (error && !item) return <p className="failure">{error}</p>
  if (!item) return <p className="muted">Loading…</p>
  return (
    <article data-testid="adjudication-item" data-item={item.itemId}>
      <h2>
        Item #{item.itemId} · {spec.title}
      </h2>
      {item.fields.length > 0 ? (
        <p>
          Disagree on:{' '}
          {item.fields.map((f) => `${f.label}${f.units > 1 ? ` (${f.units} units)` : ''}`).join(', ')}
        </p>
      ) : (
        <p className="muted">The answers agree under the current rule.</p>
      )}
      <div className="side-by-side" data-testid="answers">
        {item.answers.map((a) => (
          <section key={a.annotationId} className="answer-card" data-testid="answer" data-annotator={a.annotator}>
            <h3>
              {a.annotator} {a.pseudonym && <span className="muted">({a.pseudonym})</span>}
            </h3>
            <div className="when">
              answered {when(a.createdAt)} · {a.origin}
              {a.revisions.length > 1 && ` · revision ${a.revisions.findIndex((r) => r.id === a.annotationId) + 1} of ${a.revisions.length}`}
            </div>
            {a.revisions.length > 1 && (
              <details>
                <summary className="small">Revisions</summary>
                <ul className="small">
                  {a.revisions.map((r) => (
                    <li key={r.id}>
                      {when(r.createdAt)}
                      {r.retracted ? ' · withdrawn' : ''}
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <JudgementView value={a.judgement} />
            <button type="button" onClick={() => setDraft(JSON.stringify(a.judgement, null, 2))}>
              Start from this answer
            </button>
          </section>
        ))}
      </div>

      <form
        className="final-form"
        data-testid="final-form"
        onSubmit={(e) => {
          e.preventDefault()
          void record()
        }}
      >
        <strong>{item.current ? 'Change the final label' : 'Final label'}</strong>
        <label>
          Judgement (as the answers above are shown)
          <textarea value={draft} onChange={(e) => setDraft(e.target.value)} aria-label="Final judgement" spellCheck={false} />
        </label>
        <label>
          Reason
          <textarea value={reason} onChange={(e) => setReason(e.target.value)} aria-label="Reason" required />
        </label>
        <div className="row">
          <label>
            Decided by <input value={curator} onChange={(e) => setCurator(e.target.value)} aria-label="Curator" />
          </label>
          <button type="submit">Record</button>
        </div>
        {error && <p className="failure" role="alert">{error}</p>}
        {saved && <p className="result">{saved}</p>}
      </form>

      {item.history.length > 0 && (
        <section className="adjudication-history">
          <h3>Decisions</h3>
          <ol>
            {item.history.map((h) => (
              <li key={h.id}>
                {when(h.createdAt)} · {h.curator}
                {h.id === item.current?.id ? ' · current' : ''} — {h.reason}
                <JudgementView value={h.judgement} />
              </li>
            ))}
          </ol>
        </section>
      )}

      <h3>The item, as the answers above refer to it</h3>
      <SourceView view={item.view} widgets={spec.form.widgets} />
    </article>
  )
}
