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

/**
 * MT-Bench's partition of the pairs asked in both display orders (Zheng et al. 2023, §3.3 and Table 2): the same
 * verdict in both orders, the side shown first (or second) picked in both orders or in one order with a tie in the
 * other, or an unparseable answer in either order. The four shares add up to one.
 */
export type MtBenchPosition = {
  /** Pairs with a parsed or unparseable answer in both orders (the denominator of the four shares). */
  pairs: number
  consistent: number
  biasedFirst: number
  biasedSecond: number
  error: number
  consistency: Estimate
  biasedToFirst: Estimate
  biasedToSecond: Estimate
  errorRate: Estimate
}

export type PositionBias = {
  consistency: PositionConsistency
  firstPositionPreference: FirstPositionPreference
  mtBench: MtBenchPosition
  /**
   * Shi et al., "Judging the Judges" (arXiv:2406.07791), §3 (Preference Fairness): with pcn pairs preferring the
   * first position (primacy) and rcn the second (recency), PF_raw = rcn·rcn/(rcn+pcn) − pcn·pcn/(rcn+pcn), min–max
   * scaled from [−n, n] to [−1, 1] over the n pairs asked in both orders: 0 is fair, > 0 favours the second shown.
   */
  preferenceFairness: Estimate
  tiePolicy: TiePolicy
}

type OrderVerdict = { kind: 'answer'; canonical: string; picked: 'first' | 'second' | 'neither' } | { kind: 'error' } | { kind: 'failed' }

/**
 * Position statistics from runs in both display orders. Consistency: share of pairs whose canonical verdict is the
 * same in both orders. First-position preference: share of all answered calls that picked whichever side was shown
 * first (0.5 for a judge without position bias). A pair must have at most one call per display order; give
 * repeated runs distinct item ids.
 */
export function positionBias<L extends string>(calls: readonly PairwiseCall<L>[], ties: TiePolicy = 'kept'): PositionBias {
  let answered = 0
  let pickedFirst = 0
  // Per pair, the state of each display order in order of first appearance (a pair has two: the general route
  // below takes any pair with more).
  const byPair = new Map<string | number, PairOrders<L>>()
  for (const call of calls) {
    const shownFirst = call.shownFirst
    if (shownFirst === undefined) throw new RangeError(`call on pair ${call.itemId} does not say which side was shown first`)
    let orders = byPair.get(call.itemId)
    if (!orders) byPair.set(call.itemId, (orders = { first: shownFirst, firstHeld: NONE, firstChoice: undefined, second: undefined, secondHeld: NONE, secondChoice: undefined }))
    let slot: 0 | 1
    if (orders.first === shownFirst) slot = 0
    else if (orders.second === undefined || orders.second === shownFirst) {
      orders.second = shownFirst
      slot = 1
    } else return positionBiasByMaps(calls, ties)
    const held = slot === 0 ? orders.firstHeld : orders.secondHeld
    const verdict = call.verdict
    const isAnswer = verdict.kind === 'choice' || (verdict.kind === 'tie' && ties === 'kept')
    let next: number
    let choice: L | undefined
    if (!isAnswer) {
      // An answer in the same order outranks an unparseable or failed call; an unparseable one outranks a failure.
      if (held >= ERROR) continue
      if (verdict.kind === 'unparseable') next = ERROR
      else if (held === NONE) next = FAILED
      else continue
    } else {
      answered++
      if (verdict.kind === 'choice' && verdict.choice === shownFirst) pickedFirst++
      if (held >= TIE) {
        throw new RangeError(`pair ${call.itemId} has two answered calls with ${shownFirst} shown first; give repeated runs distinct item ids`)
      }
      if (verdict.kind === 'choice') {
        choice = verdict.choice
        next = verdict.choice === shownFirst ? PICKED_FIRST : PICKED_SECOND
      } else next = TIE
    }
    if (slot === 0) {
      orders.firstHeld = next
      orders.firstChoice = choice
    } else {
      orders.secondHeld = next
      orders.secondChoice = choice
    }
  }

  let compared = 0
  let consistent = 0
  const mt = { pairs: 0, consistent: 0, biasedFirst: 0, biasedSecond: 0, error: 0 }
  for (const orders of byPair.values()) {
    if (orders.second === undefined) continue
    const first = orders.firstHeld
    const second = orders.secondHeld
    if (first === FAILED || second === FAILED) continue
    mt.pairs++
    if (first === ERROR || second === ERROR) {
      mt.error++
      continue
    }
    compared++
    // The same canonical verdict: both ties, or the same side chosen.
    if (first === TIE ? second === TIE : second !== TIE && orders.firstChoice === orders.secondChoice) {
      consistent++
      mt.consistent++
      continue
    }
    // Inconsistent: a side shown first (second) picked in both orders, or in one with a tie in the other.
    const anyFirst = first === PICKED_FIRST || second === PICKED_FIRST
    const anySecond = first === PICKED_SECOND || second === PICKED_SECOND
    if (anyFirst && !anySecond) mt.biasedFirst++
    else if (anySecond && !anyFirst) mt.biasedSecond++
  }
  return positionFigures(byPair.size, compared, consistent, answered, pickedFirst, mt, ties)
}

