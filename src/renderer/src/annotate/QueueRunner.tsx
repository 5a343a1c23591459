import { useMemo, useRef } from 'react'
import type { InstrumentId } from '../../../shared/instruments/types'
import { getInstrument } from '../../../shared/instruments'
import { SlotView } from './item-stack'
import { QueueProgress } from './queue-progress'
import { useAnnotate } from './annotate-state'
import { useQueue } from './use-queue'
import { QueueFinished } from './QueueFinished'
import { CommitMark } from './commit-status'

/**
 * Works through one queue: opens at the first pending item (or the one asked for), keeps the next items fetched
 * ahead (the next pending one built behind the one on screen), and moves on after a submission, skip or flag. A
 * submission shows the next item at once and is committed in the background, one at a time and in order; it is
 * marked saved only when main acknowledges it, and a refused commit brings the person back to that item with the
 * answer and main's message. The queue's transitions are in queue-machine, carried out by use-queue; this is the view.
 */
export function QueueRunner({ instrument, startAt }: { instrument: InstrumentId; startAt: number | null }) {
  // Actions only: the queue does not re-render (nor the item with it) when a notice or the undo stack changes.
  const closeQueue = useAnnotate((s) => s.closeQueue)
  const stackRef = useRef<HTMLDivElement>(null)
  const { view, actions, undo, reviewLast } = useQueue(instrument, startAt, stackRef)
  const { slots, counts, loading, finished, failure } = view
  const title = getInstrument(instrument).title

  const done = counts?.done ?? 0
  const total = counts?.total ?? 0
  const progress = useMemo(() => ({ done, total }), [done, total])

  if (finished) return <QueueFinished title={title} counts={counts} onUndo={undo} onClose={closeQueue} onReviewLast={reviewLast} />
  if (!slots.some((s) => s.shown)) return <p className="muted padded">{loading ? 'Opening…' : ''}</p>
  return (
    <QueueProgress.Provider value={progress}>
      <CommitMark />
      <div className="item-stack" ref={stackRef}>
        {slots.map((slot) => (
          <SlotView
            key={slot.key}
            slot={slot}
            title={title}
            failure={slot.live && failure?.assignmentId === slot.item.assignmentId ? failure.failure : undefined}
            actions={actions}
          />
        ))}
      </div>
    </QueueProgress.Provider>
  )
}
