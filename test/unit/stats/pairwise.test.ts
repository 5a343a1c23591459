import { describe, expect, it } from 'vitest'
import {
  accuracyByLabel,
  labelsPerItem,
  majorityLabelBaseline,
  pairwiseAccuracy,
  positionBias,
  randomBaseline,
  type PairwiseCall,
  type PairwiseVerdict
} from '../../../src/shared/stats'

type Side = 'human' | 'ai'
type AB = 'A' | 'B'

const choice = <L extends string>(side: L): PairwiseVerdict<L> => ({ kind: 'choice', choice: side })
const other = (side: Side): Side => (side === 'human' ? 'ai' : 'human')

/** count calls on distinct pairs labelled `label`, the first `correct` of them answered correctly. */
function pairsWith(prefix: string, label: Side, count: number, correct: number): PairwiseCall<Side>[] {
  return Array.from({ length: count }, (_, i) => ({
    itemId: `${prefix}-${i}`,
    label,
    verdict: choice(i < correct ? label : other(label))
  }))
}

// IdeaEval old human-vs-AI set (protocols.md §3): 18 AI-better pairs (15 right), 57 human-better pairs (22 right).
const ideaEvalOldSet = [...pairsWith('ai', 'ai', 18, 15), ...pairsWith('human', 'human', 57, 22)]

describe('pairwise accuracy denominators', () => {
  // 160 pairs: 95 correct, 52 wrong, 5 completed but unparseable (incorrect), 8 failed after their retries.
  const calls: PairwiseCall<AB>[] = Array.from({ length: 160 }, (_, i) => {
    const verdict: PairwiseVerdict<AB> =
      i < 95 ? choice('A') : i < 147 ? choice('B') : i < 152 ? { kind: 'unparseable' } : { kind: 'failed' }
    return { itemId: `pair-${i}`, label: 'A', verdict }
  })

  it('reports 95 of 152 judged = 0.625 and 95 of all 160 = 0.59375', () => {
    const result = pairwiseAccuracy(calls, { bootstrap: { resamples: 200, seed: 1 } })
    expect(result).toMatchObject({ correct: 95, judged: 152, total: 160, failed: 8, unparseable: 5, ties: 0 })
    expect(result.ofJudged.value).toBe(0.625)
    expect(result.ofAll.value).toBe(0.59375)
    expect(result.ofJudged.lower).toBeLessThan(0.625)
    expect(result.ofJudged.upper).toBeGreaterThan(0.625)
    expect(result.bootstrapOfJudged.point.value).toBe(0.625)
    expect(result.bootstrapOfJudged).toMatchObject({ resamples: 200, seed: 1 })
  })

  it('keeps ties as incorrect or drops them from both denominators', () => {
    const verdicts: PairwiseVerdict<AB>[] = [
      ...Array.from({ length: 6 }, () => choice<AB>('A')),
      choice<AB>('B'),
      choice<AB>('B'),
      { kind: 'tie' },
      { kind: 'tie' }
    ]
    const withTies = verdicts.map((verdict, i): PairwiseCall<AB> => ({ itemId: `t${i}`, label: 'A', verdict }))
    const kept = pairwiseAccuracy(withTies, { ties: 'kept', bootstrap: { resamples: 50 } })
    const dropped = pairwiseAccuracy(withTies, { ties: 'dropped', bootstrap: { resamples: 50 } })
    expect(kept).toMatchObject({ ofJudged: { value: 0.6 }, judged: 10, ties: 2, tiePolicy: 'kept' })
    expect(dropped).toMatchObject({ ofJudged: { value: 0.75 }, judged: 8, total: 8, ties: 2, tiePolicy: 'dropped' })
  })

  it('resamples pairs, not calls, when a pair was judged in both orders', () => {
    const bothOrders = ideaEvalOldSet.flatMap((call) => [call, { ...call }])
    const once = pairwiseAccuracy(ideaEvalOldSet, { bootstrap: { seed: 9, resamples: 1000 } })
    const twice = pairwiseAccuracy(bothOrders, { bootstrap: { seed: 9, resamples: 1000 } })
    // Duplicated calls carry no new evidence: the clustered interval is unchanged, while Wilson (per call) narrows.
    expect([twice.bootstrapOfJudged.lower, twice.bootstrapOfJudged.upper]).toEqual([once.bootstrapOfJudged.lower, once.bootstrapOfJudged.upper])
    expect((twice.ofJudged.upper ?? NaN) - (twice.ofJudged.lower ?? NaN)).toBeLessThan((once.ofJudged.upper ?? NaN) - (once.ofJudged.lower ?? NaN))
  })

  it('is undefined when every call failed', () => {
    const failed: PairwiseCall<AB>[] = [{ itemId: 'x', label: 'A', verdict: { kind: 'failed' } }]
    const result = pairwiseAccuracy(failed, { bootstrap: { resamples: 10 } })
    expect(result.ofJudged).toMatchObject({ value: null, reason: 'no completed calls', lower: null })
    expect(result.ofAll.value).toBe(0)
    expect(result.bootstrapOfJudged.lower).toBeNull()
  })
})

