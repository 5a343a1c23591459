import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import type { CommitStatus, Submission, SubmitFailure } from './submission'
import { countRows, nextPendingRow, positionOf, rowAt, toRows, withRow, type Counts, type Row, type Rows } from './queue-rows'

// The annotation queue as pure transitions: `reduceQueue(state, event)` returns the next state and what is to be done
// (effects, as data), which use-queue carries out on the page, the cache and main. Nothing here touches the DOM.

/** How many pending items ahead of the current one are kept fetched (their blinded views). */
export const PREFETCH_AHEAD = 3

/**
 * An item on the runner's stack: the one on screen, the next pending one built and painted behind it (held), or the
 * one just left, removed once its successor is painted. Submitting onto a held item shows it in two steps: on the
 * key, only which one is drawn changes, on the page itself (the `drawSwap` effect, with `swap` set and the slots
 * unchanged), with no render; then, once that frame is painted or at the next key, click or typed text if sooner
 * (`settle`), the focus moves into the item shown and React follows: that item becomes `live` (its keys, clock and
 * drafts), the one left stops, and the counts and the commit mark move on.
 */
export interface Slot {
  key: number
  item: BlindedItem
  shown: boolean
  live: boolean
  left?: true
}

/** What the runner renders: handed to React by a `render` effect, only when one of these changes. */
export interface QueueView {
  slots: ReadonlyArray<Slot>
  counts: Counts | null
  loading: boolean
  finished: boolean
  failure: { assignmentId: number; failure: SubmitFailure } | null
}

type Status = Row['status']

/** Work put off until the item shown is live (see Slot): a change of the counts, or an effect. */
type Later = { type: 'recount'; was: Status; now: Status } | { type: 'effect'; effect: QueueEffect }

export interface QueueState {
  readonly rows: Rows
  /** The position last looked up: a submission finds its row beside it. */
  readonly at: number
  readonly counts: Counts | null
  readonly slots: ReadonlyArray<Slot>
  readonly lastKey: number
  /** The slots React has committed to the page. */
  readonly onPage: ReadonlyArray<number>
  /** The item being opened or shown. */
  readonly wanted: number | null
  /** A swap drawn on the page that React has not followed yet (slot keys). */
  readonly swap: { from: number; to: number } | null
  readonly onceLive: ReadonlyArray<Later>
  readonly loading: boolean
  readonly finished: boolean
  readonly failure: QueueView['failure']
  /** The answers handed to main and not yet acknowledged, in the order they are committed. */
  readonly committing: ReadonlyArray<number>
  /** The view last handed to React. */
  readonly view: QueueView
}

export type QueueEvent =
  | { type: 'listed'; rows: ReadonlyArray<Row>; startAt: number | null }
  /** An item asked for by `load` has arrived. */
  | { type: 'arrived'; item: BlindedItem }
  | { type: 'loadFailed'; assignmentId: number; message: string }
  /** An item asked for by `prefetch` as the next pending one after `from` is fetched and ready to build. */
  | { type: 'built'; from: number; item: BlindedItem }
  | { type: 'onPage'; keys: ReadonlyArray<number> }
  /** The frame showing a swap is painted, or input came before it was. */
  | { type: 'settle' }
  /** The frame showing `assignmentId` is painted. */
  | { type: 'painted'; assignmentId: number }
  | { type: 'submit'; item: BlindedItem; submission: Submission }
  | { type: 'status'; item: BlindedItem; status: 'pending' | 'skipped' | 'flagged' }
  | { type: 'navigate'; item: BlindedItem; by: 1 | -1 }
  | { type: 'committed'; assignmentId: number }
  | { type: 'refused'; item: BlindedItem; position: number; failure: SubmitFailure }
  /** A submission was withdrawn: its item is pending again and reopens. */
  | { type: 'reopen'; assignmentId: number }
  | { type: 'reviewLast' }

