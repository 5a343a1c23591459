import { describe, expect, it } from 'vitest'
import type { BlindedItem } from '../../../src/shared/contract/annotation-schemas'
import { initialQueue, reduceQueue, type QueueEffect, type QueueEvent, type QueueState } from '../../../src/renderer/src/annotate/queue-machine'
import type { Row } from '../../../src/renderer/src/annotate/queue-rows'
import type { Submission } from '../../../src/renderer/src/annotate/submission'

// The annotation queue's transitions, run without a page: each step's effects are what use-queue would carry out.

const item = (assignmentId: number): BlindedItem => ({
  assignmentId,
  instrument: 'idea-review',
  instrumentVersion: 1,
  index: assignmentId,
  total: 0,
  status: 'pending',
  statusReason: null,
  view: {},
  draft: null,
  answer: null
})

const rows = (statuses: ReadonlyArray<Row['status']>): Row[] => statuses.map((status, i) => ({ assignmentId: i + 1, index: i, status }))

const submission = (): Submission => ({ judgement: { score: 1 }, data: { score: 1 }, activeMs: 1200, backupKey: 'k', after: Promise.resolve() })

/** Frozen all the way down (items aside), so a transition that changed the state it was given would throw. */
function freeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x)
    for (const v of Object.values(x)) freeze(v)
  }
  return x
}

class Run {
  state: QueueState = freeze(initialQueue())
  effects: QueueEffect[] = []

  send(...events: QueueEvent[]): QueueEffect[] {
    this.effects = []
    for (const e of events) {
      const out = reduceQueue(this.state, e)
      this.state = freeze(out.state)
      this.effects.push(...out.effects)
    }
    return this.effects
  }

  /** The slots React has, as the page would report them after the last render. */
  committed(): QueueEffect[] {
    return this.send({ type: 'onPage', keys: this.state.view.slots.map((s) => s.key) })
  }

  /** Opens the queue and shows its first item, painted, with the next pending one built behind it and on the page. */
  open(statuses: ReadonlyArray<Row['status']>, startAt: number | null = null): this {
    this.send({ type: 'listed', rows: rows(statuses), startAt })
    const load = this.effects.find((e) => e.type === 'load')
    if (!load) return this
    this.send({ type: 'arrived', item: item(load.assignmentId) })
    this.committed()
    this.send({ type: 'painted', assignmentId: load.assignmentId })
    const prefetch = this.effects.find((e) => e.type === 'prefetch')
    if (prefetch?.next != null) this.send({ type: 'built', from: load.assignmentId, item: item(prefetch.next) })
    this.committed()
    return this
  }

  get shown(): number | undefined {
    const { swap, slots } = this.state
    return (swap ? slots.find((s) => s.key === swap.to) : slots.find((s) => s.shown))?.item.assignmentId
  }

  status(assignmentId: number): Row['status'] | undefined {
    for (const chunk of this.state.rows.chunks) for (const r of chunk) if (r.assignmentId === assignmentId) return r.status
    return undefined
  }
}

const types = (fx: ReadonlyArray<QueueEffect>) => fx.map((e) => e.type)

