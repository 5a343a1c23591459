import { z } from 'zod'
import { splitSchema } from '../items/kinds'
import { reportSchema } from '../report/schema'
import { op } from './define'

export const auditableInstrumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  item_kind: z.string(),
  n_annotations: z.number().int(),
  n_calls: z.number().int(),
  n_labelled_items: z.number().int()
})
export type AuditableInstrument = z.infer<typeof auditableInstrumentSchema>

/** Operations of the audit (merged into the one contract in operations.ts). */
export const auditOperations = {
  'audit.instruments': op({
    input: z.object({}).strict(),
    output: z.object({ instruments: z.array(auditableInstrumentSchema), splits: z.array(z.string()) }),
    access: 'curator',
    summary: 'Instruments with answers, judge calls or labelled items to report on, and the splits present'
  }),
  'audit.report': op({
    input: z
      .object({
        instrument: z.string().min(1).max(100),
        split: splitSchema.optional(),
        seed: z.number().int().min(0).max(0xffffffff).optional(),
        resamples: z.number().int().min(2000).max(100_000).optional()
      })
      .strict(),
    output: reportSchema,
    access: 'curator',
    summary: 'The audit report of one instrument: every source against every criterion, with denominators, baselines and intervals'
  })
} as const