describe('baselines and label subsets (IdeaEval)', () => {
  it('majority-label baseline of the old set: 57 of 75 human-better = 0.76, recounted from rows', () => {
    const baseline = majorityLabelBaseline(labelsPerItem(ideaEvalOldSet))
    expect(baseline).toMatchObject({ value: 0.76, majority: ['human'], counts: { human: 57, ai: 18 }, total: 75 })
    // Rows of both display orders recount to the same pairs.
    expect(majorityLabelBaseline(labelsPerItem(ideaEvalOldSet.flatMap((call) => [call, call]))).value).toBe(0.76)
  })

  it('majority-label baseline of the new set: 25 of 40 = 0.625; random baseline 0.5', () => {
    const newSet = [...pairsWith('h', 'human', 25, 0), ...pairsWith('a', 'ai', 15, 0)]
    expect(majorityLabelBaseline(newSet.map((call) => call.label)).value).toBe(0.625)
    expect(randomBaseline().value).toBe(0.5)
    expect(randomBaseline(3).value).toBeCloseTo(1 / 3, 15)
  })

  it('accuracy per label subset: 15/18 on AI-better, 22/57 on human-better, 37/75 overall — below the baseline', () => {
    const subsets = accuracyByLabel(ideaEvalOldSet, ['ai', 'human'])
    expect(subsets.map((subset) => [subset.label, subset.correct, subset.judged])).toEqual([
      ['ai', 15, 18],
      ['human', 22, 57]
    ])
    expect(subsets[0]?.ofJudged.value).toBeCloseTo(15 / 18, 15)
    expect(subsets[1]?.ofJudged.value).toBeCloseTo(22 / 57, 15)
    const overall = pairwiseAccuracy(ideaEvalOldSet, { bootstrap: { resamples: 100 } })
    expect(overall.ofJudged.value).toBeCloseTo(0.49333333333333335, 15)
    expect(overall.correct).toBe(37)
    expect(overall.ofJudged.value ?? 1).toBeLessThan(majorityLabelBaseline(labelsPerItem(ideaEvalOldSet)).value ?? 0)
  })

  it('lists a declared label with no pairs as undefined; an empty label list has no baseline', () => {
    const subsets = accuracyByLabel(pairsWith('h', 'human', 3, 3), ['human', 'ai'])
    expect(subsets[1]).toMatchObject({ label: 'ai', judged: 0, ofJudged: { value: null } })
    expect(majorityLabelBaseline([])).toMatchObject({ value: null, reason: 'no labels' })
  })

  it('reports every label tied for the majority', () => {
    expect(majorityLabelBaseline(['a', 'b', 'a', 'b'])).toMatchObject({ value: 0.5, majority: ['a', 'b'] })
  })

  it('refuses a pair carrying two different labels', () => {
    expect(() => labelsPerItem([
      { itemId: 'p', label: 'A', verdict: choice('A') },
      { itemId: 'p', label: 'B', verdict: choice('A') }
    ])).toThrow(/two labels/)
  })
})

