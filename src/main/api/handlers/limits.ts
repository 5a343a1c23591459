import { AssayError } from '../../../shared/errors'
import type { limitsOperations } from '../../../shared/contract/limits-operations'
import { readAnswerLimits, writeAnswerLimits } from '../../annotation/answer-limits'
import type { HandlerGroup } from './types'

export const limitsHandlers: HandlerGroup<keyof typeof limitsOperations> = {
  'limits.get': (_input, ctx) => readAnswerLimits(ctx.project.db),
  'limits.set': (input, ctx) => {
    const { project } = ctx
    // A packet's caps are its project's: a merge holds its answers to the project's, whatever the packet says.
    if (project.isPacket) {
      throw new AssayError('conflict', `${project.path} is an annotator packet: its caps are the project's (merging applies the project's caps); change them in the curator project and export the packet again`)
    }
    return project.write((db) => writeAnswerLimits(db, { ...readAnswerLimits(db), ...input }))
  }
}
