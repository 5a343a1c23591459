import { z } from 'zod'
import { op } from './define'
import { PAIRWISE_RULES, PROBE_SEVERITIES, probeKindNameSchema, userProbeKindSchema } from '../probes/kinds'
import { FORMULA_EDIT_OPS } from '../probes/formula-edit-method'
import { probeProvenanceSchema } from '../probes/provenance'
import { splitSchema } from '../items/kinds'
import { judgeInputSchema, providerKindSchema } from './run-operations'

// Probes: made by hand by a curator (the side-by-side editor), seeded (a formula edit) or by a model with a kind's
// probe template; listed with their checks, written out in the pairs format, and their kinds defined per project.

export const probeKindSummarySchema = z.object({
  name: z.string(),
  version: z.number().int(),
  title: z.string(),
  instruction: z.string(),
  pairwise: z.enum(PAIRWISE_RULES),
  flaw: z.object({ type: z.string(), severity: z.enum(PROBE_SEVERITIES) }).nullable(),
  builtin: z.boolean()
})

const setName = z.string().trim().min(1).max(200)

export const probeMakeInputSchema = z
  .object({
    kind: probeKindNameSchema,
    /** The set whose proposal pairs are the originals. */
    from: setName,
    /** At most this many probes, the originals taken in seeded order. */
    n: z.number().int().positive().max(1_000_000).optional(),
    mode: z.enum(['deterministic', 'model']),
    sides: z.array(z.enum(['a', 'b'])).min(1).max(2),
    origin: z.enum(['human', 'ai']).optional(),
    toSet: setName,
    /** Seed of the choices; the project's seed when absent. */
    seed: z.string().min(1).max(200).optional(),
    /** Deterministic mode: the formula edits allowed. */
    edits: z.array(z.enum(FORMULA_EDIT_OPS)).min(1).optional(),
    /** Model mode: who writes the probes. */
    provider: providerKindSchema.optional(),
    model: judgeInputSchema.shape.model.optional(),
    // As a judge's: the endpoint is stored with the judge that writes the probes, so it carries no credentials.
    baseUrl: judgeInputSchema.shape.baseUrl,
    concurrency: z.number().int().positive().max(64).optional(),
    /** Say what would be made (and, in model mode, the calls and their estimated cost); write nothing. */
    dryRun: z.boolean().optional()
  })
  .strict()
  .refine((o) => o.mode === 'deterministic' || (o.provider !== undefined && o.model !== undefined), {
    message: 'the model mode needs a provider and a model',
    path: ['provider']
  })

const sideSchema = z.enum(['a', 'b'])

export const probeMakeResultSchema = z.object({
  made: z.array(z.object({ pairId: z.string(), original: z.string(), side: sideSchema, detail: z.string() })),
  skipped: z.array(z.object({ original: z.string(), side: sideSchema, reason: z.string() })),
  /** Model mode: the recorded run (null for a dry run or when nothing was asked). */
  runId: z.number().int().nullable(),
  estimate: z
    .object({ calls: z.number().int(), cached: z.number().int(), inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number().nullable() })
    .nullable(),
  failed: z.number().int()
})

export const probeRecordSchema = z.object({
  itemId: z.number().int(),
  externalId: z.string(),
  set: z.string(),
  split: splitSchema,
  originalItemId: z.number().int(),
  originalExternalId: z.string(),
  family: z.string(),
  kind: z.string(),
  kindVersion: z.number().int(),
  method: z.string(),
  provenance: probeProvenanceSchema,
  createdAt: z.string(),
  verification: z.object({
    status: z.enum(['verified', 'rejected', 'unchecked']),
    checks: z.number().int(),
    verifiedBy: z.array(z.string()),
    severity: z.string().nullable()
  })
})

const probeQuery = { kind: z.string().min(1).max(100).optional(), set: setName.optional() }

/** Operations of probes (merged into the one contract in operations.ts). */
export const probeOperations = {
  'probes.kinds': op({
    input: z.object({}).strict(),
    output: z.object({ kinds: z.array(probeKindSummarySchema) }),
    access: 'curator',
    summary: 'Probe kinds: built in and defined by the project'
  }),
  'probes.defineKind': op({
    input: userProbeKindSchema.strict(),
    output: z.object({ kind: probeKindSummarySchema, added: z.boolean() }),
    access: 'curator',
    summary: 'Define a probe kind of the project (a changed definition becomes a new version)'
  }),
  'probes.list': op({
    input: z.object(probeQuery).strict(),
    output: z.object({ probes: z.array(probeRecordSchema) }),
    access: 'curator',
    summary: 'Every probe with its original, kind, how it was made and whether its check passed'
  }),
  'probes.make': op({
    input: probeMakeInputSchema,
    output: probeMakeResultSchema,
    access: 'curator',
    summary: 'Make probes of one kind from the proposal pairs of a set: a seeded formula edit, or a model with the kind’s template'
  }),
  'probes.export': op({
    input: z
      .object({
        ...probeQuery,
        /** Where main writes the JSONL file. */
        out: z.string().trim().min(1).max(4096),
        withOriginals: z.boolean().optional(),
        overwrite: z.boolean().optional()
      })
      .strict(),
    output: z.object({ path: z.string(), probes: z.number().int(), originals: z.number().int() }),
    access: 'curator',
    summary: 'Write probes in the pairs format, each with its provenance and, first, its original pair'
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
