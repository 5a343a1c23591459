import { z } from 'zod'

/**
 * The summary cards at the top of a report: one per judge source and instrument field, each answering "can I trust
 * this judge on this field?" from figures computed elsewhere in the report (never a second computation), so a card
 * and the table it summarises cannot disagree. Documented in docs/report-json.md (Summary).
 */

const stat = z.number().nullable()
const count = z.number().int().nonnegative()

/** A figure with its interval: `ci_method` names how the interval was made ('wilson', 'cluster bootstrap (percentile)', ...). */
export const summaryFigureSchema = z.object({
  value: stat,
  ci_low: stat,
  ci_high: stat,
  ci_method: z.string().nullable(),
  reason: z.string().optional()
})

export const SUMMARY_VERDICTS = [
  'below_majority_baseline',
  'at_or_above_majority_baseline',
  /** Half or more of the judged answers could not be read (each counted as not correct). */
  'mostly_unreadable',
  'above_human_ceiling',
  'within_human_ceiling',
  'below_human_ceiling',
  'no_human_ceiling',
  'position_inconsistent',
  'misses_fatal_flaws',
  'too_few_items',
  'unreliable_interval'
] as const

export const summaryCardSchema = z.object({
  /** The judge source (a run, an imported model, a panel). */
  source: z.string(),
  source_name: z.string(),
  /** The instrument field the card is about (for pairwise instruments `winner`). */
  field: z.string(),
  level: z.string(),
  /** The criterion accuracy is scored against: the first criterion that labels this field. */
  criterion: z.string().nullable(),
  criterion_name: z.string().nullable(),
  /** Items behind the accuracy (the resampling unit) and units (item × unit of the instrument). */
  n_items: count,
  n_units: count,
  /** Cards on a field's table: units the judge answered without a value (a split vote, a tie), not judged (its n_no_value). */
  n_without_value: count.optional(),
  /** Nominal and ordinal fields: accuracy with the interval over items; interval fields: null with a reason. */
  accuracy: summaryFigureSchema.extend({
    /** What the accuracy counts: correct over judged units (or calls, for the pairwise table) against the criterion. */
    definition: z.string().nullable()
  }),
  majority_baseline: stat,
  majority_label: z.array(z.union([z.string(), z.number(), z.boolean()])),
  random_baseline: stat,
  /** Chance-corrected agreement with people: the judge against the human majority on this field. */
  agreement: summaryFigureSchema.extend({
    /** The statistic, by measurement level: cohen_kappa (nominal), weighted_kappa_quadratic (ordinal), krippendorff_alpha (interval, ratio). */
    statistic: z.string(),
    /** The human majority the judge is compared with. */
    against: z.string().nullable(),
    /** What the agreement counts: the statistic against the human majority and on how many units. */
    definition: z.string().nullable()
  }),
  /**
   * The human ceiling on the same statistic: each annotator against the majority of the other annotators, averaged
   * over annotators (range beside it). Null where fewer than two annotators answered the field.
   */
  human_ceiling: z
    .object({
      statistic: z.string(),
      rule: z.literal('each annotator against the majority of the other annotators'),
      value: stat,
      min: stat,
      max: stat,
      n_annotators: count,
      n_undefined: count.optional(),
      reason: z.string().optional()
    })
    .nullable(),
  /** Pairwise instruments, runs asked in both display orders only (see pairwise.position). */
  position: z
    .object({
      /** Pairs answered in both orders: the denominator of the biases (MT-Bench). */
      n_pairs: count,
      /** Pairs read in both orders (errors left out): the denominator of the consistency (Shi et al. 2024). */
      n_compared: count,
      consistency: stat,
      biased_to_first: stat,
      biased_to_second: stat,
      preference_fairness: stat
    })
    .nullable(),
  /** Pairwise instruments with fatal-flaw audits: how often the verdict went against the proposal people marked fatal. */
  fatal_flaw_recall: summaryFigureSchema.extend({ n: count, n_no_value: count, n_unanswered: count }).nullable(),
  flags: z.object({
    /** Fewer than `settings.min_items_for_interval` items behind the accuracy. */
    too_few_items: z.boolean(),
    /** A bootstrap interval on the card where more than 10% of resamples were undefined. */
    unreliable_interval: z.boolean(),
    /** The largest share of undefined resamples among the card's bootstrap intervals (null without any). */
    undefined_resample_share: stat
  }),
  /** Machine-readable verdicts in reading order, and the plain-language line made from them. */
  verdicts: z.array(z.enum(SUMMARY_VERDICTS)),
  verdict: z.string()
})
export type ReportSummaryCard = z.infer<typeof summaryCardSchema>
