import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import type { InstrumentId } from '../../../shared/instruments/types'
import { isAssayError } from '../../../shared/errors'
import { getInstrument } from '../../../shared/instruments'
import { viewTexts } from '../../../shared/markdown/view-texts'
import { api } from '../api'
import { markdownTree } from '../components/markdown-tree'
import { loadMarkdownParser } from '../components/markdown-parser'
import { useWorkbench } from '../workbench-state'
import { afterPaint, nextPaint, whenIdle } from './after-paint'
import { setCommitStatus } from './commit-status'
import { dropBackup } from './draft-backup'
import { ItemCache } from './item-cache'
import { drawSlot, focusShown, type SlotActions } from './item-stack'
import { lastItemKey, writeLastItemAfterPaint } from './last-item'
import { initialQueue, reduceQueue, type QueueEffect, type QueueEvent, type QueueView } from './queue-machine'
import { useAnnotate } from './annotate-state'
import { useSwapInput } from './use-swap-input'

// The edge of the queue's state machine (queue-machine): events go in, and the effects that come out are carried out
// here, on the page, the item cache and main.

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

export interface Queue {
  view: QueueView
  /** What an item's workspace calls back; one object for the runner's life. */
  actions: SlotActions
  undo(): void
  reviewLast(): void
}

/**
 * Runs one queue's machine: its state lives in a ref, read by handlers between renders, and React is handed the view
 * only when a `render` effect says so (a swap onto a held item is drawn with none). Events raised while effects are
 * being carried out wait their turn, so each transition starts from the state the one before left.
 */
