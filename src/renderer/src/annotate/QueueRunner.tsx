import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { InstrumentId } from '../../../shared/instruments/types'
import { isAssayError } from '../../../shared/errors'
import { getInstrument } from '../../../shared/instruments'
import { api } from '../api'
import { dropBackup } from './draft-backup'
import { ItemCache } from './item-cache'
import { drawSlot, focusShown, SlotView, type Slot, type SlotActions } from './item-stack'
import { nextPending } from './queue-order'
import { countRows, QueueProgress, type Counts } from './queue-progress'
import { useAnnotate } from './store'
import { useSwapInput } from './use-swap-input'
import { QueueFinished } from './QueueFinished'
import type { Submission, SubmitFailure } from './submission'
import { CommitMark, setCommitStatus } from './commit-status'
import { afterPaint, nextPaint, whenIdle } from './after-paint'
import { viewTexts } from '../../../shared/markdown/view-texts'
import { markdownTree } from '../components/markdown-tree'
import { loadMarkdownParser } from '../components/markdown-parser'
import { useWorkbench } from '../store'
import { lastItemKey, writeLastItemAfterPaint } from './last-item'

type Row = OperationOutput<'queue.list'>['rows'][number]

/** Parses what an item will show while it waits in the queue, so showing it costs no Markdown parse. */
function prerender(item: BlindedItem): void {
  const form = getInstrument(item.instrument).form
  for (const t of viewTexts(item.view, form.widgets, form.rubric)) markdownTree(t.text, t.sourceOffset)
}

/** Records the item shown as the one a reload of this tab returns to (see last-item). */
function noteShown(item: BlindedItem): void {
  const { info, session } = useWorkbench.getState()
  writeLastItemAfterPaint(lastItemKey(info?.projectId ?? 'project', session?.annotator?.id ?? 0), { instrument: item.instrument, assignmentId: item.assignmentId })
}

/** How many pending items ahead of the current one are kept fetched (their blinded views). */
export const PREFETCH_AHEAD = 3

/**
 * Works through one queue: opens at the first pending item (or the one asked for), keeps the next items fetched
 * ahead (the next pending one built behind the one on screen), and moves on after a submission, skip or flag. A
 * submission shows the next item at once and is committed in the background, one at a time and in order; it is
 * marked saved only when main acknowledges it, and a refused commit brings the person back to that item with the
 * answer and main's message.
 */
