import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clusterBootstrap,
  clusterBootstrapMany,
  clusterBootstrapDrawn,
  clusterBootstrapBinned,
  clusterBootstrapCounted,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  groupRowsIntoUnits,
  pairedBootstrapDifference,
  quantileType7,
  seededRandom,
  useJavaScriptLoops,
  type Estimate
} from '../../../src/shared/stats'
import { drawKernel } from '../../../src/shared/stats/kernel/draws'
import { drawsInLine } from '../../support/draws-in-line'

const mean = (values: readonly number[]): Estimate =>
  values.length === 0 ? { value: null, reason: 'no values' } : { value: values.reduce((sum, v) => sum + v, 0) / values.length }

// 200 items, 120 of them correct.
const outcomes = Array.from({ length: 200 }, (_, i) => (i % 5 < 3 ? 1 : 0))

/** The share of right answers over units of the given sizes, each unit counted as often as it was drawn (once when null). */
function shareOfUnits(size: Int32Array, right: Int32Array, times: Int32Array | null): { share: Estimate; count: Estimate } {
  let n = 0
  let c = 0
  for (let u = 0; u < size.length; u++) {
    const w = times === null ? 1 : times[u]!
    n += w * size[u]!
    c += w * right[u]!
  }
  return { share: { value: c / n }, count: { value: n } }
}

describe('seeded random integers', () => {
  it('repeats for a seed, differs between seeds, and stays in range', () => {
    const draw = (seed: number): number[] => {
      const random = seededRandom(seed)
      return Array.from({ length: 50 }, () => random.integerBelow(7))
    }
    expect(draw(11)).toEqual(draw(11))
    expect(draw(11)).not.toEqual(draw(12))
    expect(draw(11).every((value) => Number.isInteger(value) && value >= 0 && value < 7)).toBe(true)
    expect(new Set(draw(11)).size).toBe(7)
  })

  it('rejects seeds the generator would fold onto others', () => {
    expect(() => seededRandom(-1)).toThrow(/seed/)
    expect(() => seededRandom(2 ** 32)).toThrow(/seed/)
    expect(() => seededRandom(1.5)).toThrow(/seed/)
  })
})

