import { describe, expect, it } from 'vitest'
import { positionBias, type PairwiseCall, type PairwiseVerdict, type PositionBias, type TiePolicy } from '../../../src/shared/stats'
import { defined, undefinedBecause, type Estimate } from '../../../src/shared/stats/types'

// The definition as first written (one map of display orders per pair), kept here as the reference.
type OrderVerdict = { kind: 'answer'; canonical: string; picked: 'first' | 'second' | 'neither' } | { kind: 'error' } | { kind: 'failed' }

/**
 * Position statistics from runs in both display orders. Consistency: share of pairs whose canonical verdict is the
 * same in both orders. First-position preference: share of all answered calls that picked whichever side was shown
 * first (0.5 for a judge without position bias). A pair must have at most one call per display order; give
 * repeated runs distinct item ids.
 */
function referencePositionBias<L extends string>(calls: readonly PairwiseCall<L>[], ties: TiePolicy = 'kept'): PositionBias {
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
  const incomplete = byPair.size - compared
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

describe('position bias', () => {
  it('gives the reference figures and errors on random calls in both orders, with ties kept or dropped', () => {
    let state = 3
    const next = (bound: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return state % bound
    }
    const kinds = ['choice', 'choice', 'choice', 'tie', 'unparseable', 'failed'] as const
    const outcome = (run: () => PositionBias) => {
      try {
        return { result: run() }
      } catch (e) {
        return { error: (e as Error).message }
      }
    }
    for (let round = 0; round < 2000; round++) {
      const pairs = 1 + next(6)
      const calls: PairwiseCall<string>[] = Array.from({ length: next(14) }, () => {
        const kind = kinds[next(kinds.length)] as (typeof kinds)[number]
        const verdict: PairwiseVerdict<string> = kind === 'choice' ? { kind, choice: next(2) ? 'a' : 'b' } : { kind }
        // Now and then a third side shown first, which only the general route accepts (and then refuses).
        const shownFirst = round % 50 === 0 && next(8) === 0 ? 'c' : next(2) ? 'a' : 'b'
        return { itemId: `p${next(pairs)}`, label: 'a', verdict, shownFirst }
      })
      for (const ties of ['kept', 'dropped'] as TiePolicy[]) {
        expect(outcome(() => positionBias(calls, ties))).toEqual(outcome(() => referencePositionBias(calls, ties)))
      }
    }
  })
})