export function useQueue(instrument: InstrumentId, startAt: number | null, stackRef: RefObject<HTMLDivElement | null>): Queue {
  const closeQueue = useAnnotate((s) => s.closeQueue)
  const openQueue = useAnnotate((s) => s.openQueue)
  const recordSubmission = useAnnotate((s) => s.recordSubmission)
  const takeSubmission = useAnnotate((s) => s.takeSubmission)
  const notify = useAnnotate((s) => s.notify)
  const cache = useMemo(() => new ItemCache(), [])
  const state = useRef(initialQueue())
  const [view, setView] = useState<QueueView>(state.current.view)
  const commits = useRef<Promise<void>>(Promise.resolve())
  const env = useRef({ instrument, notify, recordSubmission })
  env.current = { instrument, notify, recordSubmission }

  const dispatch = useMemo(() => {
    const waiting: QueueEvent[] = []
    let busy = false
    /** A slot's root on the page (none before React has committed it). */
    const slotRoot = (key: number) => stackRef.current?.querySelector<HTMLElement>(`:scope > [data-slot="${key}"]`) ?? null

    const commit = ({ item, submission: s, position }: Extract<QueueEffect, { type: 'commit' }>) => {
      // The request leaves once the next item is painted: building and sending it would delay that frame.
      const painted = nextPaint()
      commits.current = commits.current.then(async () => {
        try {
          await painted
          await s.after
          const res = await api['annotations.submit']({ assignmentId: item.assignmentId, judgement: s.judgement, activeMs: s.activeMs })
          dropBackup(s.backupKey)
          env.current.recordSubmission({ annotationId: res.annotationId, assignmentId: item.assignmentId, instrument: env.current.instrument })
          dispatch({ type: 'committed', assignmentId: item.assignmentId })
        } catch (e) {
          const message = (e as Error).message
          const issues = isAssayError(e) && e.details?.length ? e.details.map((d) => ({ path: d.field ?? '', message: d.message })) : []
          dispatch({ type: 'refused', item, position, failure: { message, issues, data: s.data, activeMs: s.activeMs } })
        }
      })
    }

    const run = (effect: QueueEffect): void => {
      switch (effect.type) {
        case 'load': {
          const id = effect.assignmentId
          const ready = cache.peek(id)
          if (ready) return dispatch({ type: 'arrived', item: ready })
          cache.load(id).then(
            (item) => dispatch({ type: 'arrived', item }),
            (e: Error) => dispatch({ type: 'loadFailed', assignmentId: id, message: e.message })
          )
          return
        }
        case 'forget':
          return cache.forget(effect.assignmentId)
        case 'prefetch': {
          const { from, next } = effect
          cache.retain(new Set(effect.ids))
          for (const id of effect.ids) {
            cache.prefetch(id)
            // The next pending item is built behind the one on screen, in its own task once that one is painted (or
            // when it arrives, if later), not at an idle moment, which a fast typist's keys put off past the next
            // submission; the others are parsed when the page is idle.
            Promise.all([cache.load(id), loadMarkdownParser()]).then(
              ([item]) => (id === next ? dispatch({ type: 'built', from, item }) : whenIdle(() => prerender(item))),
              () => undefined
            )
          }
          return
        }
        case 'drawSwap': {
          const [from, to] = [slotRoot(effect.from), slotRoot(effect.to)]
          if (from) drawSlot(from, false)
          if (to) drawSlot(to, true)
          return
        }
        case 'afterPaint': {
          const event = effect.event
          return afterPaint(() => dispatch(event), { idle: false })
        }
        case 'focus': {
          const root = slotRoot(effect.slot)
          if (root) focusShown(root)
          return
        }
        case 'render':
          if (!effect.sync) return setView(effect.view)
          return flushSync(() => {
            setView(effect.view)
            for (const e of effect.with ?? []) run(e)
          })
        case 'noteShown':
          return noteShown(effect.item)
        case 'commit':
          return commit(effect)
        case 'commitStatus':
          return setCommitStatus(effect.status)
        case 'commitSaved': {
          const id = effect.assignmentId
          return setCommitStatus((c) => (c?.assignmentId === id ? { ...c, state: 'saved' } : c))
        }
        case 'notify':
          return env.current.notify(effect.text, effect.tone)
      }
    }

    const dispatch = (event: QueueEvent): void => {
      waiting.push(event)
      if (busy) return
      busy = true
      try {
        for (let e = waiting.shift(); e; e = waiting.shift()) {
          const out = reduceQueue(state.current, e)
          state.current = out.state
          for (const effect of out.effects) run(effect)
        }
      } finally {
        busy = false
        waiting.length = 0
      }
    }
    return dispatch
  }, [cache, stackRef])

  // A mark about another queue's item would read as this queue's: it goes when the queue changes, unless it says an
  // answer was not saved, which must stay in view until it is dealt with.
  useEffect(() => {
    setCommitStatus((c) => (c && c.state !== 'failed' ? null : c))
  }, [instrument])

  useEffect(() => {
    let live = true
    api['queue.list']({ instrument }).then(
      ({ rows }) => {
        if (live) dispatch({ type: 'listed', rows, startAt })
      },
      (e: Error) => notify(e.message, 'error')
    )
    return () => {
      live = false
    }
  }, [instrument, startAt, dispatch, notify])

  // Which slots are on the page: a swap is drawn there only between slots React has committed.
  useLayoutEffect(() => {
    const keys = stackRef.current ? Array.from(stackRef.current.children, (el) => Number((el as HTMLElement).dataset.slot)) : []
    const had = state.current.onPage
    if (keys.length !== had.length || keys.some((k, i) => k !== had[i])) dispatch({ type: 'onPage', keys })
  }, [view, dispatch, stackRef])

  const isSwapping = useCallback(() => state.current.swap !== null, [])
  const settle = useCallback(() => dispatch({ type: 'settle' }), [dispatch])
  useSwapInput(isSwapping, settle)

  const undo = useCallback(async () => {
    // An answer still on its way is committed before it can be withdrawn.
    await commits.current
    const last = takeSubmission()
    if (!last) return notify('Nothing submitted in this session to undo.')
    try {
      const { restored } = await api['annotations.undo']({ annotationId: last.annotationId })
      cache.forget(last.assignmentId)
      // "Saved" would now contradict the withdrawal beside it.
      setCommitStatus((c) => (c?.assignmentId === last.assignmentId ? null : c))
      notify(restored ? 'Your last correction was withdrawn; the answer before it stands again.' : 'Your last submission was withdrawn; its answer is back as a draft.')
      if (last.instrument !== instrument) return openQueue(last.instrument, last.assignmentId)
      dispatch({ type: 'reopen', assignmentId: last.assignmentId })
    } catch (e) {
      notify(`Undo failed: ${(e as Error).message}`, 'error')
    }
  }, [takeSubmission, notify, cache, instrument, openQueue, dispatch])
  const latestUndo = useRef(undo)
  latestUndo.current = undo

  const actions = useMemo<SlotActions>(
    () => ({
      navigate: (item, by) => dispatch({ type: 'navigate', item, by }),
      submit: (item, submission) => dispatch({ type: 'submit', item, submission }),
      status: (item, status) => dispatch({ type: 'status', item, status }),
      undo: () => void latestUndo.current(),
      exit: () => closeQueue()
    }),
    [dispatch, closeQueue]
  )
  const undoNow = useCallback(() => void latestUndo.current(), [])
  const reviewLast = useCallback(() => dispatch({ type: 'reviewLast' }), [dispatch])
  return { view, actions, undo: undoNow, reviewLast }
}
