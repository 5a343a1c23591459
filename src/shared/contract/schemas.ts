import { z } from 'zod'
import { itemKindSchema, splitSchema } from '../items/kinds'

export const roleSchema = z.enum(['curator', 'annotator'])
export type Role = z.infer<typeof roleSchema>

export const countRowSchema = z.object({ kind: z.string(), set_name: z.string(), split: z.string(), n: z.number().int() })

export const projectInfoSchema = z.object({
  name: z.string(),
  path: z.string(),
  projectId: z.string(),
  schemaVersion: z.number().int(),
  mode: z.enum(['curator', 'packet']),
  seed: z.string(),
  items: z.number().int(),
  counts: z.array(countRowSchema),
  annotators: z.number().int(),
  annotations: z.number().int(),
  judgements: z.number().int(),
  runs: z.number().int(),
  exposures: z.number().int()
})
export type ProjectInfo = z.infer<typeof projectInfoSchema>

/**
 * What `project.info` tells a session. An annotator's answer leaves out the file path, the seed and the project-wide
 * counts of other people's answers, judgements, runs and exposures: annotation needs none of them.
 */
export const projectViewSchema = projectInfoSchema.partial({ path: true, seed: true, annotators: true, annotations: true, judgements: true, runs: true, exposures: true })
export type ProjectView = z.infer<typeof projectViewSchema>

export const itemQuerySchema = z.object({
  kind: itemKindSchema.optional(),
  set: z.string().min(1).optional(),
  split: splitSchema.optional(),
  text: z.string().max(500).optional(),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().positive().max(1000).default(100)
})
export type ItemQuery = z.input<typeof itemQuerySchema>

export const itemSummarySchema = z.object({
  id: z.number().int(),
  kind: itemKindSchema,
  external_id: z.string(),
  set_name: z.string(),
  split: splitSchema,
  title: z.string()
})
export type ItemSummary = z.infer<typeof itemSummarySchema>

export const itemPageSchema = z.object({ total: z.number().int(), offset: z.number().int(), rows: z.array(itemSummarySchema) })
export type ItemPage = z.infer<typeof itemPageSchema>

export const itemDetailSchema = itemSummarySchema.extend({
  payload: z.record(z.string(), z.unknown()),
  /** Labels held back because the item is in the test split; revealing them is logged as an exposure. */
  withheld: z.array(z.string())
})
export type ItemDetail = z.infer<typeof itemDetailSchema>

export const facetsSchema = z.object({
  kinds: z.array(z.string()),
  sets: z.array(z.string()),
  splits: z.array(z.string())
})

export const sessionSchema = z.object({
  role: roleSchema,
  annotator: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** True where the session cannot switch to curator (an annotator packet, or a server started for one annotator). */
  locked: z.boolean()
})
export type Session = z.infer<typeof sessionSchema>