export type QueueEffect =
  /** Fetch the item (from the cache at once if it is there) and report `arrived` or `loadFailed`. */
  | { type: 'load'; assignmentId: number }
  | { type: 'forget'; assignmentId: number }
  /** Keep these items fetched and no others; `next` is reported `built`, the rest parsed when the page is idle. */
  | { type: 'prefetch'; from: number; ids: ReadonlyArray<number>; next: number | null }
  /** On the page, ahead of React: slot `from` is drawn held, slot `to` shown. */
  | { type: 'drawSwap'; from: number; to: number }
  /** Report `event` once the next frame has been painted. */
  | { type: 'afterPaint'; event: QueueEvent }
  | { type: 'focus'; slot: number }
  /** Hand React the view; `sync`: at once, with the effects of `with` in the same render. */
  | { type: 'render'; view: QueueView; sync: boolean; with?: ReadonlyArray<QueueEffect> }
  /** Record the item as the one a reload returns to. */
  | { type: 'noteShown'; item: BlindedItem }
  /** Commit the answer after those handed over before it (once the next item is painted); report the outcome. */
  | { type: 'commit'; item: BlindedItem; submission: Submission; position: number }
  | { type: 'commitStatus'; status: CommitStatus }
  | { type: 'commitSaved'; assignmentId: number }
  | { type: 'notify'; text: string; tone?: 'error' }

export function viewOf(s: Pick<QueueState, keyof QueueView>): QueueView {
  return { slots: s.slots, counts: s.counts, loading: s.loading, finished: s.finished, failure: s.failure }
}

export function initialQueue(): QueueState {
  const s = { rows: toRows([]), at: 0, counts: null, slots: [], lastKey: 0, onPage: [], wanted: null, swap: null, onceLive: [], loading: false, finished: false, failure: null, committing: [] }
  return { ...s, view: viewOf(s) }
}

type Draft = { -readonly [K in keyof QueueState]: QueueState[K] }

/**
 * One step of the queue. The state given is never changed: the step works on a shallow copy whose fields it replaces,
 * and hands React the view at the end if it has changed.
 */
export function reduceQueue(state: QueueState, event: QueueEvent): { state: QueueState; effects: QueueEffect[] } {
  const d: Draft = { ...state }
  const fx: QueueEffect[] = []
  apply(d, fx, event)
  render(d, fx)
  return { state: d, effects: fx }
}

function apply(d: Draft, fx: QueueEffect[], e: QueueEvent): void {
  switch (e.type) {
    case 'listed': {
      d.rows = toRows(e.rows)
      d.at = 0
      d.counts = countRows(e.rows)
      const first = (e.startAt !== null && e.rows.find((r) => r.assignmentId === e.startAt)) || e.rows.find((r) => r.status === 'pending')
      if (first) show(d, fx, first.assignmentId)
      else d.finished = true
      return
    }
    case 'arrived': {
      const id = e.item.assignmentId
      // A late answer for an item no longer wanted.
      if (d.wanted !== id) return
      fx.push({ type: 'forget', assignmentId: id })
      showAlone(d, e.item)
      d.loading = false
      fx.push({ type: 'afterPaint', event: { type: 'painted', assignmentId: id } })
      return
    }
    case 'loadFailed':
      d.loading = false
      fx.push({ type: 'notify', text: e.message, tone: 'error' })
      return
    case 'built':
      return hold(d, e.from, e.item)
    case 'onPage':
      d.onPage = e.keys
      return
    case 'settle':
      return settle(d, fx)
    case 'painted':
      // Once the item is on screen: the one left is removed, and what comes next is fetched and built.
      if (d.wanted !== e.assignmentId) return
      if (d.slots.some((s) => s.left)) d.slots = d.slots.filter((s) => !s.left)
      return prefetchAfter(d, fx, e.assignmentId)
    case 'submit':
      return submit(d, fx, e.item, e.submission)
    case 'status': {
      const change = markRow(d, e.item.assignmentId, e.status)
      if (e.status === 'pending') show(d, fx, e.item.assignmentId)
      else moveOnFrom(d, fx, e.item.assignmentId)
      return whenLive(d, change, [], fx)
    }
    case 'navigate': {
      const target = rowAt(d.rows, locate(d, e.item.assignmentId) + e.by)
      if (target) show(d, fx, target.assignmentId)
      else fx.push({ type: 'notify', text: e.by === 1 ? 'This is the last item of the queue.' : 'This is the first item of the queue.' })
      return
    }
    case 'committed':
      d.committing = withoutFirst(d.committing, e.assignmentId)
      fx.push({ type: 'commitSaved', assignmentId: e.assignmentId })
      return
    case 'refused':
      return refused(d, fx, e.item, e.position, e.failure)
    case 'reopen':
      recount(d, markRow(d, e.assignmentId, 'pending'))
      return show(d, fx, e.assignmentId)
    case 'reviewLast': {
      const last = rowAt(d.rows, d.rows.length - 1)
      if (last) show(d, fx, last.assignmentId)
      return
    }
  }
}