describe('cluster bootstrap', () => {
  it('defaults to 2,000 resamples and records seed and generator', () => {
    const result = clusterBootstrap(outcomes, mean, { seed: 7 })
    expect(DEFAULT_BOOTSTRAP_RESAMPLES).toBe(2000)
    expect(result).toMatchObject({ resamples: 2000, undefinedResamples: 0, seed: 7, level: 0.95, point: { value: 0.6 } })
    expect(result.generator).toMatch(/xoroshiro128plus/)
    // The standard error of a share of 0.6 over 200 items is about 0.035, so the 95% interval spans about ±0.07.
    expect(result.lower).toBeGreaterThan(0.5)
    expect(result.lower).toBeLessThan(0.57)
    expect(result.upper).toBeGreaterThan(0.63)
    expect(result.upper).toBeLessThan(0.7)
  })

  it('is reproducible for a seed and changes with another seed', () => {
    const first = clusterBootstrap(outcomes, mean, { seed: 1, resamples: 500 })
    const again = clusterBootstrap(outcomes, mean, { seed: 1, resamples: 500 })
    const other = clusterBootstrap(outcomes, mean, { seed: 2, resamples: 500 })
    expect(again).toEqual(first)
    expect([other.lower, other.upper]).not.toEqual([first.lower, first.upper])
  })

  it('takes type-7 percentiles of the replicates, drawn as n uniform unit indices per resample', () => {
    const units = [0.1, 0.4, 0.4, 0.9, 1.3, 2.0, 2.2]
    const result = clusterBootstrap(units, mean, { seed: 99, resamples: 300, level: 0.9 })
    const random = seededRandom(99)
    const replicates = Array.from({ length: 300 }, () => {
      const resample = units.map(() => units[random.integerBelow(units.length)] as number)
      return mean(resample).value as number
    })
    expect(result.lower).toBe(quantileType7(replicates, 0.05).value)
    expect(result.upper).toBe(quantileType7(replicates, 0.95).value)
  })

  it('resamples whole units, keeping the rows of an item together', () => {
    const units = groupRowsIntoUnits(
      [
        { item: 'a', correct: 1 },
        { item: 'b', correct: 0 },
        { item: 'a', correct: 1 },
        { item: 'c', correct: 1 },
        { item: 'b', correct: 0 },
        { item: 'c', correct: 1 }
      ],
      (row) => row.item
    )
    expect(units.map((unit) => [unit.id, unit.rows.length])).toEqual([['a', 2], ['b', 2], ['c', 2]])
    const seenSizes = new Set<number>()
    clusterBootstrap(
      units,
      (resample) => {
        const rows = resample.flatMap((unit) => unit.rows)
        seenSizes.add(rows.length)
        return mean(rows.map((row) => row.correct))
      },
      { seed: 3, resamples: 200 }
    )
    expect([...seenSizes]).toEqual([6])
  })

  it('counts resamples where the statistic is undefined and leaves them out, never as zeros', () => {
    // Defined only when both units are drawn (probability 1/2), and then always 0.5.
    const bothClasses = (resample: readonly number[]): Estimate =>
      new Set(resample).size === 2 ? mean(resample) : { value: null, reason: 'one class' }
    const result = clusterBootstrap([0, 1], bothClasses, { seed: 5, resamples: 2000 })
    expect(result.undefinedResamples).toBeGreaterThan(850)
    expect(result.undefinedResamples).toBeLessThan(1150)
    expect(result.lower).toBe(0.5)
    expect(result.upper).toBe(0.5)
  })

  it('gives no interval when the statistic is undefined on the data or in every resample', () => {
    const never = (): Estimate => ({ value: null, reason: 'only one class present' })
    expect(clusterBootstrap([1, 2], never, { resamples: 10 })).toMatchObject({
      point: { value: null },
      lower: null,
      upper: null,
      undefinedResamples: 10,
      intervalReason: 'the statistic is undefined on the data: only one class present'
    })
    const data = [1, 2, 3]
    const onlyOnFullData = (resample: readonly number[]): Estimate => (resample === data ? { value: 1 } : never())
    const result = clusterBootstrap(data, onlyOnFullData, { resamples: 20, seed: 4 })
    expect(result.point.value).toBe(1)
    expect(result.intervalReason).toBe('the statistic was undefined in every resample')
  })

  it('bootstraps several statistics on the same resamples', () => {
    const results = clusterBootstrapMany(outcomes, (resample) => ({ share: mean(resample), complement: mean(resample.map((v) => 1 - v)) }), { seed: 8, resamples: 400 })
    expect(results.share.lower).toBeCloseTo(1 - (results.complement.upper ?? NaN), 12)
    expect(results.share.upper).toBeCloseTo(1 - (results.complement.lower ?? NaN), 12)
  })

  it('rejects invalid options', () => {
    expect(() => clusterBootstrap([1], mean, { resamples: 0 })).toThrow(/resamples/)
    expect(() => clusterBootstrap([1], mean, { level: 95 })).toThrow(/level/)
  })
})

