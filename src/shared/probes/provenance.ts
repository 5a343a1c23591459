import { z } from 'zod'
import { FORMULA_EDIT_METHOD, FORMULA_EDIT_OPS } from './formula-edit-method'
import { PAIRWISE_RULES, PROBE_SEVERITIES, probeKindNameSchema } from './kinds'

// A probe's provenance, carried in the probe pair's payload as `probe_of` (withheld from judges and annotators of the
// pair) and in the project's probes table: what it was derived from, how, what changed, and what is expected of it.

export const PROBE_METHODS = ['hand', 'deterministic', 'model'] as const
export type ProbeMethod = (typeof PROBE_METHODS)[number]

export const formulaEditSchema = z.object({
  method: z.literal(FORMULA_EDIT_METHOD),
  seed: z.string(),
  op: z.enum(FORMULA_EDIT_OPS),
  equation: z.object({ index: z.number().int().min(0), display: z.boolean(), before: z.string(), after: z.string() }),
  from: z.string(),
  to: z.string(),
  at: z.object({ start: z.number().int().min(0), end: z.number().int().min(0) })
})

export const diffPartSchema = z.object({ op: z.enum(['same', 'added', 'removed']), text: z.string() })

export const probeProvenanceSchema = z.object({
  /** Shared by the original and all its probes; reports pair and resample by it. */
  family: z.string().min(1),
  /** The original item (its external id and kind) and which proposal of it was perturbed. */
  original: z.object({ item: z.string().min(1), side: z.enum(['a', 'b']) }),
  kind: probeKindNameSchema,
  kind_version: z.number().int().positive(),
  /** The kind's title and instruction as they were when the probe was made (user-defined kinds live in the project). */
  kind_title: z.string().nullish(),
  kind_instruction: z.string().nullish(),
  /** Which canonical side of this pair holds the probe; the other holds the original, unchanged. */
  probe_side: z.enum(['a', 'b']),
  made_by: z.object({
    method: z.enum(PROBE_METHODS),
    template_id: z.string().nullish(),
    template_version: z.number().int().nullish(),
    model: z.string().nullish(),
    run_id: z.number().int().nullish(),
    author: z.string().nullish()
  }),
  edit: formulaEditSchema.nullish(),
  diff: z.array(diffPartSchema),
  expected: z.object({
    pairwise: z.enum(PAIRWISE_RULES),
    flaw: z
      .object({ type: z.string(), severity: z.enum(PROBE_SEVERITIES), evidence: z.string().nullish() })
      .nullable()
  })
})
export type ProbeProvenance = z.infer<typeof probeProvenanceSchema>
