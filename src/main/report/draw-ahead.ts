import { Worker } from 'node:worker_threads'
import type { DrawAhead, DrawAheadJob, DrawsAhead } from '../../shared/report'
import { LANES, kernelStreamStart, seededRandom } from '../../shared/stats'

/**
 * The report's bootstrap draws on a second thread: a resample's draws (one per item, tallied by kind) and its
 * statistics take about the same time, so while this thread computes the statistics of one resample, a worker
 * draws the next ones into a ring of shared memory. The worker runs the same kernel on the same stream from the
 * same first state, so every total, and every figure, is what drawing in line gives.
 *
 * If the worker fails or stops answering, the rest is drawn in line: the stream is replayed up to the resample
 * reached, so the figures stay the same whatever happens to the worker.
 */

/** Below this many draws per report a thread costs more than it saves (its start is some tens of milliseconds). */
export const DRAW_AHEAD_MIN_DRAWS = 4_000_000

/** How long a resample may take to arrive before the worker is given up on. */
const STALL_MS = 10_000

/** The ring holds at most this many bytes of totals, and between 4 and 256 resamples. */
const RING_BYTES = 4 << 20

/**
 * With sums, the ring holds every resample where they fit in this many bytes (else as many as fit, at least 4): the
 * thread then never waits for the reader, which may take the sums only after other work (see BootstrapPlan.start).
 */
const SUMS_RING_BYTES = 64 << 20

// Words of the ring's header: resamples written, resamples read, the worker failed, the reader closed, the reader
// is waiting for the next resample.
const WRITTEN = 0
const READ = 1
const FAILED = 2
const CLOSED = 3
const WAITING = 4
const HEADER_WORDS = 5

/**
 * Where a ring's parts start, in bytes: the header, then for a job with sums a flag per slot (1: the slot holds the
 * resample's sums, 0: its totals per bin), the totals per bin of every slot, and the sums of every slot.
 */
interface RingLayout {
  flagsAt: number
  countsAt: number
  sumsAt: number
  bytes: number
}

function ringLayout(slots: number, binCount: number, slotCount: number | null): RingLayout {
  const flagsAt = HEADER_WORDS * 4
  const countsAt = flagsAt + (slotCount === null ? 0 : slots * 4)
  const sumsAt = Math.ceil((countsAt + slots * binCount * 4) / 8) * 8
  return { flagsAt, countsAt, sumsAt, bytes: sumsAt + (slotCount === null ? 0 : slots * slotCount * 8) }
}

/**
 * The worker: jobs by message, one at a time, each one loop of the draw kernel whose resamples' totals are copied
 * into the job's ring (plain JavaScript, evaluated, so that no build has to place a file for it). For a job with
 * sums, resamples are also summed here while the reader is behind (busy with other work): four at a time by the lane
 * kernel where the job has it, else one at a time as WeightedSums sums them. Once the reader waits, only their totals
 * are written, and the reader sums them, so that neither thread waits on the other's share.
 */
