import type { HandlerGroup } from './types'
import type { reportOperations } from '../../../shared/contract/report-operations'
import { auditableInstruments, computeReportInWorker } from '../../report'
import type { ApiContext } from '../context'
import { calibrate } from '../../calibrate/service'
import { runEnvironment } from '../run-environment'

/** Reports being computed, by project file and request id, so that a client can cancel its own. */
const running = new Map<string, AbortController>()

async function report(input: Parameters<HandlerGroup<'report.build'>['report.build']>[0], ctx: ApiContext) {
  const requestId = input.requestId ?? null
  const key = requestId === null ? null : `${ctx.project.path}\u0000${requestId}`
  // A new request under the same id replaces the one still running (a screen that changed its filter).
  if (key) running.get(key)?.abort()
  const controller = new AbortController()
  if (key) running.set(key, controller)
  try {
    return await computeReportInWorker(
      {
        path: ctx.project.path,
        nativeBinding: process.env.ASSAY_SQLITE_BINDING || undefined,
        instrument: input.instrument,
        split: input.split,
        includeArchived: input.includeArchived,
        sources: input.sources,
        panel: input.panel,
        report: { ...(input.seed !== undefined ? { seed: input.seed } : {}), ...(input.resamples !== undefined ? { resamples: input.resamples } : {}) }
      },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (requestId !== null) ctx.events.emit('report.progress', { requestId, ...p })
        }
      }
    )
  } finally {
    if (key && running.get(key) === controller) running.delete(key)
  }
}

export const reportHandlers: HandlerGroup<keyof typeof reportOperations> = {
  'report.instruments': (_input, ctx) => auditableInstruments(ctx.project.db),
  'report.build': (input, ctx) => report(input, ctx),
  'report.calibrate': (input, ctx) =>
    calibrate(ctx.project, {
      instrument: input.instrument,
      source: input.source,
      method: input.method,
      criterion: input.criterion,
      scoreField: input.field,
      targetField: input.target,
      positive: input.positive,
      rule: input.rule,
      metric: input.metric,
      fitSplit: input.fitSplit,
      evalSplit: input.evalSplit,
      ...(input.seed !== undefined ? { seed: input.seed } : {})
    }),
  'report.calibrateFewShot': async (input, ctx) => {
    const { calibrateFewShot } = await import('../../calibrate/few-shot-run')
    const evalSplit = input.evalSplit ?? 'test'
    const result = await calibrateFewShot(ctx.project, {
      instrument: input.instrument,
      source: input.source,
      method: 'few-shot',
      criterion: input.criterion,
      targetField: input.target,
      fitSplit: input.fitSplit,
      evalSplit,
      shots: input.shots,
      shotSeed: input.shotSeed,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      env: { ...runEnvironment(), progressEveryMs: 1000 },
      onRunPrepared: (runId, template) => ctx.events.emit('run.prepared', { runId, template, split: evalSplit }),
      onProgress: (p) => ctx.events.emit('run.progress', p)
    })
    const { runId, outcome, fatal, counts } = result.run
    return { fits: result.fits, run: { runId, outcome, fatal, counts }, already_stored: result.already_stored }
  },
  'report.cancel': (input, ctx) => {
    const controller = running.get(`${ctx.project.path}\u0000${input.requestId}`)
    controller?.abort()
    return { cancelled: controller !== undefined }
  }
}
