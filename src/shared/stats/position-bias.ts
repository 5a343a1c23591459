import type { PairwiseCall, TiePolicy } from './pairwise-types'
import { defined, undefinedBecause, type Estimate } from './types'

export type PositionConsistency = Estimate & {
  /** Pairs answered in both display orders with the same canonical verdict. */
  consistent: number
  /** Pairs answered in both display orders. */
  compared: number
  /** Pairs lacking an answer in at least one order (failed, unparseable, dropped tie, or never run). */
  incomplete: number
}

export type FirstPositionPreference = Estimate & {
  pickedFirst: number
  /** Answered calls: a choice, or a tie when ties are kept (a tie picks neither side). */
  answered: number
}

export type PositionBias = {
  consistency: PositionConsistency
  firstPositionPreference: FirstPositionPreference
  tiePolicy: TiePolicy
}

/**
 * Position statistics from runs in both display orders. Consistency: share of pairs whose canonical verdict is the
 * same in both orders. First-position preference: share of all answered calls that picked whichever side was shown
 * first (0.5 for a judge without position bias). A pair must have at most one call per display order; give
 * repeated runs distinct item ids.
 */
export function positionBias<L extends string>(calls: readonly PairwiseCall<L>[], ties: TiePolicy = 'kept'): PositionBias {
  let answered = 0
  let pickedFirst = 0
  const byPair = new Map<string, Map<L, string>>()
  for (const call of calls) {
    if (call.shownFirst === undefined) throw new RangeError(`call on pair ${call.itemId} does not say which side was shown first`)
    const orders = byPair.get(call.itemId) ?? new Map<L, string>()
    byPair.set(call.itemId, orders)
    const verdict = call.verdict
    const isAnswer = verdict.kind === 'choice' || (verdict.kind === 'tie' && ties === 'kept')
    if (!isAnswer) continue
    answered++
    if (verdict.kind === 'choice' && verdict.choice === call.shownFirst) pickedFirst++
    if (orders.has(call.shownFirst)) {
      throw new RangeError(`pair ${call.itemId} has two answered calls with ${call.shownFirst} shown first; give repeated runs distinct item ids`)
    }
    // A tie is its own canonical verdict; it cannot collide with a side because sides are keyed as 'choice:'.
    orders.set(call.shownFirst, verdict.kind === 'choice' ? `choice:${verdict.choice}` : 'tie')
  }

  let compared = 0
  let consistent = 0
  for (const orders of byPair.values()) {
    if (orders.size < 2) continue
    if (orders.size > 2) throw new RangeError('position consistency is defined for pairs of two sides')
    compared++
    const [first, second] = [...orders.values()]
    if (first === second) consistent++
  }
  const incomplete = byPair.size - compared
  const consistencyCounts = { consistent, compared, incomplete }
  const preferenceCounts = { pickedFirst, answered }
  return {
    consistency:
      compared === 0
        ? { ...undefinedBecause('no pair was answered in both display orders'), ...consistencyCounts }
        : { ...defined(consistent / compared), ...consistencyCounts },
    firstPositionPreference:
      answered === 0
        ? { ...undefinedBecause('no answered calls'), ...preferenceCounts }
        : { ...defined(pickedFirst / answered), ...preferenceCounts },
    tiePolicy: ties
  }
}