describe('paired bootstrap of a difference', () => {
  type Item = { judgeA: number; judgeB: number }
  const items: Item[] = outcomes.map((correct, i) => ({ judgeA: correct, judgeB: i % 10 === 0 ? 1 - correct : correct }))
  const accuracyOf = (judge: keyof Item) => (resample: readonly Item[]) => mean(resample.map((item) => item[judge]))

  it('evaluates both sources on the same resampled items', () => {
    const same = pairedBootstrapDifference(items, accuracyOf('judgeA'), accuracyOf('judgeA'), { seed: 1, resamples: 300 })
    // Identical sources differ by exactly 0 on every shared resample; independent resamples would not.
    expect([same.point.value, same.lower, same.upper]).toEqual([0, 0, 0])
  })

  it('reports the two point estimates and the interval of their difference', () => {
    const result = pairedBootstrapDifference(items, accuracyOf('judgeA'), accuracyOf('judgeB'), { seed: 2, resamples: 1000 })
    expect(result.first.value).toBe(0.6)
    // Judge B misses every tenth item, all 20 of which judge A got right.
    expect(result.second.value).toBeCloseTo(0.5, 12)
    expect(result.point.value).toBeCloseTo(0.1, 12)
    // The difference is 1 on a tenth of the items and 0 elsewhere: SE ≈ √(0.1·0.9/200) ≈ 0.021.
    expect(result.lower).toBeGreaterThan(0.05)
    expect(result.lower).toBeLessThan(0.1)
    expect(result.upper).toBeGreaterThan(0.1)
    expect(result.upper).toBeLessThan(0.15)
    expect(result.seed).toBe(2)
  })

  it('counts a resample where either source is undefined as undefined', () => {
    const undefinedB = (): Estimate => ({ value: null, reason: 'no answers' })
    const result = pairedBootstrapDifference(items, accuracyOf('judgeA'), undefinedB, { resamples: 10 })
    expect(result.point).toEqual({ value: null, reason: 'second source: no answers' })
    expect(result.undefinedResamples).toBe(10)
  })
})

