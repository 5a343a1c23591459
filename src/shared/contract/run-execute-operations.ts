import { z } from 'zod'
import { op } from './define'
import { estimateSchema, judgeInputSchema, providerKindSchema, runCountsSchema, runSpecSchema } from './run-operations'

// A run asked for and waited on, as the command line and scripts do: the judge is found or saved, the key checked and
// the items planned before anything is written, so a run that cannot start leaves no trace; progress is pushed as
// events; the answer comes when the run ends (or is cancelled with runs.cancel).

const skippedSchema = z.object({ itemId: z.number().int(), externalId: z.string(), reason: z.string() })
const judgeNameSchema = z.object({ id: z.number().int(), name: z.string(), provider: providerKindSchema, model: z.string() })

export const runExecuteInputSchema = z
  .object({
    /** The judge by its settings: an existing judge with the same name (or the same settings) is reused. */
    judge: judgeInputSchema,
    run: runSpecSchema.omit({ judgeId: true }),
    /** Plan and price only: nothing is sent or written. */
    dryRun: z.boolean().optional()
  })
  .strict()

export const runExecuteResultSchema = z.discriminatedUnion('kind', [
  /** A dry run: what would be asked and what it would cost (a judge not saved yet has id 0). */
  z.object({ kind: z.literal('estimate'), judge: judgeNameSchema, estimate: estimateSchema }),
  /** No item of the selection can be put to the instrument: no run was recorded. */
  z.object({ kind: z.literal('nothing_to_ask'), items: z.number().int(), skipped: z.array(skippedSchema), skippedCount: z.number().int() }),
  /** Not one answer from a new run (a wrong model name, an endpoint that does not answer): it was not kept. */
  z.object({ kind: z.literal('could_not_start'), error: z.string(), requests: z.number().int(), skipped: z.array(skippedSchema) }),
  z.object({
    kind: z.literal('ran'),
    runId: z.number().int(),
    resumed: z.boolean(),
    outcome: z.enum(['done', 'cancelled', 'failed']),
    /** Requests sent by this execution. */
    requests: z.number().int(),
    fatal: z.string().nullable(),
    counts: runCountsSchema,
    skipped: z.array(skippedSchema),
    /** Generation: what the run made. */
    sets: z.array(z.string()).optional(),
    ideas: z.array(z.object({ externalId: z.string(), selected: z.boolean() })).optional(),
    tasks: z.array(z.string()).optional(),
    responses: z.array(z.string()).optional()
  })
])
export type RunExecuteResult = z.infer<typeof runExecuteResultSchema>

/** Told once a run is recorded and before its first call: what it asks, and whether its cost can be known. */
export const runStartingSchema = z.object({
  runId: z.number().int(),
  resumed: z.boolean(),
  judge: judgeNameSchema,
  items: z.number().int(),
  calls: z.number().int(),
  skippedCount: z.number().int(),
  /** The first few skipped items, with why. */
  skipped: z.array(skippedSchema).max(5),
  /** The judge's model has a price: without one the cost so far is unknown, not $0. */
  priced: z.boolean()
})

export const runExecuteOperations = {
  'runs.execute': op({
    input: runExecuteInputSchema,
    output: runExecuteResultSchema,
    access: 'curator',
    summary: 'Run a judge and wait for the end: nothing is recorded for a run that cannot start; progress comes as events'
  })
} as const