describe("the annotation queue's transitions", () => {
  it('opens at the item asked for, or else at the first pending one, or finished when none is pending', () => {
    const asked = new Run()
    expect(asked.send({ type: 'listed', rows: rows(['done', 'pending', 'done', 'pending']), startAt: 3 })).toContainEqual({ type: 'load', assignmentId: 3 })
    expect(asked.state.view.loading).toBe(true)
    expect(asked.state.view.counts).toEqual({ total: 4, done: 2, skipped: 0, flagged: 0 })

    const first = new Run()
    expect(first.send({ type: 'listed', rows: rows(['done', 'skipped', 'pending']), startAt: 99 })).toContainEqual({ type: 'load', assignmentId: 3 })
    first.send({ type: 'arrived', item: item(3) })
    expect(first.state.view.slots).toEqual([{ key: 1, item: item(3), shown: true, live: true }])
    expect(first.state.view.loading).toBe(false)
    expect(first.effects).toContainEqual({ type: 'forget', assignmentId: 3 })
    expect(first.effects).toContainEqual({ type: 'afterPaint', event: { type: 'painted', assignmentId: 3 } })

    const none = new Run()
    expect(types(none.send({ type: 'listed', rows: rows(['done', 'flagged']), startAt: null }))).toEqual(['render'])
    expect(none.state.view.finished).toBe(true)
  })

  it('ignores an item that arrives after another was asked for, and a built one no longer next', () => {
    const run = new Run()
    run.send({ type: 'listed', rows: rows(['pending', 'pending', 'pending']), startAt: null })
    run.send({ type: 'navigate', item: item(1), by: 1 })
    expect(run.effects).toContainEqual({ type: 'load', assignmentId: 2 })
    const before = run.state
    expect(run.send({ type: 'arrived', item: item(1) })).toEqual([])
    expect(run.state).toEqual(before)
    run.send({ type: 'arrived', item: item(2) })
    expect(run.shown).toBe(2)
    // Item 3 is what submitting 2 moves to; built for 1, or built as 1, it is not held.
    run.send({ type: 'built', from: 1, item: item(3) }, { type: 'built', from: 2, item: item(1) })
    expect(run.state.slots).toHaveLength(1)
    run.send({ type: 'built', from: 2, item: item(3) })
    expect(run.state.slots.map((s) => [s.item.assignmentId, s.shown, s.live])).toEqual([
      [2, true, true],
      [3, false, false]
    ])
  })

  it('once an item is painted, keeps the next in order and the next pending ones fetched, and drops the item left', () => {
    const run = new Run().open(['pending', 'done', 'pending', 'pending', 'pending', 'pending'])
    const painted = run.send({ type: 'painted', assignmentId: 1 })
    expect(painted).toEqual([{ type: 'prefetch', from: 1, ids: [2, 3, 4, 5], next: 3 }])
    expect(new Run().open(['pending', 'pending']).send({ type: 'painted', assignmentId: 2 })).toEqual([])
  })

  it('submitting onto the item built behind swaps them on the page first, and React follows once it is painted', () => {
    const run = new Run().open(['pending', 'pending', 'pending'])
    const [drawn, held] = run.state.slots
    const s = submission()
    const fx = run.send({ type: 'submit', item: item(1), submission: s })
    // No render: which one is drawn changes on the page, the counts and the commit mark wait for the swap to settle.
    expect(fx).toEqual([
      { type: 'forget', assignmentId: 2 },
      { type: 'drawSwap', from: drawn!.key, to: held!.key },
      { type: 'noteShown', item: item(2) },
      { type: 'afterPaint', event: { type: 'settle' } },
      { type: 'afterPaint', event: { type: 'painted', assignmentId: 2 } },
      { type: 'commit', item: item(1), submission: s, position: 1 }
    ])
    expect(run.shown).toBe(2)
    expect(run.status(1)).toBe('done')
    expect(run.state.view.counts?.done).toBe(0)
    expect(run.state.committing).toEqual([1])

    const settled = run.send({ type: 'settle' })
    expect(settled[0]).toEqual({ type: 'focus', slot: held!.key })
    expect(settled[1]).toMatchObject({ type: 'render', sync: true, with: [{ type: 'commitStatus', status: { assignmentId: 1, position: 1, state: 'saving' } }] })
    expect(settled).toHaveLength(2)
    expect(run.state.view.counts?.done).toBe(1)
    expect(run.state.view.slots.map((s) => [s.item.assignmentId, s.shown, s.live, s.left ?? false])).toEqual([
      [1, false, false, true],
      [2, true, true, false]
    ])
    // Settled already (by a key): the settle after the paint does nothing.
    expect(run.send({ type: 'settle' })).toEqual([])
    run.send({ type: 'painted', assignmentId: 2 })
    expect(run.state.view.slots.map((s) => s.item.assignmentId)).toEqual([2])
    expect(run.effects).toContainEqual({ type: 'prefetch', from: 2, ids: [3], next: 3 })

    run.send({ type: 'committed', assignmentId: 1 })
    expect(run.effects).toEqual([{ type: 'commitSaved', assignmentId: 1 }])
    expect(run.state.committing).toEqual([])
  })

  it('a key that comes before React has committed the held item shows it and makes it live in one render', () => {
    const run = new Run()
    run.send({ type: 'listed', rows: rows(['pending', 'pending', 'pending']), startAt: null }, { type: 'arrived', item: item(1) })
    run.committed()
    run.send({ type: 'painted', assignmentId: 1 }, { type: 'built', from: 1, item: item(2) })
    // Not committed: the page has only item 1.
    const fx = run.send({ type: 'submit', item: item(1), submission: submission() })
    expect(types(fx)).not.toContain('drawSwap')
    expect(run.state.swap).toBeNull()
    expect(run.state.view.slots.map((s) => [s.item.assignmentId, s.shown, s.live, s.left ?? false])).toEqual([
      [1, false, false, true],
      [2, true, true, false]
    ])
    expect(run.state.view.counts?.done).toBe(1)
    expect(fx).toContainEqual({ type: 'commitStatus', status: { assignmentId: 1, position: 1, state: 'saving' } })
    expect(types(fx).filter((t) => t === 'render')).toHaveLength(1)
  })

  it('submitting with nothing built fetches the next pending item, wrapping round the queue', () => {
    const run = new Run()
    run.send({ type: 'listed', rows: rows(['pending', 'done', 'pending']), startAt: 3 }, { type: 'arrived', item: item(3) })
    run.committed()
    const fx = run.send({ type: 'submit', item: item(3), submission: submission() })
    expect(fx).toContainEqual({ type: 'load', assignmentId: 1 })
    expect(fx).toContainEqual({ type: 'commit', item: item(3), submission: expect.anything(), position: 3 })
    expect(run.state.view.counts?.done).toBe(2)
  })

  it('a key during a swap settles it first, then moves on', () => {
    const run = new Run().open(['pending', 'pending', 'pending'])
    run.send({ type: 'submit', item: item(1), submission: submission() })
    const fx = run.send({ type: 'status', item: item(2), status: 'flagged' })
    expect(types(fx).slice(0, 2)).toEqual(['focus', 'render'])
    expect(fx).toContainEqual({ type: 'load', assignmentId: 3 })
    expect(run.state.view.counts).toEqual({ total: 3, done: 1, skipped: 0, flagged: 1 })
  })

  it('skips and flags move on, and putting an item back to pending reopens it', () => {
    const run = new Run().open(['pending', 'pending', 'pending'])
    run.send({ type: 'status', item: item(1), status: 'skipped' })
    expect(run.status(1)).toBe('skipped')
    expect(run.shown).toBe(2)
    run.send({ type: 'settle' })
    expect(run.state.view.counts?.skipped).toBe(1)
    run.send({ type: 'status', item: item(2), status: 'pending' })
    expect(run.effects).toContainEqual({ type: 'load', assignmentId: 2 })
    expect(run.status(2)).toBe('pending')
    expect(run.state.view.counts?.skipped).toBe(1)
  })

  it('a refused commit brings its item back with the answer and the message, pending again', () => {
    const run = new Run().open(['pending', 'pending', 'pending'])
    run.send({ type: 'submit', item: item(1), submission: submission() }, { type: 'settle' }, { type: 'painted', assignmentId: 2 })
    const failure = { message: 'disk full', issues: [{ path: 'score', message: 'required' }], data: { score: 1 }, activeMs: 1200 }
    const fx = run.send({ type: 'refused', item: item(1), position: 1, failure })
    expect(fx).toContainEqual({ type: 'commitStatus', status: { assignmentId: 1, position: 1, state: 'failed' } })
    expect(fx).toContainEqual({ type: 'notify', tone: 'error', text: 'Your answer to item 1 was not saved (disk full); it is back on screen to submit again.' })
    expect(run.shown).toBe(1)
    expect(run.state.view.slots).toHaveLength(1)
    expect(run.state.view.failure).toEqual({ assignmentId: 1, failure })
    expect(run.status(1)).toBe('pending')
    expect(run.state.view.counts?.done).toBe(0)
    expect(run.state.wanted).toBe(1)
    // Submitting it again clears the failure.
    run.committed()
    run.send({ type: 'submit', item: item(1), submission: submission() })
    expect(run.state.view.failure).toBeNull()
  })

  it('a refused commit during a swap settles the swap before showing the item again', () => {
    const run = new Run().open(['pending', 'pending', 'pending'])
    run.send({ type: 'submit', item: item(1), submission: submission() })
    const fx = run.send({ type: 'refused', item: item(1), position: 1, failure: { message: 'x', issues: [], data: null, activeMs: 0 } })
    expect(types(fx)).toEqual(['commitStatus', 'notify', 'focus', 'render', 'render'])
    expect(run.state.swap).toBeNull()
    expect(run.state.view.slots.map((s) => s.item.assignmentId)).toEqual([1])
  })

  it('moves back and forth in queue order, and says so at either end', () => {
    const run = new Run().open(['pending', 'done', 'pending'])
    expect(run.send({ type: 'navigate', item: item(1), by: -1 })).toEqual([{ type: 'notify', text: 'This is the first item of the queue.' }])
    expect(run.send({ type: 'navigate', item: item(1), by: 1 })).toContainEqual({ type: 'load', assignmentId: 2 })
    run.send({ type: 'arrived', item: item(2) })
    run.committed()
    run.send({ type: 'navigate', item: item(2), by: 1 })
    // Item 3 is held behind item 1 no longer (item 1 is not on the stack): it is fetched.
    expect(run.effects).toContainEqual({ type: 'load', assignmentId: 3 })
    run.send({ type: 'arrived', item: item(3) })
    expect(run.send({ type: 'navigate', item: item(3), by: 1 })).toEqual([{ type: 'notify', text: 'This is the last item of the queue.' }])
    run.send({ type: 'reviewLast' })
    expect(run.effects).toContainEqual({ type: 'load', assignmentId: 3 })
  })

  it('the last pending item submitted finishes the queue, and an undo reopens it', () => {
    const run = new Run().open(['done', 'pending'])
    const fx = run.send({ type: 'submit', item: item(2), submission: submission() })
    expect(run.state.view.finished).toBe(true)
    expect(run.state.view.slots).toEqual([])
    expect(run.state.wanted).toBeNull()
    expect(run.state.view.counts?.done).toBe(2)
    expect(types(fx)).toEqual(['commitStatus', 'commit', 'render'])
    run.send({ type: 'committed', assignmentId: 2 }, { type: 'reopen', assignmentId: 2 })
    expect(run.state.view.finished).toBe(false)
    expect(run.state.view.counts?.done).toBe(1)
    expect(run.effects).toContainEqual({ type: 'load', assignmentId: 2 })
  })

  it('commits leave in the order they were handed over', () => {
    const run = new Run().open(['pending', 'pending', 'pending', 'pending'])
    run.send({ type: 'submit', item: item(1), submission: submission() }, { type: 'settle' })
    run.committed()
    run.send({ type: 'submit', item: item(2), submission: submission() })
    expect(run.state.committing).toEqual([1, 2])
    expect(run.effects.filter((e) => e.type === 'commit').map((e) => e.type === 'commit' && e.position)).toEqual([2])
    run.send({ type: 'committed', assignmentId: 1 })
    expect(run.state.committing).toEqual([2])
  })

  it('finds its rows in a long queue and changes one without copying the others', () => {
    const statuses: Row['status'][] = Array.from({ length: 5000 }, (_, i) => (i < 4990 ? 'done' : 'pending'))
    const run = new Run().open(statuses, 4995)
    expect(run.shown).toBe(4995)
    const chunks = run.state.rows.chunks
    run.send({ type: 'submit', item: item(4995), submission: submission() })
    expect(run.shown).toBe(4996)
    expect(run.status(4995)).toBe('done')
    expect(run.state.rows.chunks.filter((c, i) => c !== chunks[i])).toHaveLength(1)
    run.send({ type: 'settle' })
    // Past the end, the next pending one is back at the start of the pending ones.
    for (const id of [4996, 4997, 4998, 4999, 5000]) {
      run.committed()
      run.send({ type: 'submit', item: item(id), submission: submission() }, { type: 'arrived', item: item(id === 5000 ? 4991 : id + 1) })
    }
    expect(run.shown).toBe(4991)
  })
})
