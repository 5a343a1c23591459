import { useEffect, useLayoutEffect, useState } from 'react'
import { isTypingTarget } from './dom'
import { useAnnotate } from './annotate-state'

/** The annotator's queues with their progress; a digit or Enter opens one at its first pending item. */
export function QueueList() {
  const { queues, loadQueues, openQueue } = useAnnotate()
  const [at, setAt] = useState(0)

  useEffect(() => {
    void loadQueues()
  }, [loadQueues])

  useLayoutEffect(() => {
    const list = queues ?? []
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return
      if (/^[1-9]$/.test(e.key)) {
        const q = list[Number(e.key) - 1]
        if (q) {
          e.preventDefault()
          openQueue(q.instrument_id)
        }
      } else if (e.key === 'ArrowDown' || e.key === 'j') {
        e.preventDefault()
        setAt((i) => Math.min(list.length - 1, i + 1))
      } else if (e.key === 'ArrowUp' || e.key === 'k') {
        e.preventDefault()
        setAt((i) => Math.max(0, i - 1))
      } else if (e.key === 'Enter') {
        const q = list[at]
        if (q) {
          e.preventDefault()
          openQueue(q.instrument_id)
        }
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [queues, at, openQueue])

  if (!queues) return <p className="muted padded">Loading your queues…</p>
  return (
    <section className="queues" data-testid="queues">
      <h1>Your queues</h1>
      {queues.length === 0 && <p className="muted">Nothing is assigned to you yet.</p>}
      <ol className="queue-list">
        {queues.map((q, i) => {
          const pct = q.total ? Math.round((100 * q.done) / q.total) : 0
          return (
            <li key={q.instrument_id}>
              <button
                type="button"
                className={i === at ? 'queue-row current' : 'queue-row'}
                data-testid="queue"
                data-instrument={q.instrument_id}
                onClick={() => openQueue(q.instrument_id)}
              >
                <kbd>{i + 1}</kbd>
                <span className="queue-title">{q.title}</span>
                <span className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={q.total} aria-valuenow={q.done} aria-label={`${q.title} progress`}>
                  <span className="progress-done" style={{ width: `${pct}%` }} />
                </span>
                <span className="queue-counts" data-testid="queue-counts">
                  {q.done} done · {q.skipped} skipped · {q.flagged} flagged · of {q.total}
                </span>
              </button>
            </li>
          )
        })}
      </ol>
      <p className="muted small">
        <kbd>1</kbd>–<kbd>9</kbd> or <kbd>↑</kbd>/<kbd>↓</kbd> and <kbd>Enter</kbd> open a queue at its first pending item.
      </p>
    </section>
  )
}
