import type { Observation } from '../instruments/types'
import type { CallStatus, FlawRecord, ReportSourceInput, SourceCall } from './input'

/**
 * A source's calls held as columns: per call its item, trial, display order, the side shown first and its status
 * (typed arrays), and per observation its unit id and its values. Gathering writes the stored answers straight into
 * these, with no object per call; the call objects a section may still read (`calls`) are made from them on the
 * first ask. A source built by hand gets its rows from its calls, which are then its calls as given.
 */

/** Status codes of the call columns, in this order. */
export const CALL_STATUSES: readonly CallStatus[] = ['ok', 'failed', 'unparseable', 'abstained', 'pending']
export const STATUS_CODE: ReadonlyMap<CallStatus, number> = new Map(CALL_STATUSES.map((s, i) => [s, i]))
export const OK = 0

/** The side shown first as coded in the columns: 0 not recorded, 1 a, 2 b. */
export type ShownFirstCode = 0 | 1 | 2

export type ObservedValues = Observation['values']

/** A flaw audit's flaws (canonical sides) and how many the answer named that could not be used. */
export interface FlawList {
  flaws: FlawRecord[]
  unparseableFlaws: number
}

/** A growable column of whole numbers. */
class IntColumn {
  data = new Int32Array(64)
  length = 0

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length)
  }
}

/** The columns of the calls once written (views over the rows' storage). */
export interface CallColumnViews {
  item: Int32Array
  trial: Int32Array
  order: Int32Array
  /** See ShownFirstCode. */
  shownFirst: Int32Array
  /** Codes into CALL_STATUSES. */
  status: Int32Array
  /** Observations of call c: observationStart[c] up to observationStart[c + 1]. */
  observationStart: Int32Array
}

export class CallRows {
  private readonly item = new IntColumn()
  private readonly trial = new IntColumn()
  private readonly order = new IntColumn()
  private readonly shownFirst = new IntColumn()
  private readonly status = new IntColumn()
  private readonly observationEnd = new IntColumn()
  /** Per observation: the instrument's unit id within the item, and the values observed (shared, never changed). */
  readonly unitNames: string[] = []
  readonly values: ObservedValues[] = []
  private readonly flawLists = new Map<number, FlawList>()
  private made: SourceCall[] | undefined
  private views: CallColumnViews | undefined

  /** The rows of calls made by hand: their `calls` are those very objects. */
  static of(calls: readonly SourceCall[]): CallRows {
    const rows = new CallRows()
    for (const c of calls) {
      const flaws = c.flaws ? { flaws: c.flaws, unparseableFlaws: c.unparseableFlaws ?? 0 } : null
      rows.add(c.itemId, c.trial, c.order, shownFirstCode(c.shownFirst), STATUS_CODE.get(c.status) as number, c.observations, flaws)
    }
    rows.made = calls as SourceCall[]
    return rows
  }

  get length(): number {
    return this.item.length
  }

  /** Adds a call; its observations are read now (their values are kept, not copied). */
  add(itemId: number, trial: number, order: number, shownFirst: ShownFirstCode, status: number, observations: readonly Observation[], flaws: FlawList | null = null): void {
    if (this.views) throw new Error('calls were added to rows already read as columns')
    if (flaws) this.flawLists.set(this.item.length, flaws)
    this.item.push(itemId)
    this.trial.push(trial)
    this.order.push(order)
    this.shownFirst.push(shownFirst)
    this.status.push(status)
    for (let i = 0; i < observations.length; i++) {
      const observation = observations[i] as Observation
      this.unitNames.push(observation.unit)
      this.values.push(observation.values)
    }
    this.observationEnd.push(this.unitNames.length)
  }

  /** The columns; no call may be added once they are read. */
  columns(): CallColumnViews {
    if (this.views) return this.views
    const observationStart = new Int32Array(this.length + 1)
    observationStart.set(this.observationEnd.view(), 1)
    this.views = {
      item: this.item.view(),
      trial: this.trial.view(),
      order: this.order.view(),
      shownFirst: this.shownFirst.view(),
      status: this.status.view(),
      observationStart
    }
    return this.views
  }

  /** The calls as objects, made once on the first ask (sections that read calls one by one). */
  get calls(): SourceCall[] {
    if (!this.made) {
      const made = new Array<SourceCall>(this.length)
      for (let c = 0; c < this.length; c++) made[c] = this.callAt(c)
      this.made = made
    }
    return this.made
  }

  /** Whether the call objects were made (or given). */
  get madeCalls(): readonly SourceCall[] | undefined {
    return this.made
  }

  /** Call c as an object, as gathering made it before the columns: shownFirst only where recorded. */
  callAt(c: number): SourceCall {
    if (this.made) return this.made[c] as SourceCall
    const { item, trial, order, shownFirst, status, observationStart } = this.columns()
    const observations: Observation[] = []
    for (let o = observationStart[c] as number; o < (observationStart[c + 1] as number); o++) {
      observations.push({ unit: this.unitNames[o] as string, values: this.values[o] as ObservedValues })
    }
    const itemId = item[c] as number
    const first = shownFirst[c]
    const callStatus = CALL_STATUSES[status[c] as number] as CallStatus
    const call: SourceCall = first
      ? { itemId, trial: trial[c] as number, order: order[c] as number, shownFirst: first === 1 ? 'a' : 'b', status: callStatus, observations }
      : { itemId, trial: trial[c] as number, order: order[c] as number, status: callStatus, observations }
    const flaws = this.flawLists.get(c)
    if (flaws) {
      call.flaws = flaws.flaws
      call.unparseableFlaws = flaws.unparseableFlaws
    }
    return call
  }
}

export function shownFirstCode(side: 'a' | 'b' | undefined): ShownFirstCode {
  return side === 'a' ? 1 : side === 'b' ? 2 : 0
}

/**
 * Where a source made at gathering holds its rows: a property of its own that is not enumerable, so that a copy made
 * by spreading it (with other calls, say) does not carry rows that are not its calls. A source made by hand has none.
 */
const GATHERED_ROWS = Symbol('gathered rows')

type WithRows = ReportSourceInput & { readonly [GATHERED_ROWS]?: CallRows }

/**
 * A source whose calls are the rows written at gathering: `calls` makes the objects on the first read (a copy of the
 * source made by spreading it reads them), and the frame and the sections that read columns never do.
 */
export function sourceOfRows(head: Omit<ReportSourceInput, 'calls'>, rows: CallRows): ReportSourceInput {
  const source = { ...head } as ReportSourceInput
  Object.defineProperty(source, 'calls', { get: () => rows.calls, enumerable: true, configurable: true })
  Object.defineProperty(source, GATHERED_ROWS, { value: rows, enumerable: false })
  return source
}

/** The rows written at gathering for this very source, if it was made from them. */
export function gatheredRowsOf(source: ReportSourceInput): CallRows | undefined {
  return (source as WithRows)[GATHERED_ROWS]
}

/** A source's calls as rows: those written at gathering, or rows made now from its calls. */
export function callRowsOf(source: ReportSourceInput): CallRows {
  return gatheredRowsOf(source) ?? CallRows.of(source.calls)
}

/** How many calls a source has, without making their objects. */
export function callCountOf(source: ReportSourceInput): number {
  return gatheredRowsOf(source)?.length ?? source.calls.length
}
