import { z } from 'zod'
import { SOURCE_KINDS } from './input'
import { summaryCardSchema } from './summary-schema'
import { category, count, intervalSchema, perLabelSchema, reasons, stat } from './schema-parts'
import { pairwiseSchema } from './pairwise-schema'
import { calibrationRowSchema, estimatesSectionSchema } from '../calibrate/schema'
import { ideaOriginalitySectionSchema } from './idea-originality-schema'
import { probesSectionSchema } from './probes-schema'
import { flawMatchingSectionSchema } from './flaw-matching-schema'

/**
 * The report JSON: what `assay report --json` prints, what `report.build` returns and what the HTML report and the
 * report screen draw. Statistics are snake_case numbers; a statistic undefined on the data is null with an entry of
 * the same name in `reasons`; a statistic that does not apply to a field's level is absent.
 * Documented field by field in docs/report-json.md.
 */

export const REPORT_SCHEMA_VERSION = 'assay.report/1'

export * from './schema-parts'
export * from './pairwise-schema'

export const sourceSchema = z.object({
  id: z.string(),
  kind: z.enum(SOURCE_KINDS),
  name: z.string(),
  role: z.enum(['criterion', 'judge', 'human']),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** Items of the report's scope this source was asked about (has any answer row for). */
  n_items: count,
  n_calls: count,
  n_answered: count,
  n_failed: count,
  n_unparseable: count,
  n_abstained: count,
  n_pending: count,
  /** Unit values left undecided because trials (or display orders) split evenly. */
  n_tied_votes: count,
  /** Every comparison of this source rests on fewer than `settings.min_items_for_interval` items. */
  too_few_items: z.boolean(),
  /** Some bootstrap interval of this source had more than 10% undefined resamples; the largest share beside it. */
  unreliable_interval: z.boolean(),
  undefined_resample_share: stat,
  /** A judge with no answer to score (every call failed, or none finished): listed, left out of every comparison. */
  left_out: z.object({ status: z.enum(['failed', 'empty', 'not_chosen']), reason: z.string() }).optional()
})
export type ReportSource = z.infer<typeof sourceSchema>

export const reliabilityBinSchema = z.object({
  lower: z.number(),
  upper: z.number(),
  count: count,
  mean_predicted: z.number(),
  observed_frequency: z.number()
})

export const confusionSchema = z.object({
  /** Rows: the criterion's category; columns: the source's. */
  categories: z.array(category),
  counts: z.array(z.array(count))
})

/** One source scored against one criterion on one field. */
export const comparisonSchema = z.object({
  field: z.string(),
  level: z.string(),
  source: z.string(),
  criterion: z.string(),
  /** Units the criterion has a value for and the source was asked about. */
  n_in_scope: count,
  /** Units the source answered or returned unparseable (unparseable counts as not correct). */
  n_judged: count,
  /** Units both gave a value for: the n of every agreement statistic. */
  n: count,
  /** Items those units belong to: the resampling unit of the bootstrap. */
  n_items: count,
  n_failed: count,
  n_unparseable: count,
  n_abstained: count,
  n_pending: count,
  /** Answered, but no value for this unit (a tied vote, an abstention in one field). */
  n_no_value: count,
  /** Units the criterion has a value for that the source was never asked about (outside every denominator). */
  n_not_asked: count,
  /**
   * A human majority only: units its annotators split evenly on, left out of the comparison (the ties policy),
   * outside every denominator, never counted as wrong.
   */
  n_tied_votes: count.optional(),
  /**
   * A source whose tie is its answer (a both-orders fit): units it answered with a tie, judged and never correct (the
   * ties policy), as its pairwise row counts them.
   */
  n_ties: count.optional(),
  /**
   * An annotator against the human majority is scored against the majority of the other annotators (never one it is
   * part of): a criterion with values of its own, so its units differ from the majority's.
   */
  criterion_form: z.literal('majority_of_others').optional(),
  correct: count.optional(),
  accuracy: stat.optional(),
  accuracy_of_all: stat.optional(),
  majority_baseline: stat.optional(),
  majority_label: z.array(category).optional(),
  random_baseline: stat.optional(),
  below_majority_baseline: z.boolean().nullable().optional(),
  cohen_kappa: stat.optional(),
  /** Asymptotic standard errors (Fleiss, Cohen & Everitt 1969), with normal intervals under ci.<statistic>_asymptotic. */
  cohen_kappa_se: stat.optional(),
  /** Scott's pi: Fleiss' kappa of the two sources (chance agreement from the pooled margins). */
  scott_pi: stat.optional(),
  gwet_ac1: stat.optional(),
  weighted_kappa_linear: stat.optional(),
  weighted_kappa_quadratic: stat.optional(),
  weighted_kappa_quadratic_se: stat.optional(),
  krippendorff_alpha_nominal: stat.optional(),
  krippendorff_alpha_ordinal: stat.optional(),
  krippendorff_alpha_interval: stat.optional(),
  krippendorff_alpha_ratio: stat.optional(),
  spearman: stat.optional(),
  kendall_tau_b: stat.optional(),
  kendall_p: stat.optional(),
  mean_abs_diff: stat.optional(),
  mean_diff: stat.optional(),
  pearson: stat.optional(),
  brier: stat.optional(),
  log_loss: stat.optional(),
  /** Expected calibration error over settings.ece_bins equal-width bins, and over as many quantile bins. */
  ece: stat.optional(),
  ece_quantile: stat.optional(),
  auroc: stat.optional(),
  n_positive: count.optional(),
  n_negative: count.optional(),
  /** The binary outcome a probability is scored against, e.g. "same_study of the criterion". */
  outcome: z.string().optional(),
  reliability: z.array(reliabilityBinSchema).optional(),
  confusion: confusionSchema.optional(),
  per_label: z.array(perLabelSchema).optional(),
  ci: z.record(z.string(), intervalSchema),
  reasons
})
export type ReportComparison = z.infer<typeof comparisonSchema>

