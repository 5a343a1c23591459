import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherReportInput } from '../../../src/main/report'
import { DRAW_WORKER_SOURCE, drawAheadOnWorker, type DrawAheadOptions } from '../../../src/main/report/draw-ahead'
import type { Project } from '../../../src/main/store/project'
import { buildReport, type DrawAhead, type Report, type ReportInput } from '../../../src/shared/report'
import { WeightedSums, laneSumsKernelModule, seededRandom, sumsKernelModule, type DrawAheadJob } from '../../../src/shared/stats'
import { tempDir } from '../../support/tmp'
import { syntheticPairsProject } from './fixtures'

// The bootstrap's draws made on a worker thread must give the report drawn in line, figure for figure, also when the
// worker fails at once, fails part-way or never answers (the rest is then drawn in line, the stream replayed).

const tmp = tempDir('assay-draw-ahead-')
let project: Project
let input: ReportInput
let inLine: Report
const options = { generatedAt: 'fixed', seed: 5 }
const opened: Array<{ close(): Promise<void> }> = []

beforeAll(async () => {
  project = await syntheticPairsProject(tmp.file('pairs.assay'), 240)
  input = gatherReportInput(project.db, { instrument: 'pairwise-preference' })
  inLine = buildReport(input, options)
})
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()))
  project.close()
  tmp.cleanup()
})

/** A worker-backed DrawAhead taking every job, and whether each job it was offered went to the worker. */
function onWorker(extra: DrawAheadOptions = {}): { drawAhead: DrawAhead; taken: boolean[] } {
  const ahead = drawAheadOnWorker({ minDraws: 0, ...extra })
  opened.push(ahead)
  const taken: boolean[] = []
  const drawAhead: DrawAhead = (job) => {
    const draws = ahead(job)
    taken.push(draws !== null)
    return draws
  }
  return { drawAhead, taken }
}

describe('drawing the bootstrap ahead on a worker thread', () => {
  it('gives the report drawn in line, figure for figure, and the worker takes later jobs too', () => {
    const { drawAhead, taken } = onWorker()
    expect(buildReport(input, { ...options, drawAhead })).toEqual(inLine)
    expect(buildReport(input, { ...options, drawAhead })).toEqual(inLine)
    expect(taken).toEqual([true, true])
    // Another seed is another stream: the worker is not handing back the first one.
    const other = buildReport(input, { ...options, seed: 6 })
    expect(buildReport(input, { ...options, seed: 6, drawAhead })).toEqual(other)
    expect(other).not.toEqual(inLine)
  })

  it('declines jobs too small to be worth a thread, which are then drawn in line', () => {
    const ahead = drawAheadOnWorker()
    opened.push(ahead)
    expect(ahead({ seed: 5, bins: new Int32Array(240), binCount: 1, draws: 240, resamples: 2000 })).toBeNull()
  })

  it('draws in line when the worker fails before its first resample', () => {
    const failing = `require('node:worker_threads').parentPort.on('message', ({ ring }) => {
      const header = new Int32Array(ring, 0, 4)
      Atomics.store(header, 2, 1)
      Atomics.notify(header, 0)
    })`
    const { drawAhead, taken } = onWorker({ workerSource: failing })
    expect(buildReport(input, { ...options, drawAhead })).toEqual(inLine)
    expect(taken).toEqual([true])
  })

  it('replays the stream and draws the rest in line when the worker fails part-way', () => {
    const planted = DRAW_WORKER_SOURCE.replace('counts.fill(0)', 'if (r === 37) throw new Error("planted"); counts.fill(0)')
    expect(planted).not.toBe(DRAW_WORKER_SOURCE)
    const { drawAhead, taken } = onWorker({ workerSource: planted })
    expect(buildReport(input, { ...options, drawAhead })).toEqual(inLine)
    expect(taken).toEqual([true])
  })

  it('gives up a worker that never answers, and the figures are the same', () => {
    const silent = `require('node:worker_threads').parentPort.on('message', () => {})`
    const { drawAhead, taken } = onWorker({ workerSource: silent, stallMs: 50 })
    expect(buildReport(input, { ...options, drawAhead })).toEqual(inLine)
    expect(taken).toEqual([true])
  })

  it('declines a job while another is read, and takes jobs again once that one is closed', () => {
    const ahead = drawAheadOnWorker({ minDraws: 0 })
    opened.push(ahead)
    const job = { seed: 5, bins: new Int32Array(50).map((_, i) => i % 4), binCount: 4, draws: 50, resamples: 20 }
    const first = ahead(job)
    expect(first).not.toBeNull()
    expect(ahead(job)).toBeNull()
    first?.close()
    const second = ahead(job)
    expect(second).not.toBeNull()
    second?.close()
  })
})

