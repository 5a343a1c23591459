import { listProbeKinds } from '../../store/probe-kinds'
import { makeHandProbe } from '../../probes/make-hand'
import type { HandlerGroup } from './types'

export const probeHandlers: HandlerGroup<'probes.kinds' | 'probes.create'> = {
  'probes.kinds': (_input, ctx) => ({ kinds: listProbeKinds(ctx.project.db) }),
  'probes.create': (input, ctx) => makeHandProbe(ctx.project, input)
}
