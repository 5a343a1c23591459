import { parentPort, workerData } from 'node:worker_threads'
import { AssayError } from '../../shared/errors'
import { buildReport, callCountOf, type ReportOptions, type ResamplingDetail } from '../../shared/report'
import type { Split } from '../../shared/items/kinds'
import { namedDatabaseError, openDatabase } from '../store/database'
import { readDeclaredInstruments } from '../store/project'
import { withProjectInstruments } from '../instruments/scope'
import { drawAheadOnWorker } from './draw-ahead'
import { gatherReportInput } from './gather'

/**
 * The report's worker thread: opens the project file read-only on a connection of its own, gathers and computes,
 * and posts progress, then the report (or the error). Runs off the main event loop, so the app and the browser-mode
 * server keep answering while a large report is computed. A worker takes one job at a time by message and may be
 * kept for the next one (report-job.ts): its code is then already compiled and optimised, so later reports run
 * faster. Each job sees only its own file's declared instruments, whichever file the worker served before.
 */

export interface ReportJobData {
  path: string
  nativeBinding?: string | undefined
  instrument: string
  split?: Split | undefined
  includeArchived?: boolean | undefined
  sources?: string[] | undefined
  panel?: string[] | undefined
  report: ReportOptions
}

/** What the worker is sent: a job to compute. */
export type ReportJobRequest = { type: 'job'; data: ReportJobData }

export type ReportJobMessage =
  | { type: 'progress'; phase: 'reading' | 'computing' | 'resampling'; step: number; steps: number; detail: string }
  | { type: 'done'; report: unknown }
  | { type: 'error'; code: string; message: string; details?: unknown }

const STEPS = 3

/** The bootstrap's draws, made on a thread of their own while this one computes the statistics. */
const drawAhead = drawAheadOnWorker()

/** Counts in progress messages, grouped by thousands (20,000 items). */
const count = (n: number): string => n.toLocaleString('en-US')

function post(message: ReportJobMessage): void {
  parentPort?.postMessage(message)
}

async function run(data: ReportJobData): Promise<void> {
  // Opened as the app opens a file read-only, so a project in a folder that cannot be written is read the same way.
  const db = await openDatabase(data.path, { readonly: true, ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}) })
  try {
    // This file's own instruments only: a kept worker may have served another file before.
    const declaredInstruments = await readDeclaredInstruments(db)
    const report = withProjectInstruments({ declaredInstruments }, () => {
      post({ type: 'progress', phase: 'reading', step: 0, steps: STEPS, detail: 'reading answers and judge calls' })
      const input = gatherReportInput(db, { instrument: data.instrument, split: data.split, includeArchived: data.includeArchived, sources: data.sources, panel: data.panel })
      const calls = input.sources.reduce((n, s) => n + callCountOf(s), 0)
      post({ type: 'progress', phase: 'computing', step: 1, steps: STEPS, detail: `${count(input.items.length)} items, ${input.sources.length} sources, ${count(calls)} answers` })
      const onResampling = ({ resamples, items, statistics }: ResamplingDetail) => {
        if (statistics > 0) post({ type: 'progress', phase: 'resampling', step: 2, steps: STEPS, detail: `${count(resamples)} bootstrap resamples of ${count(items)} items for ${count(statistics)} intervals` })
      }
      return buildReport(input, { ...data.report, onResampling, drawAhead })
    })
    post({ type: 'done', report })
  } finally {
    db.close()
  }
}

async function job(data: ReportJobData): Promise<void> {
  try {
    await run(data)
  } catch (raw) {
    // A damaged file is named here, where its path and SQLite's error code are both known; the error crosses to the
    // caller as a plain message.
    const e = namedDatabaseError(data.path, raw)
    if (e instanceof AssayError) post({ type: 'error', code: e.code, message: e.message, details: e.details })
    else post({ type: 'error', code: 'internal', message: e instanceof Error ? e.message : String(e) })
  }
}

// A job given at the start runs at once; others come by message, one at a time.
const initial = workerData as ReportJobData | null | undefined
if (initial) void job(initial)
parentPort?.on('message', (m: ReportJobRequest) => {
  if (m?.type === 'job') void job(m.data)
})