/** Hands React the view if it has changed since the last render effect; `sync` renders it at once with `withFx`. */
function render(d: Draft, fx: QueueEffect[], sync = false, withFx: QueueEffect[] = []): void {
  const v = d.view
  if (v.slots === d.slots && v.counts === d.counts && v.loading === d.loading && v.finished === d.finished && v.failure === d.failure) {
    fx.push(...withFx)
    return
  }
  d.view = viewOf(d)
  fx.push(sync ? { type: 'render', view: d.view, sync, with: withFx } : { type: 'render', view: d.view, sync })
}

function locate(d: Draft, assignmentId: number): number {
  const at = positionOf(d.rows, assignmentId, d.at)
  if (at >= 0) d.at = at
  return at
}

/** Sets a row's status at once (what comes next is found from it); returns the change of the counts, to apply. */
function markRow(d: Draft, assignmentId: number, status: Status): Later | null {
  const at = locate(d, assignmentId)
  const row = rowAt(d.rows, at)
  if (!row || row.status === status) return null
  d.rows = withRow(d.rows, at, { ...row, status })
  return { type: 'recount', was: row.status, now: status }
}

function recount(d: Draft, change: Later | null): void {
  if (change?.type !== 'recount' || !d.counts) return
  const next = { ...d.counts }
  if (change.was !== 'pending') next[change.was]--
  if (change.now !== 'pending') next[change.now]++
  d.counts = next
}

/**
 * Applies a change of the counts and effects once the item shown is live, at once if no swap is waiting: moving onto
 * an item built ahead, the counts follow then, since changing them in the frame that shows it would lay out both
 * items' bars again.
 */
function whenLive(d: Draft, change: Later | null, effects: QueueEffect[], fx: QueueEffect[]): void {
  const later: Later[] = change ? [change] : []
  for (const effect of effects) later.push({ type: 'effect', effect })
  if (d.swap) d.onceLive = [...d.onceLive, ...later]
  else
    for (const l of later) {
      if (l.type === 'recount') recount(d, l)
      else fx.push(l.effect)
    }
}

/** Makes the item shown live and the one left stop, if a swap is waiting for it; the focus moves then. */
function settle(d: Draft, fx: QueueEffect[]): void {
  if (!d.swap) return
  const { from, to } = d.swap
  d.swap = null
  // The focus first, so the item left, hidden from assistive technology since the swap, holds it no longer.
  fx.push({ type: 'focus', slot: to })
  d.slots = d.slots.map((s) => (s.key === to ? { ...s, shown: true, live: true } : s.key === from ? { ...s, shown: false, live: false, left: true } : s))
  const withFx: QueueEffect[] = []
  for (const l of d.onceLive) {
    if (l.type === 'recount') recount(d, l)
    else withFx.push(l.effect)
  }
  d.onceLive = []
  render(d, fx, true, withFx)
}

/** `item` alone on the stack, newly built (anything held is dropped). */
function showAlone(d: Draft, item: BlindedItem): void {
  d.slots = [{ key: ++d.lastKey, item, shown: true, live: true }]
}

