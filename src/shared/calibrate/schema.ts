import { z } from 'zod'

/**
 * Report sections of recalibration and of estimates corrected for judge error (`report.calibration`,
 * `report.estimates`): present when the project has fits, and when a judge labels units no person labelled.
 * Documented in docs/report-json.md.
 */

const stat = z.number().nullable()
const count = z.number().int().nonnegative()
const reasons = z.record(z.string(), z.string())

const differenceSchema = z.object({
  /** after − before on the same eval units. */
  difference: stat,
  method: z.literal('paired cluster bootstrap (percentile)'),
  level: z.number(),
  ci_low: stat,
  ci_high: stat,
  resamples: count,
  undefined_resamples: count,
  seed: count
})

const probabilityScoresSchema = z.object({ brier: stat, log_loss: stat, ece: stat })

export const calibrationRowSchema = z.object({
  fit_id: count,
  /** The fit as a source of the report (`fit:<id>`), beside its raw judge. */
  source: z.string(),
  raw_source: z.string(),
  method: z.string(),
  label: z.string(),
  criterion: z.string(),
  score_field: z.string(),
  target_field: z.string(),
  /** The positive outcome of a binary target (a category, or `>= k`); null for a scale target. */
  positive: z.string().nullable(),
  fit_split: z.string(),
  eval_split: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  fitted_at: z.string(),
  n_fit_items: count,
  n_fit_units: count,
  /**
   * False when a split made after the fit moved items it learned from: the row then gives no held-out figure
   * (`reasons.held_out` says why).
   */
  held_out: z.boolean(),
  /** Eval-split items never scored: the fit learned from them, or they were made from the same original (probes). */
  n_excluded_eval_items: count,
  /** Eval-split units the criterion labels and the raw judge was asked about. */
  n_eval_items: count,
  n_eval_units: count,
  /**
   * Few-shot and both-orders fits: eval units left out because a run gave no answer (failed, pending, abstained; for
   * both orders, in either display order): missing, not wrong.
   */
  n_unanswered_eval_units: count.optional(),
  /**
   * Score-based fits (Platt, isotonic, threshold): labelled eval units of items the raw judge was asked about that have
   * no score from it, left out of before and after alike (the field tables count an unreadable answer as judged and
   * wrong), and how many of each item status (`unparseable`, `failed`, `pending`, `abstained`, `no score given`).
   */
  n_unscored_eval_units: count.optional(),
  unscored_by_status: z.record(z.string(), count).optional(),
  n_exposed_eval_items: count,
  /** Both-orders only: verdicts each display order would change under the rule. */
  changes: z.object({ n_pairs: count, changed_first_order: count, changed_second_order: count, n_ties: count }).optional(),
  /** A probability of the target event before (the raw score rescaled to [0, 1]) and after the fit. */
  probability: z
    .object({
      n: count,
      before_mapping: z.string(),
      before: probabilityScoresSchema,
      after: probabilityScoresSchema,
      ece_bins: count,
      brier_difference: differenceSchema
    })
    .optional(),
  /** A decision (a category of the target field): accuracy of all eval units before and after, exact McNemar. */
  decision: z
    .object({
      n: count,
      before: z.string(),
      before_accuracy: stat,
      after_accuracy: stat,
      both_correct: count,
      only_before: count,
      only_after: count,
      both_wrong: count,
      mcnemar_p: stat,
      accuracy_difference: differenceSchema.nullable()
    })
    .optional(),
  /** A value on the human scale: mean absolute difference before (raw score) and after. */
  scale: z.object({ n: count, before_mad: stat, after_mad: stat, mad_difference: differenceSchema }).optional(),
  warnings: z.array(z.string()),
  reasons
})
export type CalibrationRow = z.infer<typeof calibrationRowSchema>

/** An estimate's figures before it was cut to the range of its quantity (present only where the cut changed one). */
const cutSchema = z.object({ range: z.tuple([z.number(), z.number()]), value: stat, ci_low: stat, ci_high: stat })
export type EstimateCut = z.infer<typeof cutSchema>

const meanSchema = z.object({ value: stat, se: stat, ci_low: stat, ci_high: stat, n: count, cut_to_range: cutSchema.optional(), reason: z.string().optional() })

export const estimateRowSchema = z.object({
  source: z.string(),
  criterion: z.string(),
  field: z.string(),
  /** What is estimated, e.g. "share of matched = true" or "mean of total". */
  quantity: z.string(),
  binary: z.boolean(),
  /** Units with a label from both the criterion and the judge (n), and units no person labelled that the judge did (N). */
  n_labelled: count,
  n_unlabelled: count,
  /** Judged units people labelled but the criterion gives no value (a tie, no adjudication): in neither n nor N. */
  n_left_out: count,
  /** Why those units have no criterion value, and the first of them by name (`item` or `item/unit`). */
  left_out: z.object({ reason: z.string(), units: z.array(z.string()) }).optional(),
  /** Says when the estimate's assumption (labelled units a random sample of the judged ones) does not hold. */
  warnings: z.array(z.string()),
  human_only: meanSchema,
  judge_only: meanSchema,
  ppi: meanSchema.extend({ lambda: stat }),
  ppi_plus_plus: meanSchema.extend({ lambda: stat }),
  rogan_gladen: z
    .object({
      value: stat,
      unclipped: stat,
      se: stat,
      ci_low: stat,
      ci_high: stat,
      positive_rate: stat,
      sensitivity: stat,
      specificity: stat,
      n_judged: count,
      n_labelled_positive: count,
      n_labelled_negative: count,
      method: z.string(),
      cut_to_range: cutSchema.optional(),
      reason: z.string().optional()
    })
    .optional()
})
export type EstimateRow = z.infer<typeof estimateRowSchema>

export const estimatesSectionSchema = z.object({
  level: z.number(),
  method: z.string(),
  warnings: z.array(z.string()),
  rows: z.array(estimateRowSchema)
})
export type EstimatesSection = z.infer<typeof estimatesSectionSchema>