export const DRAW_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const grown = (memory, end) => {
  const have = memory.buffer.byteLength
  if (end > have) memory.grow(Math.ceil((end - have) / 65536))
}
const aligned = (at) => Math.ceil(at / 16) * 16
parentPort.on('message', ({ module, state, bins, binCount, draws, maxAllowed, resamples, ring, slots, layout, sums }) => {
  const header = new Int32Array(ring, 0, ${HEADER_WORDS})
  const countsOut = new Int32Array(ring, layout.countsAt, slots * binCount)
  try {
    const { exports } = new WebAssembly.Instance(module, {})
    // Resamples drawn before they are summed: ${LANES} where the four-lane sums kernel compiled, else one.
    const batch = sums && sums.lanes ? ${LANES} : 1
    const binsAt = 16
    const countsAt = binsAt + bins.length * 4
    grown(exports.memory, countsAt + batch * binCount * 4)
    const words = new Int32Array(exports.memory.buffer)
    words.set(state, 0)
    words.set(bins, binsAt / 4)
    const drawn = Array.from({ length: batch }, (_, j) => words.subarray(countsAt / 4 + j * binCount, countsAt / 4 + (j + 1) * binCount))
    const flags = sums ? new Int32Array(ring, layout.flagsAt, slots) : null
    const sumsOut = sums ? new Float64Array(ring, layout.sumsAt, slots * sums.rows.slotCount) : null
    // Sums the first \`size\` drawn resamples into their ring slots (from \`first\` on); false where it did not.
    let summed = () => false
    if (sums) {
      const { offsets, slots: rowSlots, amounts, slotCount } = sums.rows
      const rows = offsets.length - 1
      if (batch > 1) {
        // Weights and sums four to a row and to a slot, as the lane kernel reads them.
        const kernel = new WebAssembly.Instance(sums.lanes, {}).exports
        const offsetsAt = rows * 32
        const slotsAt = offsetsAt + offsets.length * 4
        const amountsAt = aligned(slotsAt + rowSlots.length * 4)
        const sumsAt = aligned(amountsAt + amounts.length * 8)
        grown(kernel.memory, sumsAt + slotCount * 32)
        const buffer = kernel.memory.buffer
        const weights = new Float64Array(buffer, 0, rows * 4)
        new Int32Array(buffer, offsetsAt, offsets.length).set(offsets)
        new Int32Array(buffer, slotsAt, rowSlots.length).set(rowSlots)
        new Float64Array(buffer, amountsAt, amounts.length).set(amounts)
        const result = new Float64Array(buffer, sumsAt, slotCount * 4)
        summed = (first, size) => {
          // A batch cut short leaves the lanes after it as they were: summed, and not read.
          for (let j = 0; j < size; j++) {
            const counts = drawn[j]
            for (let k = 0; k < rows; k++) weights[k * 4 + j] = counts[k]
          }
          result.fill(0)
          kernel.sums(rows, 0, offsetsAt, slotsAt, amountsAt, sumsAt)
          for (let j = 0; j < size; j++) {
            const at = ((first + j) % slots) * slotCount
            for (let q = 0; q < slotCount; q++) sumsOut[at + q] = result[q * 4 + j]
          }
          return true
        }
      } else {
        const kernel = new WebAssembly.Instance(sums.module, {}).exports
        const offsetsAt = (rows + 1) * 4
        const slotsAt = offsetsAt + offsets.length * 4
        const amountsAt = Math.ceil((slotsAt + rowSlots.length * 4) / 8) * 8
        const sumsAt = amountsAt + amounts.length * 8
        grown(kernel.memory, sumsAt + slotCount * 8)
        const buffer = kernel.memory.buffer
        const weights = new Int32Array(buffer, 0, rows + 1)
        new Int32Array(buffer, offsetsAt, offsets.length).set(offsets)
        new Int32Array(buffer, slotsAt, rowSlots.length).set(rowSlots)
        new Float64Array(buffer, amountsAt, amounts.length).set(amounts)
        const result = new Float64Array(buffer, sumsAt, slotCount)
        summed = (first) => {
          weights.set(drawn[0])
          result.fill(0)
          kernel.sums(rows, 0, offsetsAt, slotsAt, amountsAt, sumsAt)
          sumsOut.set(result, (first % slots) * slotCount)
          return true
        }
      }
    }
    for (let first = 0; first < resamples; first += batch) {
      const size = Math.min(batch, resamples - first)
      for (let r = first; r < first + size; r++) {
        for (;;) {
          if (Atomics.load(header, ${CLOSED}) === 1) return
          const read = Atomics.load(header, ${READ})
          if (r - read < slots) break
          Atomics.wait(header, ${READ}, read)
        }
        const counts = drawn[r - first]
        counts.fill(0)
        exports.draw(draws, bins.length, maxAllowed, binsAt, countsAt + (r - first) * binCount * 4)
      }
      // The reader waiting for these: it is handed their totals per bin, and sums them itself.
      const done = Atomics.load(header, ${WAITING}) !== 1 && summed(first, size)
      for (let r = first; r < first + size; r++) {
        const slot = r % slots
        if (flags) flags[slot] = done ? 1 : 0
        if (!done) countsOut.set(drawn[r - first], slot * binCount)
        Atomics.store(header, ${WRITTEN}, r + 1)
        Atomics.notify(header, ${WRITTEN})
      }
    }
  } catch {
    Atomics.store(header, ${FAILED}, 1)
    Atomics.notify(header, ${WRITTEN})
  }
})
`

export interface DrawAheadOptions {
  /** Jobs with fewer draws in all are declined (drawn in line). */
  minDraws?: number
  /** Replaces the worker's source (tests: a worker that fails or never answers). */
  workerSource?: string
  /** How long a resample may take to arrive before the worker is given up on. */
  stallMs?: number
}

/**
 * A DrawAhead on one worker thread, started now (so that its start overlaps the gathering and the tables) and
 * kept for later jobs. The thread never keeps the process alive; `close` ends it. A worker that failed or stalled
 * is ended, and the next job starts a new one.
 */
export function drawAheadOnWorker(options: DrawAheadOptions = {}): DrawAhead & { close(): Promise<void> } {
  const minDraws = options.minDraws ?? DRAW_AHEAD_MIN_DRAWS
  const stallMs = options.stallMs ?? STALL_MS
  let worker: Worker | null = null
  const started = (): Worker | null => {
    if (worker) return worker
    try {
      const w = new Worker(options.workerSource ?? DRAW_WORKER_SOURCE, { eval: true })
      w.unref()
      // A failure is read from the ring, where the reader waits; the thread is then replaced.
      w.on('error', () => undefined)
      w.on('exit', () => {
        if (worker === w) worker = null
      })
      worker = w
    } catch {
      worker = null
    }
    return worker
  }
  const giveUp = (w: Worker): void => {
    if (worker === w) worker = null
    void w.terminate()
  }
  started()
  // Whether a job is being read: a job offered meanwhile is declined (drawn in line), so that it is never queued
  // behind one whose reader is busy elsewhere. The reader is not kept, so its ring goes with it.
  let reading = false
  const drawAhead = (job: DrawAheadJob): DrawsAhead | null => {
    if (job.draws * job.resamples < minDraws || job.bins.length === 0 || reading) return null
    const start = kernelStreamStart(job.seed, job.bins.length)
    const w = start && started()
    if (!start || !w) return null
    const slotCount = job.sums ? job.sums.rows.slotCount : null
    const slots = slotCount !== null
      ? Math.max(4, Math.min(job.resamples, Math.floor(SUMS_RING_BYTES / (4 + job.binCount * 4 + slotCount * 8))))
      : Math.max(4, Math.min(256, Math.floor(RING_BYTES / (job.binCount * 4))))
    const layout = ringLayout(slots, job.binCount, slotCount)
    const ring = new SharedArrayBuffer(layout.bytes)
    try {
      w.postMessage({ ...start, bins: job.bins, binCount: job.binCount, draws: job.draws, resamples: job.resamples, ring, slots, layout, sums: job.sums })
    } catch {
      giveUp(w)
      return null
    }
    reading = true
    return new RingReader(job, ring, layout, slots, stallMs, () => giveUp(w), () => (reading = false))
  }
  return Object.assign(drawAhead, {
    close: async () => {
      const w = worker
      worker = null
      if (w) await w.terminate()
    }
  })
}

class RingReader implements DrawsAhead {
  private readonly header: Int32Array
  private readonly flags: Int32Array | null
  private readonly counts: Int32Array
  private readonly sums: Float64Array | null
  private read = 0
  private inLine: ((counts: Int32Array) => void) | null = null
  private closed = false

  constructor(
    private readonly job: DrawAheadJob,
    ring: SharedArrayBuffer,
    layout: RingLayout,
    private readonly slots: number,
    private readonly stallMs: number,
    private readonly giveUp: () => void,
    private readonly onClose: () => void
  ) {
    this.header = new Int32Array(ring, 0, HEADER_WORDS)
    this.counts = new Int32Array(ring, layout.countsAt, slots * job.binCount)
    this.flags = job.sums ? new Int32Array(ring, layout.flagsAt, slots) : null
    this.sums = job.sums ? new Float64Array(ring, layout.sumsAt, slots * job.sums.rows.slotCount) : null
  }

  next(counts: Int32Array): void {
    if (this.sums !== null) throw new Error('a job with sums is read with nextSums')
    const slot = this.arrived()
    if (slot < 0) this.inLine?.(counts)
    else this.take(this.counts, slot * this.job.binCount, this.job.binCount, counts)
  }

  nextSums(counts: Int32Array, sums: Float64Array): boolean {
    if (this.sums === null || this.flags === null) throw new Error('a job without sums is read with next')
    const slot = this.arrived()
    if (slot < 0) {
      this.inLine?.(counts)
      return false
    }
    if (this.flags[slot] === 1) {
      this.take(this.sums, slot * sums.length, sums.length, sums)
      return true
    }
    this.take(this.counts, slot * this.job.binCount, this.job.binCount, counts)
    return false
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    Atomics.store(this.header, CLOSED, 1)
    Atomics.notify(this.header, READ)
    this.onClose()
  }

  /** The ring slot of the next resample once the worker wrote it, or -1 once it is drawn in line. */
  private arrived(): number {
    if (this.inLine === null && !this.awaitResample()) this.inLine = this.drawInLineFrom(this.read)
    return this.inLine === null ? this.read % this.slots : -1
  }

  /** Copies a resample out of its slot and hands the slot back to the worker. */
  private take<T extends Int32Array | Float64Array>(ring: T, at: number, length: number, into: T): void {
    into.set(ring.subarray(at, at + length) as never)
    this.read++
    Atomics.store(this.header, READ, this.read)
    Atomics.notify(this.header, READ)
  }

  /** Waits until the worker has written the next resample; false if it failed or stalled. */
  private awaitResample(): boolean {
    for (;;) {
      const written = Atomics.load(this.header, WRITTEN)
      if (written > this.read) return true
      if (Atomics.load(this.header, FAILED) === 1) return false
      Atomics.store(this.header, WAITING, 1)
      const woken = Atomics.wait(this.header, WRITTEN, written, this.stallMs)
      Atomics.store(this.header, WAITING, 0)
      if (woken === 'timed-out') return false
    }
  }

  /** Gives up the worker and draws in line from resample `from` on, the stream replayed up to it. */
  private drawInLineFrom(from: number): (counts: Int32Array) => void {
    this.close()
    this.giveUp()
    const draw = seededRandom(this.job.seed).binned(this.job.bins)
    const skipped = new Int32Array(this.job.binCount)
    for (let r = 0; r < from; r++) draw(skipped, this.job.draws)
    return (counts) => {
      counts.fill(0)
      draw(counts, this.job.draws)
    }
  }
}
