import { z } from 'zod'
import { judgeFlawAuditRowSchema } from './fatal-flaw-audits-schema'
import { count, intervalSchema, perLabelSchema, reasons, stat } from './schema-parts'

/** The pairwise section of the report: verdicts on proposal pairs. Documented in docs/report-json.md (Pairwise). */

export const subsetSchema = z.object({
  by: z.enum(['label', 'set', 'probe', 'label_source']),
  value: z.string(),
  n_judged: count,
  correct: count,
  accuracy: stat,
  ci_low: stat,
  ci_high: stat
})

/** Position statistics of a source asked in both display orders (absent for one-order runs). */
export const positionSchema = z.object({
  source: z.string(),
  /** Shi et al. 2024 position consistency: pairs with the same verdict in both orders / pairs answered in both. */
  position_consistency: stat,
  /** Wang et al. 2023 conflict rate = 1 − position_consistency. */
  conflict_rate: stat,
  n_compared: count,
  n_consistent: count,
  /** Pairs lacking an answer in one order (failed, pending, abstained or asked in one order only). */
  n_incomplete: count,
  /** MT-Bench (Zheng et al. 2023, Table 2): over pairs with a finished answer in both orders; the four add up to 1. */
  n_pairs: count,
  mt_bench_consistency: stat,
  biased_to_first: stat,
  biased_to_second: stat,
  error_rate: stat,
  n_biased_first: count,
  n_biased_second: count,
  n_error: count,
  /** Shi et al. 2024, §3 preference fairness in [−1, 1]: 0 fair, negative favours the first shown, positive the second. */
  preference_fairness: stat,
  first_position_preference: stat,
  n_answered: count,
  n_picked_first: count,
  ci: z.record(z.string(), intervalSchema),
  reasons
})

export const pairwiseRowSchema = z.object({
  source: z.string(),
  criterion: z.string(),
  /** Calls (one per item, display order and vote over trials) on items the criterion labels. */
  n_in_scope: count,
  n_judged: count,
  n_failed: count,
  n_unparseable: count,
  n_abstained: count,
  n_pending: count,
  n_ties: count,
  /** A human majority only: pairs its annotators split evenly on, left out of the row (the ties policy), as in the field tables. */
  n_tied_votes: count.optional(),
  n_items: count,
  correct: count,
  accuracy: stat,
  accuracy_of_all: stat,
  /** Ties dropped from both denominators (present when the source gave ties). */
  accuracy_ties_dropped: stat.optional(),
  majority_baseline: stat,
  majority_label: z.array(z.string()),
  label_counts: z.record(z.string(), count),
  /** Present when this row's baseline is counted in other terms than the report's label_terms: chosen on the row's own judged items. */
  baseline_terms: z.enum(['origin', 'side']).optional(),
  random_baseline: stat,
  below_majority_baseline: z.boolean().nullable(),
  /** Per label in the report's label_terms (kept for tables); the two frames below never switch with the data. */
  per_label: z.array(perLabelSchema),
  /** Per canonical side: always a, then b. */
  per_label_side: z.array(perLabelSchema),
  /** Per origin: always human, then ai; empty unless every labelled pair sets a human proposal against an AI one. */
  per_label_origin: z.array(perLabelSchema),
  subsets: z.array(subsetSchema),
  ci: z.record(z.string(), intervalSchema),
  reasons
})
export type ReportPairwiseRow = z.infer<typeof pairwiseRowSchema>

export const strengthSchema = z.object({ player: z.string(), strength: stat, ci_low: stat, ci_high: stat, undefined_resamples: count })
export const winRateSchema = z.object({
  system: z.string(),
  wins: count,
  ties: count,
  losses: count,
  missing: count,
  m: count,
  win_rate: stat,
  win_rate_of_judged: stat,
  cohorts: count
})

export const systemsSchema = z.object({
  source: z.string(),
  players: z.array(z.string()),
  n_comparisons: count,
  bradley_terry: z.array(strengthSchema),
  win_rates: z.array(winRateSchema),
  reasons
})