function show(d: Draft, fx: QueueEffect[], assignmentId: number): void {
  settle(d, fx)
  d.wanted = assignmentId
  d.finished = false
  const held = d.slots.find((s) => !s.shown && !s.left && s.item.assignmentId === assignmentId)
  if (!held) {
    d.loading = true
    fx.push({ type: 'load', assignmentId })
    return
  }
  fx.push({ type: 'forget', assignmentId })
  const drawn = d.slots.find((s) => s.shown)
  if (drawn && d.onPage.includes(drawn.key) && d.onPage.includes(held.key)) {
    // Drawn now, on the page; React follows once this frame is painted (settle). The page now shows it: a reload
    // from here on returns to it, though React has not followed yet.
    fx.push({ type: 'drawSwap', from: drawn.key, to: held.key }, { type: 'noteShown', item: held.item })
    d.swap = { from: drawn.key, to: held.key }
    fx.push({ type: 'afterPaint', event: { type: 'settle' } })
  } else {
    // Held but not on the page yet (the key came before React committed it): shown and live in one render.
    d.slots = d.slots.map((s) => (s === held ? { ...s, shown: true, live: true } : s.live ? { ...s, shown: false, live: false, left: true } : s))
  }
  fx.push({ type: 'afterPaint', event: { type: 'painted', assignmentId } })
}

function moveOnFrom(d: Draft, fx: QueueEffect[], assignmentId: number): void {
  const next = nextPendingRow(d.rows, locate(d, assignmentId))
  if (next) return show(d, fx, next.assignmentId)
  settle(d, fx)
  d.wanted = null
  d.slots = []
  d.finished = true
}

/**
 * Builds `item` behind the live item `from`, if it is still what submitting `from` moves to (use-queue reports it
 * once `from` is painted, or when the item arrives, if later).
 */
function hold(d: Draft, from: number, item: BlindedItem): void {
  const only = d.slots.length === 1 ? d.slots[0]! : null
  if (d.wanted !== from || only?.item.assignmentId !== from || !only.live) return
  if (nextPendingRow(d.rows, locate(d, from))?.assignmentId !== item.assignmentId) return
  d.slots = [...d.slots, { key: ++d.lastKey, item, shown: false, live: false }]
}

function prefetchAfter(d: Draft, fx: QueueEffect[], assignmentId: number): void {
  const at = locate(d, assignmentId)
  if (at < 0) return
  // The next item in order (Alt+→) and the next few pending ones (what submitting moves to); nothing else is held.
  const ahead = new Set<number>()
  const after = rowAt(d.rows, at + 1)
  if (after) ahead.add(after.assignmentId)
  let next: number | null = null
  for (let k = 1, found = 0; k < d.rows.length && found < PREFETCH_AHEAD; k++) {
    const row = rowAt(d.rows, (at + k) % d.rows.length)!
    if (row.status === 'pending' && row.assignmentId !== assignmentId) {
      ahead.add(row.assignmentId)
      next ??= row.assignmentId
      found++
    }
  }
  fx.push({ type: 'prefetch', from: assignmentId, ids: [...ahead], next })
}

/** Shows the next item now; `item`'s answer is committed after those handed over before it. */
function submit(d: Draft, fx: QueueEffect[], item: BlindedItem, submission: Submission): void {
  const id = item.assignmentId
  const position = locate(d, id) + 1
  const change = markRow(d, id, 'done')
  d.failure = null
  moveOnFrom(d, fx, id)
  whenLive(d, change, [{ type: 'commitStatus', status: { assignmentId: id, position, state: 'saving' } }], fx)
  d.committing = [...d.committing, id]
  fx.push({ type: 'commit', item, submission, position })
}

/** Back to the refused item as it was, with its answer and main's message, without a round trip: main may be what failed. */
function refused(d: Draft, fx: QueueEffect[], item: BlindedItem, position: number, failure: SubmitFailure): void {
  const id = item.assignmentId
  d.committing = withoutFirst(d.committing, id)
  recount(d, markRow(d, id, 'pending'))
  fx.push({ type: 'commitStatus', status: { assignmentId: id, position, state: 'failed' } })
  d.failure = { assignmentId: id, failure }
  fx.push({ type: 'notify', text: `Your answer to item ${position} was not saved (${failure.message}); it is back on screen to submit again.`, tone: 'error' })
  settle(d, fx)
  d.wanted = id
  d.finished = false
  d.loading = false
  showAlone(d, item)
}

function withoutFirst(list: ReadonlyArray<number>, id: number): ReadonlyArray<number> {
  const at = list.indexOf(id)
  return at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)]
}