describe('summing the resamples on the draw thread', () => {
  // 300 units in 7 bins (the last read by no row); each row adds whole amounts to some of 5 sums.
  const bins = Int32Array.from({ length: 300 }, (_, i) => (i * 7) % 8 === 7 ? 7 : (i * 5) % 7)
  const offsets = Int32Array.from([0, 2, 3, 5, 6, 8, 9, 11])
  const slots = Int32Array.from([0, 3, 1, 2, 4, 0, 1, 3, 2, 0, 4])
  const amounts = Float64Array.from([1, 2, 1, 3, 1, 2, 1, 1, 5, 1, 2])
  const rows = { offsets, slots, amounts, slotCount: 5 }

  /** Every resample's sums as this thread makes them: the job's stream drawn in line, summed by WeightedSums. */
  function expectedSums(job: DrawAheadJob): Float64Array[] {
    const draw = seededRandom(job.seed).binned(job.bins)
    const own = new WeightedSums(offsets, slots, amounts, rows.slotCount)
    return Array.from({ length: job.resamples }, () => {
      own.weights.fill(0)
      draw(own.weights, job.draws)
      own.fill()
      return own.sums.slice()
    })
  }

  function read(draws: NonNullable<ReturnType<DrawAhead>>, resamples: number, pauseMs: number): { sums: Float64Array[]; summedThere: number } {
    const counts = new Int32Array(8)
    const own = new WeightedSums(offsets, slots, amounts, rows.slotCount)
    const out: Float64Array[] = []
    let summedThere = 0
    // A reader busy elsewhere first: the worker sums what it draws meanwhile.
    if (pauseMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pauseMs)
    for (let r = 0; r < resamples; r++) {
      if (draws.nextSums?.(counts, own.sums)) summedThere++
      else {
        own.weights.set(counts)
        own.fill()
      }
      out.push(own.sums.slice())
    }
    draws.close()
    return { sums: out, summedThere }
  }

  // Summed one resample at a time, and four at a time by the lane kernel; 402 resamples leave a batch cut short.
  for (const lanes of [false, true]) {
    const kernels = () => ({ module: sumsKernelModule() as WebAssembly.Module, ...(lanes ? { lanes: laneSumsKernelModule() } : {}), rows })
    const way = lanes ? 'four at a time' : 'one at a time'

    it(`gives each resample the sums drawing in line and summing here gives, whichever thread summed it (${way})`, () => {
      expect(sumsKernelModule()).not.toBeNull()
      if (lanes) expect(laneSumsKernelModule()).not.toBeNull()
      const ahead = drawAheadOnWorker({ minDraws: 0 })
      opened.push(ahead)
      const job = { seed: 11, bins, binCount: 8, draws: bins.length, resamples: lanes ? 402 : 400, sums: kernels() }
      const expected = expectedSums(job)
      const later = read(ahead(job) as NonNullable<ReturnType<DrawAhead>>, job.resamples, 300)
      expect(later.sums).toEqual(expected)
      // Read after a pause, the worker had summed resamples itself.
      expect(later.summedThere).toBeGreaterThan(0)
      // Read at once, the reader waits and sums some itself: the same sums.
      expect(read(ahead(job) as NonNullable<ReturnType<DrawAhead>>, job.resamples, 0).sums).toEqual(expected)
    })

    it(`replays the stream and sums in line when the worker fails part-way through a job with sums (${way})`, () => {
      // Resample 37 is the second of its batch of four: the batch's first is drawn but never written.
      const planted = DRAW_WORKER_SOURCE.replace('counts.fill(0)', 'if (r === 37) throw new Error("planted"); counts.fill(0)')
      expect(planted).not.toBe(DRAW_WORKER_SOURCE)
      const ahead = drawAheadOnWorker({ minDraws: 0, workerSource: planted })
      opened.push(ahead)
      const job = { seed: 12, bins, binCount: 8, draws: bins.length, resamples: 100, sums: kernels() }
      expect(read(ahead(job) as NonNullable<ReturnType<DrawAhead>>, job.resamples, 50).sums).toEqual(expectedSums(job))
    })
  }
})