/** Mean of a statistic over rater pairs, with the number of pairs it was defined for. */
export const meanOverPairsSchema = z.object({ value: stat, n_pairs: count, reason: z.string().optional() })

export const pairAgreementSchema = z.object({
  first: z.string(),
  second: z.string(),
  n: count,
  stats: z.record(z.string(), stat),
  reasons
})

/**
 * Each annotator against the majority of the others, per statistic: the human ceiling the summary cards cite.
 * n_annotators: those the statistic is defined for, averaged; n_undefined: those it is not (a constant majority of the
 * others, or too few annotators to compare).
 */
export const againstOthersSchema = z.object({ value: stat, min: stat, max: stat, n_annotators: count, n_undefined: count.optional(), reason: z.string().optional() })

/** A judge against the human majority, per statistic: the field table's figure, cited (the summary cards' agreement). */
export const againstMajoritySchema = z.object({ value: stat, n: count, reason: z.string().optional() })

export const ceilingSchema = z.object({
  field: z.string(),
  level: z.string(),
  /** The statistics averaged over pairs, in table order. */
  statistics: z.array(z.string()),
  n_annotators: count,
  /** What each kind of figure below counts: its definition and denominator, stated beside the numbers. */
  definitions: z.object({
    annotator_pairs: z.string(),
    all_annotators: z.string(),
    against_majority_of_others: z.string(),
    judge_with_each_annotator: z.string(),
    judge_against_majority: z.string()
  }),
  human_human: z.object({
    n_pairs: count,
    mean: z.record(z.string(), meanOverPairsSchema),
    pairs: z.array(pairAgreementSchema),
    /** Each annotator against the majority of the other annotators (the field table's rows), averaged over annotators. */
    against_majority_of_others: z.record(z.string(), againstOthersSchema),
    /** Every annotator at once: Fleiss' kappa (missing raters allowed) and Krippendorff's alpha at the field's level and each lower one. */
    fleiss_kappa: stat.optional(),
    /** Gwet's AC1 over every annotator, with the observed and chance agreement of both coefficients (irrCAC). */
    gwet_ac1: stat.optional(),
    fleiss_kappa_p_a: stat.optional(),
    fleiss_kappa_p_e: stat.optional(),
    gwet_ac1_p_a: stat.optional(),
    gwet_ac1_p_e: stat.optional(),
    krippendorff_alpha_nominal: stat.optional(),
    krippendorff_alpha_ordinal: stat.optional(),
    krippendorff_alpha_interval: stat.optional(),
    krippendorff_alpha_ratio: stat.optional(),
    n_items: count,
    reasons
  }),
  judge_human: z.array(
    z.object({
      source: z.string(),
      n_pairs: count,
      mean: z.record(z.string(), meanOverPairsSchema),
      pairs: z.array(pairAgreementSchema),
      /** The judge against the human majority (the field table's row), absent without a human majority on the field. */
      against_majority: z.record(z.string(), againstMajoritySchema)
    })
  )
})
export type ReportCeiling = z.infer<typeof ceilingSchema>

