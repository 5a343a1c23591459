import { AssayError } from '../../../shared/errors'
import type { ApiContext } from '../context'

/** Refuses, in an annotator's packet, what only the curator project can do (`what`: "make probes", …). */
export function refuseInPacket(ctx: ApiContext, what: string): void {
  if (ctx.project.isPacket) throw new AssayError('conflict', `${ctx.project.path} is an annotator packet: ${what} in the curator project`)
}
