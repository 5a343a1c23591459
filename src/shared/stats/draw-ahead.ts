// What a bootstrap hands another thread to draw its resamples on (the contract; the thread is the host's), and the
// one place that chooses between that thread and drawing in line.
import type { SumsRows } from './kernel/weighted-sums'
import type { SeededRandom } from './seeded-random'

/**
 * A resampling's draws, made on another thread ahead of the statistics: resample after resample of the seed's
 * stream, each totalled by bin exactly as `seededRandom(seed).binned(bins)` totals it. Null when it declines (too
 * small a job to be worth a thread, or no thread to be had); the draws are then made in line.
 */
export type DrawAhead = (job: DrawAheadJob) => DrawsAhead | null

export interface DrawAheadJob {
  seed: number
  /** The bin of each unit: the draws are of units, in [0, bins.length). */
  bins: Int32Array
  binCount: number
  /** Units drawn per resample. */
  draws: number
  resamples: number
  /**
   * Where given, the thread also sums each resample's rows weighted by its totals per bin (the bins are the rows,
   * with one more bin that no row reads), with this compiled sums kernel, as WeightedSums sums them on this thread;
   * four resamples at a time with the lane kernel where it is given (the same sums to the bit).
   */
  sums?: { module: WebAssembly.Module; lanes?: WebAssembly.Module | null; rows: SumsRows }
}

export interface DrawsAhead {
  /** The next resample's totals per bin, written over `counts` (binCount long). Not for a job with sums. */
  next(counts: Int32Array): void
  /**
   * For a job with sums: the next resample's sums written over `sums` (true), or, where the thread has given up, its
   * totals per bin written over `counts` (false), for the caller to sum. Absent where the job is drawn in line.
   */
  nextSums?(counts: Int32Array, sums: Float64Array): boolean
  /** Ends the drawing thread; called once, whether or not every resample was read. */
  close(): void
}

/**
 * A resampling's draws totalled by bin: on `drawAhead`'s thread when it takes the job, else in line from `random`
 * (a stream seeded with job.seed and not yet drawn from). Either way the same totals in the same order.
 */
export function binnedResamples(random: SeededRandom, job: DrawAheadJob, drawAhead?: DrawAhead | undefined): DrawsAhead {
  const ahead = drawAhead && job.bins.length > 0 ? drawAhead(job) : null
  if (ahead) return ahead
  let draw: ((counts: Int32Array, draws: number) => void) | null = null
  return {
    next(counts) {
      counts.fill(0)
      if (job.bins.length > 0) (draw ??= random.binned(job.bins))(counts, job.draws)
    },
    close: () => undefined
  }
}