export const fatalFlawSchema = z.object({
  source: z.string(),
  /** Proposals people marked with a fatal flaw where the other side of the pair was not so marked, on pairs the source was asked. */
  n_fatal: count,
  /** Of n_fatal: pairs with a verdict, and pairs answered unparseably or with a tie the source gave (not ruled against). */
  n_judged: count,
  n_ruled_against: count,
  /** Of n_fatal, not judged: answered without a verdict (display orders or trials split). */
  n_no_value: count,
  /** Of n_fatal, not judged: failed, pending or abstained. */
  n_unanswered: count,
  fatal_flaw_recall: stat,
  /** Pairs where people marked both proposals fatal: left out, since any verdict rules against one. */
  n_both_fatal: count,
  /** Where the judge lists fatal flaws itself: how often it named one on that proposal. */
  n_named_judged: count.optional(),
  n_named: count.optional(),
  fatal_flaw_named_recall: stat.optional(),
  ci: z.record(z.string(), intervalSchema),
  reasons
})

/**
 * Judge–human agreement in the forms the literature reports, so Assay's figures can be set beside published ones.
 * One row per judge, and one for people ("human-human"); each figure with its number of comparisons.
 */
export const publishedAgreementSchema = z.object({
  /** A judge source, or "human-human" for people among themselves. */
  source: z.string(),
  /** MT-Bench S1 (Zheng et al. 2023): every judge vote against every human vote on the same pair, ties kept; a verdict that changes with the display order counts as a tie. */
  mt_bench_s1: stat,
  n_mt_bench_s1: count,
  /** MT-Bench S2: as S1 with every comparison where either side says tie dropped. */
  mt_bench_s2: stat,
  n_mt_bench_s2: count,
  /** AlpacaEval: each vote against the majority of the other annotators' votes on the pair (leave one annotator out). */
  alpaca_eval_agreement: stat,
  n_alpaca_eval: count,
  /** JudgeBench (judges asked in both orders): +1 per order right, −1 per order wrong; a pair counts as correct when the sum is > 0. */
  judgebench_accuracy: stat.optional(),
  n_judgebench: count.optional(),
  /** The criterion JudgeBench's accuracy is scored against. */
  judgebench_criterion: z.string().nullable().optional(),
  reasons
})

/** Chance level of each published rule, stated once. */
export const PUBLISHED_CHANCE = {
  mt_bench_s1: 1 / 3,
  mt_bench_s2: 1 / 2,
  alpaca_eval_agreement: 1 / 2,
  judgebench_accuracy: 1 / 4
} as const
export const publishedChanceSchema = z.object({
  mt_bench_s1: z.number(),
  mt_bench_s2: z.number(),
  alpaca_eval_agreement: z.number(),
  judgebench_accuracy: z.number()
})

export const pairwiseSchema = z.object({
  /** 'origin' when every labelled pair sets a human proposal against an AI one, else 'side' (a/b). */
  label_terms: z.enum(['origin', 'side']),
  labels: z.array(z.string()),
  /** What the rows' n_in_scope, n_judged, n_ties and accuracy count (calls, beside the field tables' units). */
  unit: z.string(),
  rows: z.array(pairwiseRowSchema),
  /** Per source, over all its calls that recorded the display order (independent of any criterion). */
  position: z.array(positionSchema),
  systems: z.array(systemsSchema),
  fatal_flaws: z.array(fatalFlawSchema),
  n_fatal_flaw_audits: count,
  /** Judges asked the flaw audit itself on the same pairs: how often their audit marked the proposal people marked fatal. */
  judge_flaw_audits: z.array(judgeFlawAuditRowSchema).optional(),
  /** Agreement in the published forms (MT-Bench S1/S2, AlpacaEval, JudgeBench), with the chance level of each rule. */
  published_agreement: z.array(publishedAgreementSchema),
  published_chance: publishedChanceSchema
})
export type ReportPairwise = z.infer<typeof pairwiseSchema>

