import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { AssayError, ERROR_CODES, type ErrorCode, type ErrorLocation } from '../../shared/errors'
import type { Report } from '../../shared/report'
import type { ReportJobData, ReportJobMessage } from './report-worker'

export type ReportProgress = Extract<ReportJobMessage, { type: 'progress' }>

export interface ReportJobControl {
  onProgress?: (progress: Omit<ReportProgress, 'type'>) => void
  /** Aborting ends the worker thread at once; the promise rejects with a `cancelled` error. */
  signal?: AbortSignal
}

/** Where a build puts the worker: beside the bundle that holds this code, or one folder up from a chunk. */
const BUILT_WORKER = ['./report-worker.js', './report-worker.mjs', '../report-worker.js', '../report-worker.mjs']

/**
 * Starts the report's worker. Built (desktop app, compiled command line) the worker is its own entry file near this
 * bundle; run from source (tsx, tests) the worker first registers the same TypeScript loader, then imports the
 * source file.
 */
function startWorker(data: ReportJobData): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) {
    const built = BUILT_WORKER.map((p) => new URL(p, here)).find((url) => existsSync(fileURLToPath(url)))
    if (!built) throw new AssayError('internal', `The report worker is missing beside ${fileURLToPath(here)}; rebuild Assay`)
    return new Worker(built, { workerData: data })
  }
  const require = createRequire(here)
  const loader = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
  const entry = new URL('./report-worker.ts', here).href
  const code = `import(${JSON.stringify(loader)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(code, { eval: true, workerData: data })
}

/** Computes one report in a worker thread; progress is reported as it goes. */
export function computeReportInWorker(data: ReportJobData, control: ReportJobControl = {}): Promise<Report> {
  if (control.signal?.aborted) return Promise.reject(new AssayError('cancelled', 'The report was cancelled'))
  return new Promise<Report>((resolve, reject) => {
    let worker: Worker
    try {
      worker = startWorker(data)
    } catch (e) {
      reject(e as Error)
      return
    }
    let settled = false
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      control.signal?.removeEventListener('abort', abort)
      void worker.terminate()
      fn()
    }
    const abort = () => finish(() => reject(new AssayError('cancelled', 'The report was cancelled')))
    control.signal?.addEventListener('abort', abort, { once: true })
    worker.on('message', (m: ReportJobMessage) => {
      if (m.type === 'progress') {
        const { type: _type, ...progress } = m
        control.onProgress?.(progress)
      } else if (m.type === 'done') finish(() => resolve(m.report as Report))
      else finish(() => reject(errorOf(m)))
    })
    worker.on('error', (e) => finish(() => reject(new AssayError('internal', `The report stopped: ${e.message}`))))
    worker.on('exit', (code) => finish(() => reject(new AssayError('internal', `The report stopped before it finished (exit ${code})`))))
  })
}

function errorOf(m: Extract<ReportJobMessage, { type: 'error' }>): AssayError {
  const code = (ERROR_CODES as readonly string[]).includes(m.code) ? (m.code as ErrorCode) : 'internal'
  return new AssayError(code, m.message, Array.isArray(m.details) ? (m.details as ErrorLocation[]) : undefined)
}
