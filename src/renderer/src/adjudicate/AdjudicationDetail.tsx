import { useEffect, useState } from 'react'
import type { AdjudicationItem } from '../../../shared/contract/packet-operations'
import { getInstrument, type InstrumentId } from '../../../shared/instruments'
import { api } from '../api'
import { SourceView } from '../annotate/source/SourceView'
import { FinalLabelForm } from './FinalLabelForm'
import { fieldLabels } from './field-labels'
import { JudgementView } from './JudgementView'

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
}

type Answer = AdjudicationItem['answers'][number]

/** How people name an item: its title, which leads with the imported id; the id alone where the title lacks it. */
export function nameOf(item: { externalId: string; title: string }): string {
  if (!item.title) return item.externalId
  return item.title.includes(item.externalId) ? item.title : `${item.externalId} · ${item.title}`
}

/** Where the annotator saw canonical A, for pairs: their screen may have shown the sides the other way round. */
function seenAs(a: Answer): string | null {
  if (a.sawSwapped === null) return null
  return a.sawSwapped ? 'saw canonical B on the left' : 'saw canonical A on the left'
}

/** The one frame of sides: stated once above the answers, the form and the item. */
export function SideFrame({ item }: { item: AdjudicationItem }) {
  if (item.sides !== 'canonical') return null
  return (
    <p className="side-frame" data-testid="side-frame">
      Sides are named in <strong>canonical A/B</strong>, as in the item browser and the audit report: <strong>A (left)</strong> is canonical A,{' '}
      <strong>B (right)</strong> is canonical B. Answers given on a swapped screen are mapped back to this frame.
    </p>
  )
}

/**
 * One item: the answers side by side, what disagrees, earlier decisions, and the final label entered with the
 * instrument's own form (started from an answer on request), above the item in the same frame.
 */
export function AdjudicationDetail(props: { instrument: InstrumentId; itemId: number; onRecorded: () => void; onNavigate(step: 1 | -1): void }) {
  const { instrument, itemId, onRecorded } = props
  const [item, setItem] = useState<AdjudicationItem | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const [generation, setGeneration] = useState(0)
  const [start, setStart] = useState<{ judgement: unknown; from: string } | null>(null)
  const spec = getInstrument(instrument)

  useEffect(() => {
    let live = true
    setItem(null)
    setError(null)
    api['adjudication.item']({ instrument, itemId }).then(
      (loaded) => {
        if (!live) return
        setItem(loaded)
        setStart(null)
      },
      (e: Error) => live && setError(e.message)
    )
    return () => {
      live = false
    }
  }, [instrument, itemId, generation])

  if (error && !item) return <p className="failure">{error}</p>
  if (!item) return <p className="muted">Loading…</p>
  const sides = item.sides === 'canonical'
  const labels = fieldLabels(spec.form.widgets)
  return (
    <article data-testid="adjudication-item" data-item={item.itemId} data-external-id={item.externalId}>
      <h2>
        {nameOf(item)} <span className="muted small">· {spec.title}</span>
      </h2>
      {item.fields.length > 0 ? (
        <p>Disagree on: {item.fields.map((f) => `${f.label}${f.units > 1 ? ` (${f.units} units)` : ''}`).join(', ')}</p>
      ) : (
        <p className="muted">The answers agree under the current rule.</p>
      )}
      <SideFrame item={item} />
      <div className="side-by-side" data-testid="answers">
        {item.answers.map((a) => (
          <section key={a.annotationId} className="answer-card" data-testid="answer" data-annotator={a.annotator} aria-label={`Answer of ${a.annotator}`}>
            <h3>
              {a.annotator} {a.pseudonym && <span className="muted">({a.pseudonym})</span>}
            </h3>
            <div className="when">
              answered {when(a.createdAt)} · {a.origin}
              {a.revisions.length > 1 && ` · revision ${a.revisions.findIndex((r) => r.id === a.annotationId) + 1} of ${a.revisions.length}`}
              {seenAs(a) && ` · ${seenAs(a)}`}
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
            <JudgementView value={a.judgement} sides={sides} labels={labels} />
            <button type="button" onClick={() => setStart({ judgement: a.judgement, from: `${a.annotator}'s answer` })}>
              Start from this answer
            </button>
          </section>
        ))}
      </div>

      <FinalLabelForm
        key={item.current?.id ?? 'none'}
        instrument={spec}
        item={item}
        start={start}
        onNavigate={props.onNavigate}
        onRecorded={(message) => {
          setSaved(message)
          setGeneration((g) => g + 1)
          onRecorded()
        }}
      />
      {saved && (
        <p className="result" role="status">
          {saved}
        </p>
      )}

      {item.history.length > 0 && (
        <section className="adjudication-history">
          <h3>Decisions</h3>
          <ol>
            {item.history.map((h) => (
              <li key={h.id}>
                {when(h.createdAt)} · {h.curator}
                {h.id === item.current?.id ? ' · current' : ''} — <span className="judgement-text">{h.reason}</span>
                <JudgementView value={h.judgement} sides={sides} labels={labels} />
              </li>
            ))}
          </ol>
        </section>
      )}

      <h3>The item, in the frame above</h3>
      <SourceView view={item.view} widgets={spec.form.widgets} />
    </article>
  )
}
