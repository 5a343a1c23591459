import { useLayoutEffect } from 'react'
import { CommitMark } from './commit-status'
import { isTypingTarget } from './dom'
import type { Counts } from './queue-progress'

/** The end of a queue: what was done, and its keys (undo, step back to the last item, leave). */
export function QueueFinished({
  title,
  counts,
  onUndo,
  onClose,
  onReviewLast
}: {
  title: string
  counts: Counts | null
  onUndo(): void
  onClose(): void
  onReviewLast(): void
}) {
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target)) return
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        e.preventDefault()
        onUndo()
      } else if (e.key === 'q' || e.key === 'Escape') {
        onClose()
      } else if ((e.altKey && e.key === 'ArrowLeft') || e.key === 'p') {
        onReviewLast()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onUndo, onClose, onReviewLast])

  return (
    <section className="queue-finished" data-testid="queue-finished">
      <CommitMark />
      <h1>{title}</h1>
      <p>
        Nothing pending in this queue: {counts?.done ?? 0} of {counts?.total ?? 0} done
        {counts ? `, ${counts.skipped} skipped, ${counts.flagged} flagged` : ''}.
      </p>
      <p className="muted">
        <kbd>q</kbd> back to the queues · <kbd>p</kbd> or <kbd>Alt</kbd>+<kbd>←</kbd> review the last item · <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo the last submission
      </p>
      <button type="button" onClick={onClose}>
        Back to the queues
      </button>
    </section>
  )
}
