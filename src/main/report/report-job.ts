import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { AssayError, ERROR_CODES, type ErrorCode, type ErrorLocation } from '../../shared/errors'
import type { Report } from '../../shared/report'
import type { ReportJobData, ReportJobMessage, ReportJobRequest } from './report-worker'

export type ReportProgress = Extract<ReportJobMessage, { type: 'progress' }>

export interface ReportJobControl {
  onProgress?: (progress: Omit<ReportProgress, 'type'>) => void
  /** Aborting ends the worker thread at once; the promise rejects with a `cancelled` error. */
  signal?: AbortSignal
}

/** Where a build puts the worker: beside the bundle that holds this code, or one folder up from a chunk. */
const BUILT_WORKER = ['./report-worker.js', './report-worker.mjs', '../report-worker.js', '../report-worker.mjs']

/**
 * The report worker's heap: a young generation of 192 MB (three 64 MB semi-spaces) instead of V8's default 16 MB
 * semi-spaces. A report makes millions of short-lived objects while holding the gathered answers, and with small
 * semi-spaces most scavenges copy those long-lived answers again; measured on a 20,000-pair report, the next report
 * on a kept worker took about an eighth less time (1.2–1.4 s against 1.4–1.6 s).
 */
export const REPORT_WORKER_LIMITS = { maxYoungGenerationSizeMb: 192 } as const

/**
 * Starts a report worker, waiting for jobs. Built (desktop app, compiled command line) the worker is its own entry
 * file near this bundle; run from source (tsx, tests) the worker first registers the same TypeScript loader, then
 * imports the source file.
 */
function startWorker(): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) {
    const built = BUILT_WORKER.map((p) => new URL(p, here)).find((url) => existsSync(fileURLToPath(url)))
    if (!built) throw new AssayError('internal', `The report worker is missing beside ${fileURLToPath(here)}; rebuild Assay`)
    return new Worker(built, { workerData: null, resourceLimits: REPORT_WORKER_LIMITS })
  }
  const require = createRequire(here)
  const loader = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
  const entry = new URL('./report-worker.ts', here).href
  const code = `import(${JSON.stringify(loader)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(code, { eval: true, workerData: null, resourceLimits: REPORT_WORKER_LIMITS })
}

/**
 * How long a worker is kept after its report, for the next one: a kept worker's code is already compiled and
 * optimised (a report through it takes about two thirds of the time of one through a new worker), and it holds its
 * memory meanwhile, so it is let go after a while. Only one is kept; it never keeps the process alive.
 */
const KEEP_MS = 60_000
let kept: { worker: Worker; timer: NodeJS.Timeout; gone: () => void } | null = null

/** Takes the kept worker off the shelf (its timer and its watch stopped), or null. */
function unshelve(): Worker | null {
  if (!kept) return null
  const { worker, timer, gone } = kept
  kept = null
  clearTimeout(timer)
  worker.off('exit', gone)
  worker.off('error', gone)
  return worker
}

function takeWorker(): Worker {
  const worker = unshelve()
  if (!worker) return startWorker()
  worker.ref()
  return worker
}

function keepWorker(worker: Worker): void {
  if (kept) {
    void worker.terminate()
    return
  }
  worker.unref()
  const timer = setTimeout(() => void unshelve()?.terminate(), KEEP_MS)
  timer.unref()
  // A kept worker that fails or ends on its own is not handed out again (an idle worker's error, unheard, would
  // be thrown in this thread).
  const gone = () => {
    if (kept?.worker !== worker) return
    unshelve()
    void worker.terminate()
  }
  worker.once('exit', gone)
  worker.once('error', gone)
  kept = { worker, timer, gone }
}

/** Ends the kept worker now, if there is one (tests, and a process about to exit on its own). */
export async function releaseReportWorker(): Promise<void> {
  await unshelve()?.terminate()
}

/** The kept worker's thread id, or null when none is kept (tests). */
export function keptReportWorker(): number | null {
  return kept?.worker.threadId ?? null
}

/** Computes one report in a worker thread; progress is reported as it goes. */
export function computeReportInWorker(data: ReportJobData, control: ReportJobControl = {}): Promise<Report> {
  if (control.signal?.aborted) return Promise.reject(new AssayError('cancelled', 'The report was cancelled'))
  return new Promise<Report>((resolve, reject) => {
    let worker: Worker
    try {
      worker = takeWorker()
    } catch (e) {
      reject(e as Error)
      return
    }
    let settled = false
    /** Ends the job; a worker that answered (a report or an error) is kept for the next job, any other is ended. */
    const finish = (answered: boolean, fn: () => void) => {
      if (settled) return
      settled = true
      control.signal?.removeEventListener('abort', abort)
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      if (answered) keepWorker(worker)
      else void worker.terminate()
      fn()
    }
    const abort = () => finish(false, () => reject(new AssayError('cancelled', 'The report was cancelled')))
    const onMessage = (m: ReportJobMessage) => {
      if (m.type === 'progress') {
        const { type: _type, ...progress } = m
        control.onProgress?.(progress)
      } else if (m.type === 'done') finish(true, () => resolve(m.report as Report))
      else finish(true, () => reject(errorOf(m)))
    }
    const onError = (e: Error) => finish(false, () => reject(new AssayError('internal', `The report stopped: ${e.message}`)))
    const onExit = (code: number) => finish(false, () => reject(new AssayError('internal', `The report stopped before it finished (exit ${code})`)))
    control.signal?.addEventListener('abort', abort, { once: true })
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    worker.postMessage({ type: 'job', data } satisfies ReportJobRequest)
  })
}

function errorOf(m: Extract<ReportJobMessage, { type: 'error' }>): AssayError {
  const code = (ERROR_CODES as readonly string[]).includes(m.code) ? (m.code as ErrorCode) : 'internal'
  return new AssayError(code, m.message, Array.isArray(m.details) ? (m.details as ErrorLocation[]) : undefined)
}
