import { defineProbeKind, listProbeKinds } from '../../store/probe-kinds'
import { listProbes } from '../../store/probes'
import { makeHandProbe } from '../../probes/make-hand'
import { probeVerifications } from '../../probes/verification'
import { runEnvironment } from '../run-environment'
import { refuseInPacket } from './packet-guard'
import type { probeOperations } from '../../../shared/contract/probe-operations'
import type { HandlerGroup } from './types'

const UNCHECKED = { status: 'unchecked' as const, checks: 0, verifiedBy: [], severity: null }

export const probeHandlers: HandlerGroup<keyof typeof probeOperations> = {
  'probes.kinds': (_input, ctx) => ({ kinds: listProbeKinds(ctx.project.db) }),
  'probes.create': (input, ctx) => makeHandProbe(ctx.project, input),
  'probes.defineKind': (input, ctx) => {
    refuseInPacket(ctx, 'define probe kinds')
    return ctx.project.write((db) => defineProbeKind(db, input))
  },
  'probes.list': (input, ctx) => {
    const checks = probeVerifications(ctx.project.db)
    const probes = listProbes(ctx.project.db, { kind: input.kind, set: input.set })
    return { probes: probes.map((p) => ({ ...p, verification: checks.get(p.itemId) ?? UNCHECKED })) }
  },
  'probes.make': async (input, ctx) => {
    refuseInPacket(ctx, 'make probes')
    const query = { set: input.from, sides: input.sides, origin: input.origin, seed: input.seed ?? ctx.project.seed, kind: input.kind, n: input.n, toSet: input.toSet, dryRun: input.dryRun }
    if (input.mode === 'deterministic') {
      const { makeDeterministicProbes } = await import('../../probes/make-deterministic')
      return { ...makeDeterministicProbes(ctx.project, { ...query, ops: input.edits }), runId: null, estimate: null, failed: 0 }
    }
    const { makeModelProbes } = await import('../../probes/make-model')
    return makeModelProbes(ctx.project, {
      ...query,
      provider: input.provider!,
      model: input.model!,
      baseUrl: input.baseUrl,
      concurrency: input.concurrency ?? 4,
      env: runEnvironment()
    })
  },
  'probes.export': async (input, ctx) => {
    const { exportProbes } = await import('../../probes/export')
    return exportProbes(ctx.project.db, {
      out: input.out,
      kind: input.kind,
      set: input.set,
      withOriginals: input.withOriginals ?? true,
      force: input.overwrite ?? false,
      protect: [ctx.project.path]
    })
  }
}