/** What one display order of a pair holds so far; an answer outranks an unparseable call, which outranks a failure. */
const NONE = 0
const FAILED = 1
const ERROR = 2
const TIE = 3
const PICKED_FIRST = 4
const PICKED_SECOND = 5

interface PairOrders<L extends string> {
  first: L
  firstHeld: number
  firstChoice: L | undefined
  second: L | undefined
  secondHeld: number
  secondChoice: L | undefined
}

type MtCounts = { pairs: number; consistent: number; biasedFirst: number; biasedSecond: number; error: number }

/** The same statistics by one map of display orders per pair: for pairs shown with more than two sides first. */
function positionBiasByMaps<L extends string>(calls: readonly PairwiseCall<L>[], ties: TiePolicy = 'kept'): PositionBias {
  let answered = 0
  let pickedFirst = 0
  const byPair = new Map<string | number, Map<L, OrderVerdict>>()
  for (const call of calls) {
    if (call.shownFirst === undefined) throw new RangeError(`call on pair ${call.itemId} does not say which side was shown first`)
    const orders = byPair.get(call.itemId) ?? new Map<L, OrderVerdict>()
    byPair.set(call.itemId, orders)
    const verdict = call.verdict
    const isAnswer = verdict.kind === 'choice' || (verdict.kind === 'tie' && ties === 'kept')
    const held = orders.get(call.shownFirst)
    if (!isAnswer) {
      // An answer in the same order outranks an unparseable or failed call; an unparseable one outranks a failure.
      if (held?.kind === 'answer' || held?.kind === 'error') continue
      if (verdict.kind === 'unparseable') orders.set(call.shownFirst, { kind: 'error' })
      else if (!held) orders.set(call.shownFirst, { kind: 'failed' })
      continue
    }
    answered++
    if (verdict.kind === 'choice' && verdict.choice === call.shownFirst) pickedFirst++
    if (held?.kind === 'answer') {
      throw new RangeError(`pair ${call.itemId} has two answered calls with ${call.shownFirst} shown first; give repeated runs distinct item ids`)
    }
    // A tie is its own canonical verdict; it cannot collide with a side because sides are keyed as 'choice:'.
    orders.set(
      call.shownFirst,
      verdict.kind === 'choice'
        ? { kind: 'answer', canonical: `choice:${verdict.choice}`, picked: verdict.choice === call.shownFirst ? 'first' : 'second' }
        : { kind: 'answer', canonical: 'tie', picked: 'neither' }
    )
  }

  let compared = 0
  let consistent = 0
  const mt = { pairs: 0, consistent: 0, biasedFirst: 0, biasedSecond: 0, error: 0 }
  for (const orders of byPair.values()) {
    if (orders.size > 2) throw new RangeError('position consistency is defined for pairs of two sides')
    if (orders.size < 2) continue
    const [first, second] = [...orders.values()] as [OrderVerdict, OrderVerdict]
    if (first.kind === 'failed' || second.kind === 'failed') continue
    mt.pairs++
    if (first.kind === 'error' || second.kind === 'error') {
      mt.error++
      continue
    }
    compared++
    if (first.canonical === second.canonical) {
      consistent++
      mt.consistent++
      continue
    }
    // Inconsistent: a side shown first (second) picked in both orders, or in one with a tie in the other.
    const picks = new Set([first.picked, second.picked])
    if (picks.has('first') && !picks.has('second')) mt.biasedFirst++
    else if (picks.has('second') && !picks.has('first')) mt.biasedSecond++
  }
  return positionFigures(byPair.size, compared, consistent, answered, pickedFirst, mt, ties)
}

function positionFigures(pairCount: number, compared: number, consistent: number, answered: number, pickedFirst: number, mt: MtCounts, ties: TiePolicy): PositionBias {
  const incomplete = pairCount - compared
  const consistencyCounts = { consistent, compared, incomplete }
  const preferenceCounts = { pickedFirst, answered }
  const share = (k: number): Estimate => (mt.pairs === 0 ? undefinedBecause('no pair was asked in both display orders') : defined(k / mt.pairs))
  const valid = mt.biasedFirst + mt.biasedSecond
  const raw = valid === 0 ? 0 : (mt.biasedSecond * mt.biasedSecond - mt.biasedFirst * mt.biasedFirst) / valid
  return {
    consistency:
      compared === 0
        ? { ...undefinedBecause('no pair was answered in both display orders'), ...consistencyCounts }
        : { ...defined(consistent / compared), ...consistencyCounts },
    firstPositionPreference:
      answered === 0
        ? { ...undefinedBecause('no answered calls'), ...preferenceCounts }
        : { ...defined(pickedFirst / answered), ...preferenceCounts },
    mtBench: {
      ...mt,
      consistency: share(mt.consistent),
      biasedToFirst: share(mt.biasedFirst),
      biasedToSecond: share(mt.biasedSecond),
      errorRate: share(mt.error)
    },
    // (raw − (−n)) / (n − (−n)) · 2 − 1 = raw / n.
    preferenceFairness: mt.pairs === 0 ? undefinedBecause('no pair was asked in both display orders') : defined(raw / mt.pairs),
    tiePolicy: ties
  }
}