describe.each([
  ['the WebAssembly kernel', false],
  ['the JavaScript loops', true]
])('drawing a whole resample at once, with %s', (_name, javascript) => {
  let before = false
  beforeAll(() => {
    before = useJavaScriptLoops(javascript)
  })
  afterAll(() => {
    useJavaScriptLoops(before)
  })

  it('gives the same stream as one integerBelow call per draw, bounds and state carried over', () => {
    for (const bound of [1, 2, 3, 7, 1000, 20_000, 65_537, 1_000_003, 16_777_217]) {
      const one = seededRandom(20240917)
      const many = seededRandom(20240917)
      for (let round = 0; round < 3; round++) {
        const expected = new Map<number, number>()
        for (let d = 0; d < 5000; d++) {
          const u = one.integerBelow(bound)
          expected.set(u, (expected.get(u) ?? 0) + 1)
        }
        const counts = new Int32Array(bound)
        many.addDraws(counts, 5000)
        const got = new Map<number, number>()
        counts.forEach((c, u) => c > 0 && got.set(u, c))
        expect(got).toEqual(expected)
        expect(many.integerBelow(bound)).toBe(one.integerBelow(bound))
      }
    }
  })

  it('fills indices in the order of one integerBelow call per draw, state carried over', () => {
    for (const bound of [1, 2, 3, 7, 20_000, 1_000_003, 0x7fffffff, 0x80000000]) {
      const one = seededRandom(20240917)
      const many = seededRandom(20240917)
      for (let round = 0; round < 3; round++) {
        const expected = Array.from({ length: 500 }, () => one.integerBelow(bound))
        const got = new Int32Array(500)
        many.fillBelow(got, bound)
        expect([...got]).toEqual(expected)
      }
      expect(many.integerBelow(bound)).toBe(one.integerBelow(bound))
    }
  })

  it('gives the same intervals drawn by index as on resampled units', () => {
    const units = Array.from({ length: 57 }, (_, i) => ({ n: 1 + (i % 3), correct: i % 4 === 0 ? 0 : 1 + (i % 2) }))
    const share = (list: readonly { n: number; correct: number }[]): Estimate => {
      let n = 0
      let c = 0
      for (const u of list) {
        n += u.n
        c += u.correct
      }
      return { value: c / n }
    }
    const onUnits = clusterBootstrap(units, share, { resamples: 300, seed: 11 })
    const drawn = clusterBootstrapDrawn(units.length, (d) => ({ s: share(d === null ? units : [...d].map((u) => units[u]!)) }), { resamples: 300, seed: 11 }).s
    expect(drawn).toEqual(onUnits)
  })

  it('gives the same intervals told by times drawn per unit as by the drawn indices, for sums of whole numbers', () => {
    const size = Int32Array.from({ length: 211 }, (_, u) => 1 + (u % 3))
    const right = Int32Array.from({ length: 211 }, (_, u) => (u % 5 === 0 ? 0 : (u % 3) + (u % 2)) % (1 + (u % 3)))
    const byIndex = clusterBootstrapDrawn(size.length, (drawn) => {
      let n = 0
      let c = 0
      for (let i = 0; i < (drawn === null ? size.length : drawn.length); i++) {
        const u = drawn === null ? i : drawn[i]!
        n += size[u]!
        c += right[u]!
      }
      return { share: { value: c / n }, count: { value: n } }
    }, { resamples: 400, seed: 8 })
    const byTimes = clusterBootstrapCounted(size.length, (times) => shareOfUnits(size, right, times), { resamples: 400, seed: 8 })
    expect(byTimes).toEqual(byIndex)
    expect(byTimes.share.lower).toBeLessThan(byTimes.share.upper as number)
  })

  it('gives the same intervals told by draws per bin of alike units as by times drawn per unit', () => {
    const size = Int32Array.from({ length: 307 }, (_, u) => 1 + (u % 3))
    const right = Int32Array.from({ length: 307 }, (_, u) => (u % 7 === 0 ? 0 : u % 2) * size[u]!)
    const byTimes = clusterBootstrapCounted(size.length, (times) => shareOfUnits(size, right, times), { resamples: 400, seed: 8 })
    // Units alike in (size, right) share a bin: 3 sizes × right 0 or all.
    const binOf = Int32Array.from(size, (s, u) => (s - 1) * 2 + (right[u]! > 0 ? 1 : 0))
    const binSize = [1, 1, 2, 2, 3, 3]
    const binRight = [0, 1, 0, 2, 0, 3]
    const byBins = clusterBootstrapBinned(binOf, 6, (drawn) => {
      let n = 0
      let c = 0
      for (let k = 0; k < 6; k++) {
        n += drawn[k]! * binSize[k]!
        c += drawn[k]! * binRight[k]!
      }
      return { share: { value: c / n }, count: { value: n } }
    }, { resamples: 400, seed: 8 })
    expect(byBins).toEqual(byTimes)
    expect(byBins.share.lower).toBeLessThan(byBins.share.upper as number)
    expect(() => clusterBootstrapBinned(Int32Array.of(0, 6), 6, () => ({}))).toThrow(/bin 6 is outside 0..5/)
  })

  it('gives the same binned intervals with its draws made elsewhere, asks once with the job, and ends the drawer', () => {
    const binOf = Int32Array.from({ length: 211 }, (_, u) => (u * 5) % 4)
    const share = (drawn: Int32Array) => ({ share: { value: ((drawn[1] as number) + 2 * (drawn[3] as number)) / (1 + (drawn[0] as number) + (drawn[1] as number) + (drawn[2] as number) + (drawn[3] as number)) } })
    const inLine = clusterBootstrapBinned(binOf, 4, share, { resamples: 300, seed: 12 })
    const { drawAhead, jobs, closed } = drawsInLine()
    expect(clusterBootstrapBinned(binOf, 4, share, { resamples: 300, seed: 12, drawAhead })).toEqual(inLine)
    expect(jobs).toHaveLength(1)
    expect(jobs[0]).toMatchObject({ seed: 12, binCount: 4, draws: 211, resamples: 300 })
    expect(closed()).toBe(1)
    // Another stream gives other intervals: the drawer's totals are what the statistics read.
    expect(clusterBootstrapBinned(binOf, 4, share, { resamples: 300, seed: 12, drawAhead: drawsInLine(1).drawAhead })).not.toEqual(inLine)
    // A drawer that declines leaves the draws in line; a statistic that throws still ends the drawer.
    expect(clusterBootstrapBinned(binOf, 4, share, { resamples: 300, seed: 12, drawAhead: () => null })).toEqual(inLine)
    let calls = 0
    const throwing = (drawn: Int32Array) => {
      if (++calls === 5) throw new Error('planted')
      return share(drawn)
    }
    expect(() => clusterBootstrapBinned(binOf, 4, throwing, { resamples: 300, seed: 12, drawAhead })).toThrow('planted')
    expect(closed()).toBe(2)
  })

  it('totals the same draws by fixed bins as addDrawsToBins, reading the bins once, state carried over', () => {
    const binOf = Int32Array.from({ length: 3_001 }, (_, u) => (u * 13) % 17)
    const each = seededRandom(3)
    const fixed = seededRandom(3)
    const draw = fixed.binned(binOf)
    // Later changes to the caller's array are not seen.
    const given = binOf.slice()
    binOf.fill(0)
    for (let round = 0; round < 4; round++) {
      const expected = new Int32Array(17).fill(round)
      each.addDrawsToBins(expected, 2_500, given)
      const got = new Int32Array(17).fill(round)
      draw(got, 2_500)
      expect([...got]).toEqual([...expected])
    }
    expect(fixed.integerBelow(99)).toBe(each.integerBelow(99))
  })

  it('totals the same draws by bin when each unit is given a bin, state carried over', () => {
    for (const bound of [1, 2, 7, 20_000]) {
      const binOf = Int32Array.from({ length: bound }, (_, u) => (u * 7) % 5)
      const plain = seededRandom(7)
      const binned = seededRandom(7)
      for (let round = 0; round < 3; round++) {
        const counts = new Int32Array(bound)
        plain.addDraws(counts, bound)
        const expected = new Int32Array(5)
        counts.forEach((c, u) => (expected[binOf[u] as number] = (expected[binOf[u] as number] as number) + c))
        const got = new Int32Array(5)
        binned.addDrawsToBins(got, bound, binOf)
        expect([...got]).toEqual([...expected])
      }
      expect(binned.integerBelow(bound)).toBe(plain.integerBelow(bound))
    }
  })
})

