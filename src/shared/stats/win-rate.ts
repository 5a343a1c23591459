import { defined, undefinedBecause, type Estimate } from './types'

/** Result of one candidate against one reference proposal; 'missing' when that comparison has no usable verdict. */
export type ReferenceOutcome = 'win' | 'loss' | 'tie' | 'missing'

export type WinRate = Estimate & {
  wins: number
  ties: number
  losses: number
  missing: number
  /** m, the number of reference proposals: the denominator of value. */
  references: number
  /** Wins over the references that have a verdict (m less the missing ones). */
  ofJudged: Estimate
}

/**
 * Win rate of a candidate against m reference proposals: (wins + tieCredit·ties) / m, one outcome per reference.
 * A missing verdict stays in m as a non-win; ofJudged gives the rate over the judged references as well.
 */
export function winRateAgainstReferences(outcomes: readonly ReferenceOutcome[], tieCredit = 0.5): WinRate {
  if (!(tieCredit >= 0 && tieCredit <= 1)) throw new RangeError(`tie credit must lie in [0, 1] (${tieCredit})`)
  const count = (kind: ReferenceOutcome): number => outcomes.filter((outcome) => outcome === kind).length
  const tally = { wins: count('win'), ties: count('tie'), losses: count('loss'), missing: count('missing'), references: outcomes.length }
  const score = tally.wins + tieCredit * tally.ties
  const judged = tally.references - tally.missing
  const ofJudged = judged === 0 ? undefinedBecause('no reference comparison has a verdict') : defined(score / judged)
  if (tally.references === 0) return { ...undefinedBecause('no reference proposals'), ...tally, ofJudged }
  return { ...defined(score / tally.references), ...tally, ofJudged }
}
