import type { packetOperations } from '../../../shared/contract/packet-operations'
import { adjudicationItem, effectiveRule, listDisagreements, recordAdjudication, setRule } from '../../adjudication'
import { getInstrument } from '../../../shared/instruments'
import { exportPacket, listPackets, mergePackets } from '../../packets'
import type { HandlerGroup } from './types'

export const packetHandlers: HandlerGroup<keyof typeof packetOperations> = {
  'packets.export': (input, ctx) => exportPacket(ctx.project, input),
  'packets.merge': async (input, ctx) => {
    const packets = await mergePackets(ctx.project, input.paths)
    if (packets.some((p) => p.added > 0 || p.statusesChanged > 0)) ctx.events.emit('project.changed', { what: 'annotations' })
    return { packets }
  },
  'packets.list': (_input, ctx) => ({
    packets: listPackets(ctx.project.db).map((p) => ({
      id: p.id,
      annotator: p.annotator,
      assignments: p.assignments,
      mergedAnswers: p.merged_answers,
      createdAt: p.created_at,
      mergedAt: p.merged_at
    }))
  }),
  'adjudication.rule': (input, ctx) => effectiveRule(ctx.project.db, getInstrument(input.instrument)),
  'adjudication.setRule': (input, ctx) => {
    const instrument = getInstrument(input.instrument)
    ctx.project.write((db) => setRule(db, instrument, input.fields))
    return effectiveRule(ctx.project.db, instrument)
  },
  'adjudication.list': (input, ctx) => listDisagreements(ctx.project.db, input.instrument, { includeAgreeing: input.includeAgreeing }),
  'adjudication.item': (input, ctx) => adjudicationItem(ctx.project, input.instrument, input.itemId),
  'adjudication.record': (input, ctx) => {
    const result = recordAdjudication(ctx.project, input)
    ctx.events.emit('project.changed', { what: 'annotations' })
    return result
  }
}
