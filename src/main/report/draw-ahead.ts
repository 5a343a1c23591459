import { Worker } from 'node:worker_threads'
import type { DrawAhead, DrawAheadJob, DrawsAhead } from '../../shared/report'
import { kernelStreamStart, seededRandom } from '../../shared/stats'

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

// Words of the ring's header: resamples written, resamples read, the worker failed, the reader closed.
const WRITTEN = 0
const READ = 1
const FAILED = 2
const CLOSED = 3
const HEADER_WORDS = 4

/**
 * The worker: jobs by message, one at a time, each one loop of the draw kernel whose resamples' totals are copied
 * into the job's ring (plain JavaScript, evaluated, so that no build has to place a file for it).
 */
export const DRAW_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
parentPort.on('message', ({ module, state, bins, binCount, draws, maxAllowed, resamples, ring, slots }) => {
  const header = new Int32Array(ring, 0, ${HEADER_WORDS})
  const totals = new Int32Array(ring, ${HEADER_WORDS * 4})
  try {
    const { exports } = new WebAssembly.Instance(module, {})
    const binsAt = 16
    const countsAt = binsAt + bins.length * 4
    const end = countsAt + binCount * 4
    const have = exports.memory.buffer.byteLength
    if (end > have) exports.memory.grow(Math.ceil((end - have) / 65536))
    const words = new Int32Array(exports.memory.buffer)
    words.set(state, 0)
    words.set(bins, binsAt / 4)
    const counts = words.subarray(countsAt / 4, countsAt / 4 + binCount)
    for (let r = 0; r < resamples; r++) {
      for (;;) {
        if (Atomics.load(header, ${CLOSED}) === 1) return
        const read = Atomics.load(header, ${READ})
        if (r - read < slots) break
        Atomics.wait(header, ${READ}, read)
      }
      counts.fill(0)
      exports.draw(draws, bins.length, maxAllowed, binsAt, countsAt)
      totals.set(counts, (r % slots) * binCount)
      Atomics.store(header, ${WRITTEN}, r + 1)
      Atomics.notify(header, ${WRITTEN})
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
  const drawAhead = (job: DrawAheadJob): DrawsAhead | null => {
    if (job.draws * job.resamples < minDraws || job.bins.length === 0) return null
    const start = kernelStreamStart(job.seed, job.bins.length)
    const w = start && started()
    if (!start || !w) return null
    const slots = Math.max(4, Math.min(256, Math.floor(RING_BYTES / (job.binCount * 4))))
    const ring = new SharedArrayBuffer((HEADER_WORDS + slots * job.binCount) * 4)
    try {
      w.postMessage({ ...start, bins: job.bins, binCount: job.binCount, draws: job.draws, resamples: job.resamples, ring, slots })
    } catch {
      giveUp(w)
      return null
    }
    return new RingReader(job, ring, slots, stallMs, () => giveUp(w))
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
  private readonly totals: Int32Array
  private read = 0
  private inLine: ((counts: Int32Array) => void) | null = null
  private closed = false

  constructor(
    private readonly job: DrawAheadJob,
    ring: SharedArrayBuffer,
    private readonly slots: number,
    private readonly stallMs: number,
    private readonly giveUp: () => void
  ) {
    this.header = new Int32Array(ring, 0, HEADER_WORDS)
    this.totals = new Int32Array(ring, HEADER_WORDS * 4)
  }

  next(counts: Int32Array): void {
    if (this.inLine === null && !this.awaitResample()) this.inLine = this.drawInLineFrom(this.read)
    if (this.inLine !== null) {
      this.inLine(counts)
    } else {
      const at = (this.read % this.slots) * this.job.binCount
      counts.set(this.totals.subarray(at, at + this.job.binCount))
      Atomics.store(this.header, READ, this.read + 1)
      Atomics.notify(this.header, READ)
    }
    this.read++
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    Atomics.store(this.header, CLOSED, 1)
    Atomics.notify(this.header, READ)
  }

  /** Waits until the worker has written the next resample; false if it failed or stalled. */
  private awaitResample(): boolean {
    for (;;) {
      const written = Atomics.load(this.header, WRITTEN)
      if (written > this.read) return true
      if (Atomics.load(this.header, FAILED) === 1) return false
      if (Atomics.wait(this.header, WRITTEN, written, this.stallMs) === 'timed-out') return false
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