describe('the draw kernel', () => {
  it('compiles here, so reports draw through it', () => {
    expect(drawKernel()).not.toBeNull()
  })

  it('gives the JavaScript loops\' stream value for value, at bounds up to 2^32 − 1 and across calls', () => {
    const bounds = [1, 2, 3, 5, 255, 256, 20_000, 65_536, 1_000_003, 0x7fffffff, 0x80000000, 0x80000001, 3_000_000_019, 0xffffffff]
    for (const seed of [0, 1, 20240917, 0xffffffff]) {
      for (const bound of bounds) {
        const kernel = seededRandom(seed)
        const loops = seededRandom(seed)
        for (let round = 0; round < 3; round++) {
          const viaKernel = new Int32Array(700)
          kernel.fillBelow(viaKernel, bound)
          const before = useJavaScriptLoops(true)
          const viaLoops = new Int32Array(700)
          try {
            loops.fillBelow(viaLoops, bound)
          } finally {
            useJavaScriptLoops(before)
          }
          expect(viaKernel).toEqual(viaLoops)
        }
        expect(kernel.integerBelow(1_000)).toBe(loops.integerBelow(1_000))
      }
    }
  })

  it('tallies into counts that already hold draws, by bin and without bins, as the loops do', () => {
    const binOf = Int32Array.from({ length: 20_000 }, (_, u) => (u * 7919) % 1_309)
    const kernel = seededRandom(99)
    const loops = seededRandom(99)
    const viaKernel = new Int32Array(1_309).fill(3)
    const viaLoops = new Int32Array(1_309).fill(3)
    const plainKernel = new Int32Array(977)
    const plainLoops = new Int32Array(977)
    for (let round = 0; round < 5; round++) {
      kernel.addDrawsToBins(viaKernel, 20_000, binOf)
      kernel.addDraws(plainKernel, 3_000)
      const before = useJavaScriptLoops(true)
      try {
        loops.addDrawsToBins(viaLoops, 20_000, binOf)
        loops.addDraws(plainLoops, 3_000)
      } finally {
        useJavaScriptLoops(before)
      }
      expect(viaKernel).toEqual(viaLoops)
      expect(plainKernel).toEqual(plainLoops)
    }
    expect(viaKernel.reduce((a, b) => a + b, 0)).toBe(1_309 * 3 + 5 * 20_000)
  })
})