export function QueueRunner({ instrument, startAt }: { instrument: InstrumentId; startAt: number | null }) {
  // Actions only: the queue does not re-render (nor the item with it) when a notice or the undo stack changes.
  const closeQueue = useAnnotate((s) => s.closeQueue)
  const openQueue = useAnnotate((s) => s.openQueue)
  const recordSubmission = useAnnotate((s) => s.recordSubmission)
  const takeSubmission = useAnnotate((s) => s.takeSubmission)
  const notify = useAnnotate((s) => s.notify)
  const cache = useMemo(() => new ItemCache(), [])
  // The queue's rows in order, changed in place, and the position last looked up: a submission touches one row and
  // the counts, and finds its row beside the last one, whatever the length of the queue.
  const rowsRef = useRef<Row[]>([])
  const lastAt = useRef(0)
  const [counts, setCounts] = useState<Counts | null>(null)
  const [slots, setSlots] = useState<ReadonlyArray<Slot>>([])
  // The stack as last set, read by handlers between renders.
  const slotsRef = useRef<ReadonlyArray<Slot>>([])
  const slotKey = useRef(0)
  const [loading, setLoading] = useState(false)
  const [finished, setFinished] = useState(false)
  const wanted = useRef<number | null>(null)
  const commits = useRef<Promise<void>>(Promise.resolve())
  const swapping = useRef(false)
  const stackRef = useRef<HTMLDivElement>(null)
  /** What waits for the item shown to become live (see settleSwap). */
  const onceLive = useRef<Array<() => void>>([])
  const [failure, setFailure] = useState<{ assignmentId: number; failure: SubmitFailure } | null>(null)
  const title = getInstrument(instrument).title

  const commitSlots = useCallback((next: ReadonlyArray<Slot>) => {
    slotsRef.current = next
    setSlots(next)
  }, [])

  /** `item` alone on the stack, newly built (anything held is dropped). */
  const showAlone = useCallback((item: BlindedItem) => commitSlots([{ key: ++slotKey.current, item, shown: true, live: true }]), [commitSlots])

  const updateRows = useCallback((next: Row[]) => {
    rowsRef.current = next
    setCounts(countRows(next))
  }, [])

  /** The row's position: moving through the queue, it is the last one looked up or one of the next few. */
  const indexOf = useCallback((assignmentId: number) => {
    const list = rowsRef.current
    for (let k = -1; k <= 8; k++) {
      const at = lastAt.current + k
      if (list[at]?.assignmentId === assignmentId) return (lastAt.current = at)
    }
    const at = list.findIndex((r) => r.assignmentId === assignmentId)
    if (at >= 0) lastAt.current = at
    return at
  }, [])

  /**
   * Builds `item` behind the live item `from`, if it is still what submitting `from` moves to. It runs in its own task
   * once `from` is painted (or when the item arrives, if later), not at an idle moment, which a fast typist's keys
   * put off past the next submission; and in one go: a render left to yield to keys would be restarted by each.
   */
  const hold = useCallback(
    (from: number, item: BlindedItem) => {
      const stack = slotsRef.current
      if (wanted.current !== from || stack.length !== 1 || stack[0]!.item.assignmentId !== from || !stack[0]!.live) return
      const list = rowsRef.current
      const next = nextPending(list, indexOf(from))
      if (next?.assignmentId !== item.assignmentId) return
      commitSlots([...stack, { key: ++slotKey.current, item, shown: false, live: false }])
    },
    [indexOf, commitSlots]
  )

  const prefetchAfter = useCallback(
    (assignmentId: number) => {
      const list = rowsRef.current
      const at = indexOf(assignmentId)
      if (at < 0) return
      // The next item in order (Alt+→) and the next few pending ones (what submitting moves to); nothing else is held.
      const ahead = new Set<number>()
      if (list[at + 1]) ahead.add(list[at + 1]!.assignmentId)
      let next: number | null = null
      for (let k = 1, found = 0; k < list.length && found < PREFETCH_AHEAD; k++) {
        const row = list[(at + k) % list.length]!
        if (row.status === 'pending' && row.assignmentId !== assignmentId) {
          ahead.add(row.assignmentId)
          next ??= row.assignmentId
          found++
        }
      }
      cache.retain(ahead)
      for (const id of ahead) {
        cache.prefetch(id)
        Promise.all([cache.load(id), loadMarkdownParser()]).then(
          ([item]) => (id === next ? hold(assignmentId, item) : whenIdle(() => prerender(item))),
          () => undefined
        )
      }
    },
    [cache, indexOf, hold]
  )

  /** A slot's root on the page (none before React has committed it). */
  const slotRoot = useCallback((slot: Slot | undefined) => (slot ? stackRef.current?.querySelector<HTMLElement>(`:scope > [data-slot="${slot.key}"]`) : null) ?? null, [])

  /** Makes the item shown live and the one left stop, if a swap is waiting for it (see Slot); the focus moves then. */
  const settleSwap = useCallback(() => {
    if (!swapping.current) return
    swapping.current = false
    // The focus first, so the item left, hidden from assistive technology since the swap, holds it no longer.
    const root = slotRoot(slotsRef.current.find((s) => s.shown))
    if (root) focusShown(root)
    const waiting = onceLive.current.splice(0)
    flushSync(() => {
      commitSlots(slotsRef.current.map((s) => (s.shown ? { ...s, live: true } : s.live ? { ...s, live: false, left: true } : s)))
      for (const run of waiting) run()
    })
  }, [commitSlots, slotRoot])

  const show = useCallback(
    (assignmentId: number) => {
      settleSwap()
      wanted.current = assignmentId
      setFinished(false)
      // Once the item is on screen: the one left is removed, and what comes next is fetched and built.
      const settle = () =>
        afterPaint(() => {
          if (wanted.current !== assignmentId) return
          if (slotsRef.current.some((s) => s.left)) commitSlots(slotsRef.current.filter((s) => !s.left))
          prefetchAfter(assignmentId)
        }, { idle: false })
      const held = slotsRef.current.find((s) => !s.shown && !s.left && s.item.assignmentId === assignmentId)
      if (held) {
        cache.forget(assignmentId)
        const drawn = slotsRef.current.find((s) => s.shown)
        const [from, to] = [slotRoot(drawn), slotRoot(held)]
        if (from && to) {
          // Drawn now, on the page; React follows once this frame is painted (settleSwap).
          drawSlot(from, false)
          drawSlot(to, true)
          // The page now shows it: a reload from here on returns to it, though React has not followed yet.
          noteShown(held.item)
          slotsRef.current = slotsRef.current.map((s) => (s === held ? { ...s, shown: true } : s === drawn ? { ...s, shown: false } : s))
          swapping.current = true
          afterPaint(settleSwap, { idle: false })
        } else {
          // Held but not rendered yet (the key came before React committed it): shown and live in one render.
          commitSlots(slotsRef.current.map((s) => (s === held ? { ...s, shown: true, live: true } : s.live ? { ...s, shown: false, live: false, left: true } : s)))
        }
        return settle()
      }
      const ready = cache.peek(assignmentId)
      const present = (item: BlindedItem) => {
        if (wanted.current !== assignmentId) return
        cache.forget(assignmentId)
        showAlone(item)
        setLoading(false)
        settle()
      }
      if (ready) return present(ready)
      setLoading(true)
      cache.load(assignmentId).then(present, (e: Error) => {
        setLoading(false)
        notify(e.message, 'error')
      })
    },
    [cache, prefetchAfter, notify, commitSlots, showAlone, slotRoot, settleSwap]
  )

  useEffect(() => {
    let live = true
    api['queue.list']({ instrument }).then(
      ({ rows: list }) => {
        if (!live) return
        updateRows(list)
        const first = (startAt !== null && list.find((r) => r.assignmentId === startAt)) || list.find((r) => r.status === 'pending')
        if (first) show(first.assignmentId)
        else setFinished(true)
      },
      (e: Error) => notify(e.message, 'error')
    )
    return () => {
      live = false
    }
  }, [instrument, startAt, show, updateRows, notify])

  /** Sets a row's status at once (what comes next is found from it); returns the change of the counts, to apply. */
  const markRow = (assignmentId: number, status: Row['status']): (() => void) => {
    const at = indexOf(assignmentId)
    const row = rowsRef.current[at]
    if (!row || row.status === status) return () => undefined
    rowsRef.current[at] = { ...row, status }
    return () =>
      setCounts((c) => {
        if (!c) return c
        const next = { ...c }
        if (row.status !== 'pending') next[row.status]--
        if (status !== 'pending') next[status]++
        return next
      })
  }
  const setRowStatus = (assignmentId: number, status: Row['status']) => markRow(assignmentId, status)()

  /**
   * Runs `fn` once the item shown is live, at once if no swap is waiting: moving onto an item built ahead, the
   * counts follow then, since changing them in the frame that shows it would lay out both items' bars again.
   */
  const whenLive = (fn: () => void) => {
    if (swapping.current) onceLive.current.push(fn)
    else fn()
  }

  const moveOnFrom = (assignmentId: number) => {
    const list = rowsRef.current
    const at = indexOf(assignmentId)
    const next = nextPending(list, at)
    if (next) show(next.assignmentId)
    else {
      settleSwap()
      wanted.current = null
      commitSlots([])
      setFinished(true)
    }
  }

  const step = (from: number, by: 1 | -1) => {
    const list = rowsRef.current
    const at = indexOf(from)
    const target = list[at + by]
    if (target) show(target.assignmentId)
    else notify(by === 1 ? 'This is the last item of the queue.' : 'This is the first item of the queue.')
  }

  /** Shows the next item now; commits `item`'s answer after those handed over before it. */
  const submitInBackground = (item: BlindedItem, s: Submission) => {
    const position = indexOf(item.assignmentId) + 1
    const recount = markRow(item.assignmentId, 'done')
    setFailure(null)
    moveOnFrom(item.assignmentId)
    whenLive(() => {
      recount()
      setCommitStatus({ assignmentId: item.assignmentId, position, state: 'saving' })
    })
    // The request leaves once the next item is painted: building and sending it would delay that frame.
    const painted = nextPaint()
    commits.current = commits.current.then(async () => {
      try {
        await painted
        await s.after
        const res = await api['annotations.submit']({ assignmentId: item.assignmentId, judgement: s.judgement, activeMs: s.activeMs })
        dropBackup(s.backupKey)
        recordSubmission({ annotationId: res.annotationId, assignmentId: item.assignmentId, instrument })
        setCommitStatus((c) => (c?.assignmentId === item.assignmentId ? { ...c, state: 'saved' } : c))
      } catch (e) {
        const message = (e as Error).message
        const issues = isAssayError(e) && e.details?.length ? e.details.map((d) => ({ path: d.field ?? '', message: d.message })) : []
        setRowStatus(item.assignmentId, 'pending')
        setCommitStatus({ assignmentId: item.assignmentId, position, state: 'failed' })
        setFailure({ assignmentId: item.assignmentId, failure: { message, issues, data: s.data, activeMs: s.activeMs } })
        notify(`Your answer to item ${position} was not saved (${message}); it is back on screen to submit again.`, 'error')
        // Back to that item as it was, without a round trip: main may be what failed.
        settleSwap()
        wanted.current = item.assignmentId
        setFinished(false)
        setLoading(false)
        showAlone(item)
      }
    })
  }

  const undo = useCallback(async () => {
    // An answer still on its way is committed before it can be withdrawn.
    await commits.current
    const last = takeSubmission()
    if (!last) return notify('Nothing submitted in this session to undo.')
    try {
      await api['annotations.undo']({ annotationId: last.annotationId })
      cache.forget(last.assignmentId)
      // "Saved" would now contradict the withdrawal beside it.
      setCommitStatus((c) => (c?.assignmentId === last.assignmentId ? null : c))
      notify('Your last submission was withdrawn; its answer is back as a draft.')
      if (last.instrument !== instrument) return openQueue(last.instrument, last.assignmentId)
      setRowStatus(last.assignmentId, 'pending')
      show(last.assignmentId)
    } catch (e) {
      notify(`Undo failed: ${(e as Error).message}`, 'error')
    }
  }, [takeSubmission, notify, cache, instrument, openQueue, show])

  useSwapInput(swapping, settleSwap)

  const undoNow = useCallback(() => void undo(), [undo])
  const reviewLast = useCallback(() => {
    const last = rowsRef.current[rowsRef.current.length - 1]
    if (last) show(last.assignmentId)
  }, [show])

  const done = counts?.done ?? 0
  const total = counts?.total ?? 0
  const progress = useMemo(() => ({ done, total }), [done, total])

  // The latest handlers behind one object that never changes (see SlotActions).
  const latest = useRef<SlotActions | null>(null)
  latest.current = {
    navigate: (item, by) => step(item.assignmentId, by),
    submit: submitInBackground,
    status: (item, status) => {
      const recount = markRow(item.assignmentId, status)
      if (status === 'pending') show(item.assignmentId)
      else moveOnFrom(item.assignmentId)
      whenLive(recount)
    },
    undo: () => void undo(),
    exit: closeQueue
  }
  const actions = useMemo<SlotActions>(
    () => ({
      navigate: (item, by) => latest.current!.navigate(item, by),
      submit: (item, s) => latest.current!.submit(item, s),
      status: (item, status) => latest.current!.status(item, status),
      undo: () => latest.current!.undo(),
      exit: () => latest.current!.exit()
    }),
    []
  )

  if (finished) return <QueueFinished title={title} counts={counts} onUndo={undoNow} onClose={closeQueue} onReviewLast={reviewLast} />
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
