import type { HandlerGroup } from './types'
import type { auditOperations } from '../../../shared/contract/audit-operations'
import { AssayError } from '../../../shared/errors'
import { auditableInstruments, projectReport } from '../../audit'

export const auditHandlers: HandlerGroup<keyof typeof auditOperations> = {
  'audit.instruments': (_input, ctx) => auditableInstruments(ctx.project.db),
  'audit.report': (input, ctx) => {
    try {
      return projectReport(ctx.project.db, {
        instrument: input.instrument,
        split: input.split,
        ...(input.seed !== undefined ? { seed: input.seed } : {}),
        ...(input.resamples !== undefined ? { resamples: input.resamples } : {})
      })
    } catch (e) {
      // A statistic refusing its input is a caller mistake here (a seed or level out of range), not a crash.
      if (e instanceof RangeError) throw new AssayError('invalid_input', e.message)
      throw e
    }
  }
}
