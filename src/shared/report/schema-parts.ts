import { z } from 'zod'

/** The building blocks every part of the report schema shares. */

export const stat = z.number().nullable()
export const count = z.number().int().nonnegative()
export const category = z.union([z.string(), z.number(), z.boolean()])
export const reasons = z.record(z.string(), z.string())

export const intervalSchema = z.object({
  method: z.enum(['wilson', 'clopper-pearson', 'asymptotic normal', 'cluster bootstrap (percentile)', 'paired cluster bootstrap (percentile)']),
  level: z.number(),
  ci_low: stat,
  ci_high: stat,
  /** Wilson intervals over items of a share averaged over several calls per item: the items counted as independent. */
  n: count.optional(),
  /** Bootstrap only: resamples drawn, resamples where the statistic was undefined (left out), seed. */
  resamples: count.optional(),
  undefined_resamples: count.optional(),
  seed: count.optional(),
  reason: z.string().optional()
})
export type ReportInterval = z.infer<typeof intervalSchema>

export const perLabelSchema = z.object({
  label: category,
  n: count,
  correct: count,
  accuracy: stat,
  ci_low: stat,
  ci_high: stat
})
