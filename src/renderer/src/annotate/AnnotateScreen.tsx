import { useEffect, useRef } from 'react'
import { useWorkbench } from '../workbench-state'
import { clearLastItem, lastItemKey, readLastItem } from './last-item'
import { QueueList } from './QueueList'
import { QueueRunner } from './QueueRunner'
import { useAnnotate } from './annotate-state'
import { WhoIsAnnotating } from './WhoIsAnnotating'
import { AssignPanel } from '../assign/AssignPanel'
import { ScreenBoundary } from '../views/ScreenBoundary'

/** The annotation screens: who is annotating (curators), then the queues and the items of one queue. */
export function AnnotateScreen() {
  const session = useWorkbench((s) => s.session)
  const open = useAnnotate((s) => s.open)
  const notice = useAnnotate((s) => s.notice)
  const clearNotice = useAnnotate((s) => s.clearNotice)
  const openQueue = useAnnotate((s) => s.openQueue)
  const closeQueue = useAnnotate((s) => s.closeQueue)
  const projectId = useWorkbench((s) => s.info?.projectId ?? 'project')
  const restored = useRef(false)

  // A reload returns to the item this tab was working on; leaving the queue forgets it.
  const annotatorId = session?.role === 'annotator' ? (session.annotator?.id ?? null) : null
  useEffect(() => {
    if (annotatorId === null) return
    const key = lastItemKey(projectId, annotatorId)
    if (!restored.current) {
      restored.current = true
      const last = readLastItem(key)
      if (last && !open) return openQueue(last.instrument, last.assignmentId)
    }
    if (!open) clearLastItem(key)
  }, [annotatorId, projectId, open, openQueue])

  useEffect(() => {
    if (!notice) return
    const t = setTimeout(clearNotice, notice.tone === 'error' ? 10_000 : 4000)
    return () => clearTimeout(t)
  }, [notice, clearNotice])

  if (!session) return null
  return (
    <div className="annotate">
      {session.role !== 'annotator' ? (
        <>
          <WhoIsAnnotating />
          <AssignPanel />
        </>
      ) : open ? (
        // An item that cannot be drawn leaves a way back to the queues (a reload would reopen the same item).
        <ScreenBoundary screen={`queue:${open.instrument}`} leave={{ label: 'Back to the queues', run: closeQueue }}>
          <QueueRunner key={`${open.instrument}:${open.assignmentId ?? ''}`} instrument={open.instrument} startAt={open.assignmentId} />
        </ScreenBoundary>
      ) : (
        <QueueList />
      )}
      {notice && (
        <div className={`notice notice-${notice.tone}`} role="status" data-testid="notice">
          {notice.text}
        </div>
      )}
    </div>
  )
}
