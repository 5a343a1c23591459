import { z } from 'zod'
import { itemKindSchema } from '../items/kinds'

/** What `assay split` takes: the share held out as test, and which items (all by default). */
export const splitInputSchema = z
  .object({
    testFraction: z.number().gt(0, 'more than 0').lt(1, 'less than 1'),
    /** Default: the project seed. */
    seed: z.string().min(1).max(100).optional(),
    set: z.string().min(1).max(200).optional(),
    kind: itemKindSchema.optional()
  })
  .strict()

export const splitPlanSchema = z.object({
  seed: z.string(),
  testFraction: z.number(),
  strata: z.array(z.object({ stratum: z.string(), items: z.number().int(), test: z.number().int() })),
  dev: z.number().int(),
  test: z.number().int(),
  /** Fits whose items the split moves out of the split they were fitted on: their reports give no held-out figures. */
  fitsNoLongerHeldOut: z.array(z.object({ id: z.number().int(), instrument: z.string(), method: z.string(), movedItems: z.number().int() })),
  createdAt: z.string(),
  /** What the curator should know before relying on the split (items already judged). */
  warnings: z.array(z.string())
})
