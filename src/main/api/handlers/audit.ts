import type { HandlerGroup } from './types'
import type { auditOperations } from '../../../shared/contract/audit-operations'
import { auditableInstruments, projectReport } from '../../audit'

export const auditHandlers: HandlerGroup<keyof typeof auditOperations> = {
  'audit.instruments': (_input, ctx) => auditableInstruments(ctx.project.db),
  'audit.report': (input, ctx) =>
    projectReport(ctx.project.db, {
      instrument: input.instrument,
      split: input.split,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.resamples !== undefined ? { resamples: input.resamples } : {})
    })
}