describe('position bias from both-order runs', () => {
  const call = (itemId: string, shownFirst: AB, verdict: PairwiseVerdict<AB>): PairwiseCall<AB> => ({ itemId, label: 'A', shownFirst, verdict })
  const runs: PairwiseCall<AB>[] = [
    call('p1', 'A', choice('A')), call('p1', 'B', choice('A')), // consistent
    call('p2', 'A', choice('A')), call('p2', 'B', choice('B')), // always the first shown: inconsistent
    call('p3', 'A', choice('B')), call('p3', 'B', choice('B')), // consistent
    call('p4', 'A', choice('A')), call('p4', 'B', { kind: 'failed' }), // one order missing
    call('p5', 'A', { kind: 'tie' }), call('p5', 'B', { kind: 'tie' })
  ]

  it('keeps ties as answers: 3 of 4 pairs consistent, 5 of 9 answered calls picked the first shown', () => {
    const result = positionBias(runs, 'kept')
    expect(result.consistency).toEqual({ value: 0.75, consistent: 3, compared: 4, incomplete: 1 })
    expect(result.firstPositionPreference).toEqual({ value: 5 / 9, pickedFirst: 5, answered: 9 })
  })

  it('drops ties: 2 of 3 pairs consistent, 5 of 7 answered calls picked the first shown', () => {
    const result = positionBias(runs, 'dropped')
    expect(result.consistency).toEqual({ value: 2 / 3, consistent: 2, compared: 3, incomplete: 2 })
    expect(result.firstPositionPreference).toEqual({ value: 5 / 7, pickedFirst: 5, answered: 7 })
  })

  it('is undefined without a pair answered in both orders', () => {
    const result = positionBias([call('p', 'A', choice('A')), call('q', 'B', { kind: 'unparseable' })])
    expect(result.consistency).toMatchObject({ value: null, reason: 'no pair was answered in both display orders', incomplete: 2 })
    expect(result.firstPositionPreference).toMatchObject({ value: 1, answered: 1 })
    expect(positionBias([]).firstPositionPreference).toMatchObject({ value: null, reason: 'no answered calls' })
  })

  it('requires the display order and one answered call per order', () => {
    expect(() => positionBias([{ itemId: 'p', label: 'A', verdict: choice('A') }])).toThrow(/shown first/)
    expect(() => positionBias([call('p', 'A', choice('A')), call('p', 'A', choice('B'))])).toThrow(/distinct item ids/)
  })
})

describe('position bias in the published forms', () => {
  const call = (itemId: string, shownFirst: AB, verdict: PairwiseVerdict<AB>): PairwiseCall<AB> => ({ itemId, label: 'A', shownFirst, verdict })
  const both = (id: string, whenAFirst: PairwiseVerdict<AB>, whenBFirst: PairwiseVerdict<AB>) => [call(id, 'A', whenAFirst), call(id, 'B', whenBFirst)]
  // 10 pairs in both orders: 5 consistent, 3 always the first shown (one through a tie), 1 always the second, 1
  // unparseable in one order; one more pair failed in one order and is left out.
  const runs: PairwiseCall<AB>[] = [
    ...both('c1', choice('A'), choice('A')),
    ...both('c2', choice('B'), choice('B')),
    ...both('c3', choice('A'), choice('A')),
    ...both('c4', { kind: 'tie' }, { kind: 'tie' }),
    ...both('c5', choice('B'), choice('B')),
    ...both('f1', choice('A'), choice('B')),
    ...both('f2', choice('A'), choice('B')),
    ...both('f3', { kind: 'tie' }, choice('B')),
    ...both('s1', choice('B'), choice('A')),
    ...both('e1', choice('A'), { kind: 'unparseable' }),
    ...both('x1', choice('A'), { kind: 'failed' })
  ]

  it('partitions pairs as MT-Bench does: consistent, biased to first, biased to second, error (adding up to 1)', () => {
    const { mtBench, consistency } = positionBias(runs)
    expect(mtBench).toMatchObject({ pairs: 10, consistent: 5, biasedFirst: 3, biasedSecond: 1, error: 1 })
    expect(mtBench.consistency.value).toBe(0.5)
    expect(mtBench.biasedToFirst.value).toBe(0.3)
    expect(mtBench.biasedToSecond.value).toBe(0.1)
    expect(mtBench.errorRate.value).toBe(0.1)
    // Shi et al.'s position consistency leaves the unparseable pair out: 5 of 9.
    expect(consistency).toMatchObject({ value: 5 / 9, compared: 9 })
  })

  it("computes Shi et al.'s preference fairness: (rcn²/(rcn+pcn) − pcn²/(rcn+pcn)) scaled from [−n, n] to [−1, 1]", () => {
    // pcn = 3, rcn = 1, n = 10: raw = (1 − 9)/4 = −2, PF = (−2 + 10)/20 · 2 − 1 = −0.2 (favours the first shown).
    expect(positionBias(runs).preferenceFairness.value).toBeCloseTo(-0.2, 12)
    const fair = [...both('p', choice('A'), choice('B')), ...both('q', choice('B'), choice('A'))]
    expect(positionBias(fair).preferenceFairness.value).toBe(0)
    const recency = [...both('p', choice('B'), choice('A')), ...both('q', choice('B'), choice('A'))]
    expect(positionBias(recency).preferenceFairness.value).toBe(1)
    expect(positionBias([call('p', 'A', choice('A'))]).preferenceFairness).toMatchObject({ value: null })
  })
})
