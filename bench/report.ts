import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { computeReportInWorker, gatherReportInput } from '../src/main/report'
import type { ReportJobData, ReportJobMessage, ReportJobRequest } from '../src/main/report/report-worker'
import { REPORT_WORKER_LIMITS, releaseReportWorker } from '../src/main/report/report-job'
import { calibrate } from '../src/main/calibrate/service'
import { drawAheadOnWorker } from '../src/main/report/draw-ahead'
import type { Project } from '../src/main/store/project'
import { buildReport, reportSchema, type Report } from '../src/shared/report'
import { DEFAULT_BOOTSTRAP_SEED, seededRandom } from '../src/shared/stats'
import { median, time, type BenchFigures } from './measure'
import { syntheticPairsProject } from '../test/integration/report/fixtures'

/**
 * Milliseconds of this process's CPU time (user and system, the garbage collector's threads included) spent in `fn`:
 * steadier than the wall clock when others load the machine, which stretches both sides of a ratio unevenly.
 */
function cpuTime(fn: () => unknown): number {
  const start = process.cpuUsage()
  fn()
  const spent = process.cpuUsage(start)
  return (spent.user + spent.system) / 1000
}

/** Judgements per pair in that project: two runs in both display orders, and one imported source. */
const JUDGEMENTS_PER_PAIR = 5

/** The floor: one pass over the same rows computing plain accuracy against the label, nothing else. */
function bareAccuracy(project: Project): number {
  const labels = new Map<number, string>()
  for (const r of project.db.prepare(`SELECT id, payload FROM items WHERE kind = 'proposal-pair'`).iterate() as IterableIterator<{ id: number; payload: string }>) {
    labels.set(r.id, (JSON.parse(r.payload) as { label: string }).label.charAt(0))
  }
  let correct = 0
  let judged = 0
  const count = (itemId: number, judgement: string | null) => {
    if (judgement === null) return
    judged++
    if ((JSON.parse(judgement) as { verdict: string }).verdict.charAt(0) === labels.get(itemId)) correct++
  }
  for (const r of project.db.prepare(`SELECT item_id, judgement, status FROM model_calls WHERE status != 'failed'`).iterate() as IterableIterator<{ item_id: number; judgement: string | null }>) {
    count(r.item_id, r.judgement)
  }
  for (const r of project.db.prepare(`SELECT item_id, judgement FROM annotations`).iterate() as IterableIterator<{ item_id: number; judgement: string }>) {
    count(r.item_id, r.judgement)
  }
  return correct / judged
}

/**
 * What the report's intervals cannot go below while they stay the same figures: the bootstrap's draws alone, one
 * draw per item per resample from the seeded stream (tallied into bins, as the report tallies them), with no
 * statistic computed on them.
 */
function resamplingDraws(items: number, resamples: number): void {
  const random = seededRandom(DEFAULT_BOOTSTRAP_SEED)
  const bins = new Int32Array(items).map((_, i) => i % 256)
  const counts = new Int32Array(257)
  const draw = random.binned(bins)
  for (let r = 0; r < resamples; r++) {
    counts.fill(0)
    draw(counts, items)
  }
}

/**
 * A full report (gathering from the project file, then every statistic, interval, position test, strength,
 * judge-vs-judge test and the stored recalibration's section) beside a bare single pass over the same rows computing
 * plain accuracy, measured in the same run, at 5,000, 20,000 and 100,000 pairs (five judgements a pair from three
 * sources: 25,000, 100,000 and 500,000 judgements), to show how the ratio scales. Beside it, what the workbench user
 * waits for: the same report through a new worker thread (its start, gathering on its own connection, building,
 * the copy back), compiled as the app runs it, and the next report on that worker, kept as the app keeps it; and the
 * output's validation against the report schema; and the time to build each project and the
 * process's peak memory.
 */
export async function benchReport(dir: string, sizes: readonly number[] = [5_000, 20_000, 100_000]): Promise<Record<string, BenchFigures>> {
  const out: Record<string, BenchFigures> = {}
  for (const pairs of sizes) out[`pairs_${pairs}`] = await benchReportAt(dir, pairs)
  return out
}

