import { z } from 'zod'
import { op } from './define'
import { PAIRWISE_RULES, PROBE_SEVERITIES, probeKindNameSchema } from '../probes/kinds'

// Probes made by hand by a curator (the side-by-side editor); model-made and seeded probes are made by `assay probe make`.

export const probeKindSummarySchema = z.object({
  name: z.string(),
  version: z.number().int(),
  title: z.string(),
  instruction: z.string(),
  pairwise: z.enum(PAIRWISE_RULES),
  flaw: z.object({ type: z.string(), severity: z.enum(PROBE_SEVERITIES) }).nullable(),
  builtin: z.boolean()
})

/** Operations of probes (merged into the one contract in operations.ts). */
export const probeOperations = {
  'probes.kinds': op({
    input: z.object({}).strict(),
    output: z.object({ kinds: z.array(probeKindSummarySchema) }),
    access: 'curator',
    summary: 'Probe kinds: built in and defined by the project'
  }),
  'probes.create': op({
    input: z
      .object({
        itemId: z.number().int().positive(),
        side: z.enum(['a', 'b']),
        kind: probeKindNameSchema,
        markdown: z.string().min(1).max(2_000_000),
        author: z.string().trim().min(1).max(200).optional()
      })
      .strict(),
    output: z.object({ itemId: z.number().int(), pairId: z.string(), changed: z.number().int() }),
    access: 'curator',
    summary: 'Save a probe written by hand: the edited copy of one proposal of a pair, beside its original'
  })
} as const
