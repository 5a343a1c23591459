import type { exportOperations } from '../../../shared/contract/export-operations'
import type { HandlerGroup } from './types'

// The exporters load when an export is asked for: opening a project does not bring them.

export const exportHandlers: HandlerGroup<keyof typeof exportOperations> = {
  'export.table': async (input, ctx) => {
    const { exportData } = await import('../../export')
    return exportData(ctx.project, input.what, {
      out: input.out,
      ...(input.format ? { format: input.format } : {}),
      set: input.set,
      split: input.split,
      instrument: input.instrument,
      pseudonymise: input.pseudonymise ?? false,
      force: input.overwrite ?? false,
      rawCells: input.rawCells ?? false
    })
  },
  'export.training': async (input, ctx) => {
    const { exportTraining } = await import('../../export/training')
    return exportTraining(ctx.project, input.what, {
      out: input.out,
      instrument: input.instrument,
      set: input.set,
      split: input.split,
      license: input.license,
      force: input.overwrite ?? false
    })
  }
}
