import { z } from 'zod'

// The judges' own flaw audits in a pairwise report's fatal-flaw section (computed in fatal-flaw-audits.ts): a schema
// apart from the computation, so the contract, and every screen that loads it, carries no statistics.

export const judgeFlawAuditRowSchema = z.object({
  source: z.string(),
  name: z.string(),
  /** Proposals people marked fatal, the other one not, that this judge audited (its answer read, or unparseable). */
  n_fatal: z.number().int(),
  /** Of n_fatal: audits that could not be read, judged as naming nothing (as every table judges an unparseable answer). */
  n_unparseable: z.number().int(),
  /** Proposals people marked fatal, the other one not, that this judge was asked but never answered (failed, pending, abstained): not in n_fatal. */
  n_unanswered: z.number().int(),
  n_named: z.number().int(),
  recall: z.number().nullable(),
  recall_ci: z.tuple([z.number(), z.number()]).nullable(),
  /** Of those pairs, how often the judge marked the other (unmarked) proposal fatal. */
  n_other_side_fatal: z.number().int(),
  /** Pairs the judge audited in all (its answer read, or unparseable). */
  n_audited: z.number().int()
})
export type JudgeFlawAuditRow = z.infer<typeof judgeFlawAuditRowSchema>
