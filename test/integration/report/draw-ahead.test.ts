import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherReportInput } from '../../../src/main/report'
import { DRAW_WORKER_SOURCE, drawAheadOnWorker, type DrawAheadOptions } from '../../../src/main/report/draw-ahead'
import type { Project } from '../../../src/main/store/project'
import { buildReport, type DrawAhead, type Report, type ReportInput } from '../../../src/shared/report'
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
})
