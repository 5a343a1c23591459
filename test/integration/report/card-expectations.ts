import type { ReportInterval } from '../../../src/shared/report'

// What a card is expected to show of its row, worked out in the tests from the rule the report states (summary.ts),
// not from its code: the checks of cards against their sections share these.

/** A row's statistic as a number, or null. */
export const num = (row: object, name: string): number | null => {
  const v = (row as Record<string, unknown>)[name]
  return typeof v === 'number' ? v : null
}

/** The accuracy interval the report recommends at a row's size: the bootstrap from the minimum of items up, Wilson below. */
export function recommended(ci: Record<string, ReportInterval>, nItems: number, minItems: number): ReportInterval | undefined {
  const boot = ci.accuracy_bootstrap
  return boot && boot.ci_low !== null && nItems >= minItems ? boot : ci.accuracy
}

/**
 * The agreement interval a card shows: below the minimum of items the asymptotic one where the statistic has one
 * (`small`), else its bootstrap.
 */
export function recommendedAgreement(ci: Record<string, ReportInterval>, statistic: string, nItems: number, minItems: number): { interval: ReportInterval | undefined; small: boolean } {
  const asymptotic = ci[`${statistic}_asymptotic`]
  const small = nItems < minItems && asymptotic !== undefined && asymptotic.ci_low !== null
  return { interval: small ? asymptotic : ci[statistic], small }
}
