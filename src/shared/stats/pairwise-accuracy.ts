import { clusterBootstrap, groupRowsIntoUnits, type BootstrapInterval, type BootstrapOptions } from './bootstrap'
import type { PairwiseCall, TiePolicy } from './pairwise-types'
import { undefinedBecause, type Estimate, type IntervalEstimate } from './types'
import { wilsonInterval } from './wilson-interval'

export type PairwiseTally = {
  /** Calls counted in the "all" denominator: every call, less ties when ties are dropped. */
  total: number
  /** Calls that completed (answered, tied if kept, or unparseable): the "judged" denominator. */
  judged: number
  correct: number
  failed: number
  unparseable: number
  ties: number
  tiePolicy: TiePolicy
}

export function tallyPairwise<L extends string>(calls: readonly PairwiseCall<L>[], ties: TiePolicy = 'kept'): PairwiseTally {
  const tally: PairwiseTally = { total: 0, judged: 0, correct: 0, failed: 0, unparseable: 0, ties: 0, tiePolicy: ties }
  for (const call of calls) {
    const verdict = call.verdict
    if (verdict.kind === 'tie') {
      tally.ties++
      if (ties === 'dropped') continue
    }
    tally.total++
    if (verdict.kind === 'failed') {
      tally.failed++
      continue
    }
    tally.judged++
    if (verdict.kind === 'unparseable') tally.unparseable++
    if (verdict.kind === 'choice' && verdict.choice === call.label) tally.correct++
  }
  return tally
}

export type PairwiseAccuracy = PairwiseTally & {
  /** correct / judged, with a Wilson interval (which treats calls as independent). */
  ofJudged: IntervalEstimate
  /** correct / total: failed calls count as not correct. */
  ofAll: IntervalEstimate
  /** correct / judged with a cluster bootstrap over pairs, which stays honest when a pair has several calls. */
  bootstrapOfJudged: BootstrapInterval
}

export type PairwiseAccuracyOptions = {
  ties?: TiePolicy
  level?: number
  bootstrap?: Omit<BootstrapOptions, 'level'>
}

/** Accuracy of a judge against pair labels, with both denominators, Wilson and cluster-bootstrap intervals. */
export function pairwiseAccuracy<L extends string>(
  calls: readonly PairwiseCall<L>[],
  options: PairwiseAccuracyOptions = {}
): PairwiseAccuracy {
  const ties = options.ties ?? 'kept'
  const level = options.level ?? 0.95
  const tally = tallyPairwise(calls, ties)
  const units = groupRowsIntoUnits(calls, (call) => call.itemId)
  const bootstrapOfJudged = clusterBootstrap(
    units,
    (resample) => shareCorrectOfJudged(tallyPairwise(resample.flatMap((unit) => unit.rows), ties)),
    { ...options.bootstrap, level }
  )
  return {
    ...tally,
    ...wilsonIntervals(tally, level),
    bootstrapOfJudged
  }
}

function wilsonIntervals(tally: PairwiseTally, level: number): { ofJudged: IntervalEstimate; ofAll: IntervalEstimate } {
  const none = (reason: string): IntervalEstimate => ({ ...undefinedBecause(reason), lower: null, upper: null, level })
  return {
    ofJudged: tally.judged === 0 ? none('no completed calls') : wilsonInterval(tally.correct, tally.judged, level),
    ofAll: tally.total === 0 ? none('no calls') : wilsonInterval(tally.correct, tally.total, level)
  }
}

function shareCorrectOfJudged(tally: PairwiseTally): Estimate {
  return tally.judged === 0 ? undefinedBecause('no completed calls') : { value: tally.correct / tally.judged }
}

export type LabelSubsetAccuracy<L extends string> = PairwiseTally & {
  label: L
  ofJudged: IntervalEstimate
  ofAll: IntervalEstimate
}

/**
 * Accuracy within each label subset (e.g. pairs where the AI proposal is better, and those where the human one is),
 * which shows a judge that always picks one side. Declared labels appear even when no pair carries them.
 */
export function accuracyByLabel<L extends string>(
  calls: readonly PairwiseCall<L>[],
  labels?: readonly L[],
  options: { ties?: TiePolicy; level?: number } = {}
): LabelSubsetAccuracy<L>[] {
  const level = options.level ?? 0.95
  const subsetLabels = labels ?? [...new Set(calls.map((call) => call.label))]
  return subsetLabels.map((label) => {
    const tally = tallyPairwise(calls.filter((call) => call.label === label), options.ties ?? 'kept')
    return { label, ...tally, ...wilsonIntervals(tally, level) }
  })
}