/** The compiled command line's report worker, as the built app and `assay report` start it. */
const BUILT_WORKER = fileURLToPath(new URL('../out/cli/report-worker.mjs', import.meta.url))

/**
 * Builds the command line if a source is newer than its build, so the compiled worker is the code being measured;
 * null (and the figure left out) where it cannot be built.
 */
function builtWorker(): string | null {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url)), '--if-stale', '--quiet'], { stdio: 'inherit' })
  return build.status === 0 && existsSync(BUILT_WORKER) ? BUILT_WORKER : null
}

/** Reports after the second on one kept worker, for its warm figure (the median of these). */
const WARM_REPORTS = 3

/**
 * Reports through one new compiled worker, as the built app and `assay report` start it: the first job's time (the
 * worker's start, gathering on its own connection, building, the copy back), the next one's on the same worker,
 * kept as the app keeps it (its code compiled, not yet all optimised), and the median of the three after that (a
 * worker warmed by earlier reports, as it is after a few reports in a session).
 */
async function reportsInBuiltWorker(worker: string, data: ReportJobData): Promise<{ first: number; kept: number; warm: number }> {
  const started = performance.now()
  const thread = new Worker(worker, { workerData: data, resourceLimits: REPORT_WORKER_LIMITS })
  const next = () =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (m: ReportJobMessage) => {
        if (m.type === 'progress') return
        thread.off('message', onMessage)
        if (m.type === 'done') resolve()
        else reject(new Error(m.message))
      }
      thread.on('message', onMessage)
    })
  const job = async (): Promise<number> => {
    const jobStarted = performance.now()
    const done = next()
    thread.postMessage({ type: 'job', data } satisfies ReportJobRequest)
    await done
    return performance.now() - jobStarted
  }
  try {
    await next()
    const first = performance.now() - started
    const kept = await job()
    const warm: number[] = []
    for (let i = 0; i < WARM_REPORTS; i++) warm.push(await job())
    return { first, kept, warm: median(warm) }
  } finally {
    await thread.terminate()
  }
}

/** The process's peak resident memory so far (main thread and the report's worker), in MiB. */
function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024)
}

