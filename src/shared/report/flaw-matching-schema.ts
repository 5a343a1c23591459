import { z } from 'zod'

/** Recall and precision of one slice (all flaws, one type, or one severity). */
export const flawMatchCellSchema = z.object({
  key: z.string(),
  /** Expert flaws (side and type of a pair) in the slice, and how many of them the judge named. */
  n_expert: z.number().int(),
  n_expert_found: z.number().int(),
  /** Judge flaws in the slice, and how many of them match an expert flaw. */
  n_judge: z.number().int(),
  n_judge_matched: z.number().int(),
  recall: z.number().nullable(),
  recall_ci: z.tuple([z.number(), z.number()]).nullable(),
  precision: z.number().nullable(),
  precision_ci: z.tuple([z.number(), z.number()]).nullable()
})

export const flawMatchRowSchema = z.object({
  source: z.string(),
  /** `adjudicated` where the pair was adjudicated, else `majority` (a side and type more than half the experts listed). */
  reference: z.string(),
  n_items: z.number().int(),
  overall: flawMatchCellSchema,
  by_type: z.array(flawMatchCellSchema),
  /** Recall by the expert flaw's severity, precision by the judge flaw's. */
  by_severity: z.array(flawMatchCellSchema),
  /** Mean word overlap (Jaccard) of the judge's quote with the experts' quote on matched flaws; null when none matched. */
  quote_overlap: z.number().nullable(),
  n_quote_pairs: z.number().int(),
  /** Flaws the judge named that could not be used (a quote that is not exact, an unknown type). */
  n_unparseable_flaws: z.number().int()
})

export const flawMatchingSectionSchema = z.object({
  match_rule: z.string(),
  n_reference_items: z.number().int(),
  rows: z.array(flawMatchRowSchema)
})
export type FlawMatchingSection = z.infer<typeof flawMatchingSectionSchema>
export type FlawMatchRow = z.infer<typeof flawMatchRowSchema>
export type FlawMatchCell = z.infer<typeof flawMatchCellSchema>