export const judgeVsJudgeSchema = z.object({
  field: z.string(),
  criterion: z.string(),
  first: z.string(),
  second: z.string(),
  /** Units both judges have a value for and the criterion labels. */
  n: count,
  n_items: count,
  both_correct: count.optional(),
  only_first: count.optional(),
  only_second: count.optional(),
  both_wrong: count.optional(),
  mcnemar_p: stat.optional(),
  /** McNemar mid-p (Fagerland et al. 2013) beside the exact p. */
  mcnemar_mid_p: stat.optional(),
  /** The statistic compared: accuracy (nominal, ordinal) or mean_abs_diff (interval, probability). */
  statistic: z.string(),
  /** What first_value and second_value count: each judge on the shared units only, not on all of its own. */
  definition: z.string(),
  first_value: stat,
  second_value: stat,
  difference: stat,
  ci: z.record(z.string(), intervalSchema),
  reasons
})
export type ReportJudgeVsJudge = z.infer<typeof judgeVsJudgeSchema>

export const warningSchema = z.object({
  code: z.enum([
    'exposed_test_items',
    'below_majority_baseline',
    'too_few_items',
    'incomplete_run',
    'no_criterion',
    'no_human_ceiling',
    'mixed_instrument_versions',
    'invalid_stored_answers',
    'unverified_checks',
    'left_out_source',
    'fit_warning'
  ]),
  message: z.string(),
  source: z.string().optional(),
  criterion: z.string().optional(),
  field: z.string().optional()
})
export type ReportWarning = z.infer<typeof warningSchema>

export const fieldReportSchema = z.object({
  name: z.string(),
  label: z.string(),
  level: z.string(),
  categories: z.array(category).nullable(),
  /** What the table's n_in_scope, n_judged and n count (units, beside the pairwise table's calls). */
  unit: z.string(),
  comparisons: z.array(comparisonSchema)
})

export const reportSchema = z.object({
  schema: z.literal(REPORT_SCHEMA_VERSION),
  generated_at: z.string(),
  project: z.object({ name: z.string(), id: z.string() }),
  instrument: z.object({
    id: z.string(),
    title: z.string(),
    item_kind: z.string(),
    versions: z.array(z.number().int())
  }),
  scope: z.object({
    split: z.string(),
    n_items: count,
    n_test_items: count,
    n_exposed_test_items: count,
    exposure_kinds: z.record(z.string(), count),
    sets: z.array(z.string())
  }),
  settings: z.object({
    level: z.number(),
    bootstrap: z.object({
      resamples: count,
      seed: count,
      generator: z.string(),
      method: z.string(),
      resampling_unit: z.literal('item')
    }),
    min_items_for_interval: count,
    ece_bins: count,
    /** Probabilities are clipped to [ε, 1 − ε] before the log loss. */
    log_loss_epsilon: z.number(),
    aggregation: z.string(),
    /** How an even split among people is treated in every table that scores against a human majority. */
    ties_policy: z.string(),
    panel_rule: z.string().nullable()
  }),
  /** One card per judge source and field, at the top of the report. */
  summary: z.array(summaryCardSchema),
  sources: z.array(sourceSchema),
  criteria: z.array(z.string()),
  fields: z.array(fieldReportSchema),
  pairwise: pairwiseSchema.nullable(),
  ceiling: z.array(ceilingSchema),
  judge_vs_judge: z.array(judgeVsJudgeSchema),
  /** Stored recalibrations evaluated on their eval split (present when the project has fits). */
  calibration: z.array(calibrationRowSchema).optional(),
  /** PPI and Rogan–Gladen estimates (present when a judge labels units no criterion labels). */
  estimates: estimatesSectionSchema.optional(),
  /** Originality of generated ideas the generator chose beside those it excluded (present for generated ideas). */
  idea_originality: ideaOriginalitySectionSchema.optional(),
  /** Flaw audits of judges against the experts' by type and severity (flaw-audit reports with judges). */
  flaw_matching: flawMatchingSectionSchema.optional(),
  /** Detection of planted flaws on verified original-vs-probe pairs (present where the items include probes). */
  probes: probesSectionSchema.optional(),
  warnings: z.array(warningSchema)
})
export type Report = z.infer<typeof reportSchema>
export type ReportFieldSection = z.infer<typeof fieldReportSchema>