async function benchReportAt(dir: string, pairs: number): Promise<BenchFigures> {
  const path = `${dir}/report-${pairs}.assay`
  // Built once per run and size (at 100,000 pairs most of a minute), then measured three times.
  const buildStarted = performance.now()
  const project = await syntheticPairsProject(path, pairs)
  const projectBuildMs = performance.now() - buildStarted
  const judgements = pairs * JUDGEMENTS_PER_PAIR
  // The second thread the report's worker keeps for the bootstrap's draws, so builds here measure what it runs.
  const drawAhead = drawAheadOnWorker()
  // The same report before the project has a fit, for the recalibration's share of the figures below.
  const withoutFitMs: number[] = []
  for (let round = 0; round < 3; round++) {
    withoutFitMs.push(time(() => buildReport(gatherReportInput(project.db, { instrument: 'pairwise-preference' }), { generatedAt: 'bench', drawAhead })))
  }
  // A stored recalibration, so its section (and its source) is part of every report measured.
  calibrate(project, { instrument: 'pairwise-preference', source: 'run:1', method: 'both-orders', rule: 'conservative' })
  try {
    const reportMs: number[] = []
    const gatherMs: number[] = []
    const buildMs: number[] = []
    const bareMs: number[] = []
    const reportCpuMs: number[] = []
    const bareCpuMs: number[] = []
    const tablesMs: number[] = []
    const drawsMs: number[] = []
    const drawsCpuMs: number[] = []
    const workerMs: number[] = []
    const builtWorkerMs: number[] = []
    const keptWorkerMs: number[] = []
    const warmWorkerMs: number[] = []
    const compiled = builtWorker()
    const validateMs: number[] = []
    let bare = 0
    for (let round = 0; round < 3; round++) {
      let cpu = 0
      bareMs.push(time(() => (cpu = cpuTime(() => (bare = bareAccuracy(project))))))
      bareCpuMs.push(cpu)
      let input!: ReturnType<typeof gatherReportInput>
      let gatherCpu = 0
      let buildCpu = 0
      const g = time(() => (gatherCpu = cpuTime(() => (input = gatherReportInput(project.db, { instrument: 'pairwise-preference' })))))
      let tablesDone = 0
      const started = performance.now()
      let report!: Report
      const b = time(() => (buildCpu = cpuTime(() => (report = buildReport(input, { generatedAt: 'bench', drawAhead, onResampling: () => (tablesDone = performance.now()) })))))
      validateMs.push(time(() => reportSchema.parse(report)))
      const workerStarted = performance.now()
      // A new worker each time: the kept one is let go first.
      await releaseReportWorker()
      await computeReportInWorker({ path, instrument: 'pairwise-preference', report: { generatedAt: 'bench' } })
      workerMs.push(performance.now() - workerStarted)
      // Let go at once, so that its memory is not held beside the compiled worker's below.
      await releaseReportWorker()
      if (compiled) {
        const built = await reportsInBuiltWorker(compiled, { path, instrument: 'pairwise-preference', report: { generatedAt: 'bench' } })
        builtWorkerMs.push(built.first)
        keptWorkerMs.push(built.kept)
        warmWorkerMs.push(built.warm)
      }
      tablesMs.push(tablesDone - started)
      let drawsCpu = 0
      drawsMs.push(time(() => (drawsCpu = cpuTime(() => resamplingDraws(pairs, 2000)))))
      drawsCpuMs.push(drawsCpu)
      gatherMs.push(g)
      buildMs.push(b)
      reportMs.push(g + b)
      reportCpuMs.push(gatherCpu + buildCpu)
    }
    return {
      judgements,
      sources: 3,
      pairs,
      bootstrap_resamples: 2000,
      full_report_ms: median(reportMs),
      full_report_without_fit_ms: median(withoutFitMs),
      gather_ms: median(gatherMs),
      build_ms: median(buildMs),
      // Of the build: the tables and their point estimates, before the bootstrap starts drawing.
      build_tables_ms: median(tablesMs),
      // The floor the same intervals impose: the seeded draws alone (one per item per resample), nothing computed.
      resampling_draws_ms: median(drawsMs),
      resampling_draws_vs_bare_ratio: median(drawsMs) / median(bareMs),
      resampling_draws_cpu_ms: median(drawsCpuMs),
      bare_accuracy_pass_ms: median(bareMs),
      report_vs_bare_ratio: median(reportMs) / median(bareMs),
      full_report_cpu_ms: median(reportCpuMs),
      bare_accuracy_pass_cpu_ms: median(bareCpuMs),
      report_vs_bare_cpu_ratio: median(reportCpuMs) / median(bareCpuMs),
      // What the workbench waits for: the worker's start, gathering, building and the copy back; then validation.
      worker_report_ms: median(workerMs),
      worker_vs_bare_ratio: median(workerMs) / median(bareMs),
      // The same through the compiled worker the app and `assay report` start (run from source, the worker above
      // first compiles its TypeScript).
      ...(compiled
        ? {
            built_worker_report_ms: median(builtWorkerMs),
            built_worker_vs_bare_ratio: median(builtWorkerMs) / median(bareMs),
            // The next report on that worker, kept as the app keeps it.
            kept_worker_report_ms: median(keptWorkerMs),
            kept_worker_vs_bare_ratio: median(keptWorkerMs) / median(bareMs),
            // Reports three to five on that worker: its code optimised by the reports before.
            warm_worker_report_ms: median(warmWorkerMs),
            warm_worker_vs_bare_ratio: median(warmWorkerMs) / median(bareMs)
          }
        : { built_worker_report_ms: null, kept_worker_report_ms: null, warm_worker_report_ms: null }),
      output_validation_ms: median(validateMs),
      target_ratio: 3,
      bare_accuracy: bare,
      project_build_ms: projectBuildMs,
      // Cumulative over the run: the largest size's figure is the run's peak.
      peak_rss_mb: peakRssMb()
    }
  } finally {
    await releaseReportWorker()
    await drawAhead.close()
    project.close()
  }
}
