import { z } from 'zod'

/**
 * Originality of the ideas a generator chose beside the ones it left out (001, "Reviewer request": "The same request
 * was used to compare the originality of selected and excluded hypotheses"), per source that scored originality and
 * per generation scheme. Present when the report covers generated ideas.
 */
export const ideaOriginalityRowSchema = z.object({
  source: z.string(),
  /** A scheme (single, multi-stage, omega-point) or `all`. */
  scheme: z.string(),
  /** Generator runs and keywords the ideas came from (the resampling unit). */
  n_groups: z.number().int(),
  n_selected: z.number().int(),
  n_excluded: z.number().int(),
  mean_selected: z.number().nullable(),
  mean_excluded: z.number().nullable(),
  /** mean_selected − mean_excluded. */
  difference: z.number().nullable(),
  /** Percentile interval of the difference from a cluster bootstrap over keywords (each with all its ideas). */
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  reasons: z.record(z.string(), z.string())
})

export const ideaOriginalitySectionSchema = z.object({
  field: z.literal('originality'),
  n_generated: z.number().int(),
  rows: z.array(ideaOriginalityRowSchema)
})
export type IdeaOriginalitySection = z.infer<typeof ideaOriginalitySectionSchema>
export type IdeaOriginalityRow = z.infer<typeof ideaOriginalityRowSchema>
