import { describe, expect, it } from 'vitest'
import { WeightedSums, clusterBootstrap, clusterBootstrapMany, seededRandom, type BootstrapInterval, type DrawAhead, type Estimate } from '../../../src/shared/stats'
import { BootstrapPlan } from '../../../src/shared/report/bootstrap-plan'
import { drawsInLine } from '../../support/draws-in-line'

// The plan must give the very intervals of the stats module's cluster bootstrap over the same items, seed and level:
// the same draws, the same replicates, the same percentiles.

const settings = { resamples: 2000, seed: 4242, level: 0.9 }
const itemIds = Array.from({ length: 37 }, (_, i) => 100 + 3 * i)
/** Per item: whole-number counts of right and judged calls, and a fractional distance. */
const rows = itemIds.map((item, i) => ({ item, right: (i * 7) % 3, judged: 2 + (i % 2), distance: ((i * 13) % 11) / 7 }))

function ratio(num: number, den: number): Estimate {
  return den === 0 ? { value: null, reason: 'none' } : { value: num / den }
}

/** The statistic recomputed from the rows of a resample, as a plain cluster bootstrap sees it. */
function reference(statistic: (resample: readonly (typeof rows)[number][]) => Estimate): BootstrapInterval {
  return clusterBootstrap(rows, statistic, settings)
}

describe('the report’s bootstrap plan', () => {
  it('gives a whole-number ratio the interval of a cluster bootstrap recomputing it from the drawn items', () => {
    const plan = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    plan.addRatio(rows.map((r) => ({ item: r.item, numerator: r.right, denominator: r.judged })), 'none', (interval) => (got = interval))
    plan.run(settings)
    const expected = reference((resample) => ratio(resample.reduce((s, r) => s + r.right, 0), resample.reduce((s, r) => s + r.judged, 0)))
    expect(got).toEqual(expected)
    expect(got?.lower).toBeLessThan(got?.upper as number)
  })

  it('gives counts held as columns the interval of the same counts as objects', () => {
    const plan = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    const columns = { length: rows.length, item: Int32Array.from(rows, (r) => r.item), numerator: Int32Array.from(rows, (r) => r.right), denominator: Int32Array.from(rows, (r) => r.judged) }
    plan.addRatioColumns(columns, 'none', (interval) => (got = interval))
    plan.run(settings)
    expect(got).toEqual(reference((resample) => ratio(resample.reduce((s, r) => s + r.right, 0), resample.reduce((s, r) => s + r.judged, 0))))
    // Only the first `length` entries count.
    const shorter = new BootstrapPlan(itemIds)
    let partial: BootstrapInterval | undefined
    shorter.addRatioColumns({ ...columns, length: 5 }, 'none', (interval) => (partial = interval))
    shorter.run(settings)
    expect(partial?.point.value).toBe(rows.slice(0, 5).reduce((s, r) => s + r.right, 0) / rows.slice(0, 5).reduce((s, r) => s + r.judged, 0))
  })

  it('sums fractional amounts item by item in the order given, matching the cluster bootstrap bit for bit', () => {
    const plan = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    plan.addRatio(rows.map((r) => ({ item: r.item, numerator: r.distance, denominator: 1 })), 'none', (interval) => (got = interval))
    plan.run(settings)
    // Weighted sums over items in the given order: an item drawn k times adds k·x at its place.
    const expected = clusterBootstrap(
      rows,
      (resample) => {
        const times = new Map<number, number>()
        for (const r of resample) times.set(r.item, (times.get(r.item) ?? 0) + 1)
        let num = 0
        let den = 0
        for (const r of rows) {
          const k = times.get(r.item) ?? 0
          if (k === 0) continue
          num += k * r.distance
          den += k
        }
        return ratio(num, den)
      },
      settings
    )
    expect(got).toEqual(expected)
  })

  it('fills several sums statistics from one pass, each as if computed alone, with undefined resamples counted', () => {
    const plan = new BootstrapPlan(itemIds)
    const got: BootstrapInterval[][] = []
    // A 2×2 table (criterion × source) per item, and a share defined only when the rare cell occurs.
    const cell = (i: number) => (i % 5 === 0 ? 3 : i % 2)
    plan.addSums(4, rows.map((r, i) => ({ item: r.item, slot: cell(i), amount: r.judged })), 2, (sums) => {
      const total = (sums[0] as number) + (sums[1] as number) + (sums[2] as number) + (sums[3] as number)
      return [ratio((sums[0] as number) + (sums[3] as number), total), ratio(sums[3] as number, sums[2] as number)]
    }, (intervals) => got.push(intervals))
    plan.addSums(1, rows.filter((_, i) => i % 3 === 0).map((r) => ({ item: r.item, slot: 0, amount: r.right })), 1, (sums) => [{ value: sums[0] as number }], (intervals) => got.push(intervals))
    plan.run(settings)
    const expected = clusterBootstrapMany(
      rows.map((r, i) => ({ ...r, cell: cell(i), third: i % 3 === 0 })),
      (resample) => {
        const table = [0, 0, 0, 0]
        let third = 0
        for (const r of resample) {
          table[r.cell] = (table[r.cell] as number) + r.judged
          if (r.third) third += r.right
        }
        const total = table.reduce((s, v) => s + v, 0)
        return { agree: ratio((table[0] as number) + (table[3] as number), total), rare: ratio(table[3] as number, table[2] as number), third: { value: third } }
      },
      settings
    )
    expect(got).toEqual([[expected.agree, expected.rare], [expected.third]])
    expect(expected.rare.undefinedResamples).toBeGreaterThan(0)
  })

  it('refuses fractional sum contributions, slots outside the statistic and items outside the scope', () => {
    const plan = new BootstrapPlan([1, 2])
    const done = () => undefined
    expect(() => plan.addSums(1, [{ item: 1, slot: 0, amount: 0.5 }], 1, () => [], done)).toThrow(/whole number/)
    expect(() => plan.addSums(1, [{ item: 1, slot: 1, amount: 1 }], 1, () => [], done)).toThrow(/outside 0\.\.0/)
    expect(() => plan.addSums(1, [{ item: 3, slot: 0, amount: 1 }], 1, () => [], done)).toThrow(/outside the report's scope/)
  })

  it('gives each item its dense index in order of first appearance, however sparse or unusual its id, and no index to others', () => {
    const cases = [
      [5, 3, 5, 9, 0, 4],
      [2, 1_000_000, 7],
      [1.5, -2, 3],
      Array.from({ length: 500 }, (_, i) => 2 * i + 1)
    ]
    for (const ids of cases) {
      const plan = new BootstrapPlan(ids)
      const distinct = [...new Set(ids)]
      expect(distinct.map((id) => plan.index(id))).toEqual(distinct.map((_, i) => i))
      // Ids between, around and beyond the plan's are outside it.
      for (const outside of [2, 6, 8, 10, -1, 1_000_001, 0.5, 2 * 500 + 1].filter((id) => !ids.includes(id))) {
        expect(() => plan.index(outside), `${outside} of ${ids.slice(0, 6).join(',')}`).toThrow(/outside the report's scope/)
      }
    }
  })

  it('takes contributions as columns, grown as they are pushed, with the intervals of the same contributions as objects', () => {
    const asObjects = new BootstrapPlan(itemIds)
    const asColumns = new BootstrapPlan(itemIds)
    const got: BootstrapInterval[][] = []
    const statistic = (sums: Float64Array): Estimate[] => [ratio(sums[0] as number, (sums[0] as number) + (sums[1] as number))]
    asObjects.addSums(2, rows.flatMap((r) => [{ item: r.item, slot: 0, amount: r.right }, { item: r.item, slot: 1, amount: r.judged }]), 1, statistic, (i) => got.push(i))
    const columns = asColumns.sumColumns(1)
    for (const r of rows) {
      columns.push(r.item, 0, r.right)
      columns.push(r.item, 1, r.judged)
    }
    expect(columns.length).toBe(rows.length * 2)
    asColumns.addSums(2, columns, 1, statistic, (i) => got.push(i))
    asObjects.run(settings)
    asColumns.run(settings)
    expect(got[1]).toEqual(got[0])
    expect(() => columns.push(1, 0, 1)).toThrow(/outside the report's scope/)
    expect(() => columns.push(100, 0.5, 1)).toThrow(/whole number/)
    expect(() => columns.push(100, 0, 0.5)).toThrow(/whole number/)
    const outside = asColumns.sumColumns()
    outside.push(100, 2, 1)
    expect(() => asColumns.addSums(2, outside, 1, statistic, () => undefined)).toThrow(/outside 0\.\.1/)
  })
})

describe('the plan’s draws made ahead', () => {
  const job = { item: 0, numerator: 0, denominator: 0 }
  const fraction = itemIds.map((item, i) => ({ ...job, item, numerator: i % 2, denominator: 1 }))

  it('hands the drawer its bins and stream, and reads the same resamples as drawing in line', () => {
    const inLine = new BootstrapPlan(itemIds)
    let expected: BootstrapInterval | undefined
    inLine.addRatio(fraction, 'none', (interval) => (expected = interval))
    inLine.run(settings)
    const { drawAhead, jobs: seen, closed } = drawsInLine()
    const ahead = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    ahead.addRatio(fraction, 'none', (interval) => (got = interval))
    ahead.run({ ...settings, drawAhead })
    expect(got).toEqual(expected)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ seed: settings.seed, draws: itemIds.length, resamples: settings.resamples })
    expect(seen[0]?.bins).toHaveLength(itemIds.length)
    expect(closed()).toBe(1)
  })

  it('ends the drawer when a statistic throws mid-way', () => {
    const { drawAhead, closed } = drawsInLine()
    const plan = new BootstrapPlan(itemIds)
    let calls = 0
    plan.addSums(1, fraction.map((u) => ({ item: u.item, slot: 0, amount: u.numerator })), 1, (sums) => {
      if (++calls === 10) throw new Error('planted')
      return [{ value: sums[0] as number }]
    }, () => undefined)
    expect(() => plan.run({ ...settings, drawAhead })).toThrow('planted')
    expect(closed()).toBe(1)
  })

  it('takes a drawer’s sums where it made them and sums the rest itself, to the same intervals', () => {
    // Every resample's sums, in the order drawn, as well as the interval.
    const traced = (drawAhead?: DrawAhead) => {
      const plan = new BootstrapPlan(itemIds)
      const seen: number[] = []
      let interval: BootstrapInterval | undefined
      const contributions = fraction.flatMap((u, i) => [{ item: u.item, slot: 0, amount: u.numerator }, { item: u.item, slot: 1, amount: i % 5 }])
      plan.addSums(2, contributions, 1, (sums) => (seen.push(sums[0] as number, sums[1] as number), [{ value: (sums[0] as number) + (sums[1] as number) }]), ([i]) => (interval = i))
      plan.run({ ...settings, drawAhead })
      return { seen, interval }
    }
    const expected = traced()
    // Sums every resample but each third, whose totals per bin it hands back instead.
    let summed = 0
    let left = 0
    const summing: DrawAhead = (job) => {
      const rows = job.sums?.rows
      if (!rows) throw new Error('the plan offered no sums')
      const draw = seededRandom(job.seed).binned(job.bins)
      const own = new WeightedSums(rows.offsets, rows.slots, rows.amounts, rows.slotCount)
      let r = 0
      return {
        next: () => {
          throw new Error('a job with sums is read with nextSums')
        },
        nextSums(counts, sums) {
          counts.fill(0)
          draw(counts, job.draws)
          if (r++ % 3 === 0) return (left++, false)
          own.weights.set(counts)
          own.fill()
          sums.set(own.sums)
          summed++
          return true
        },
        close: () => undefined
      }
    }
    expect(traced(summing)).toEqual(expected)
    expect(summed).toBeGreaterThan(0)
    expect(left).toBeGreaterThan(0)
  })

  it('starts, lets the caller work, and finishes with the intervals of one run; nothing is added once started', () => {
    const { drawAhead, closed } = drawsInLine()
    const plan = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    plan.addRatio(fraction, 'none', (interval) => (got = interval))
    plan.start({ ...settings, drawAhead })
    expect(got).toBeUndefined()
    expect(() => plan.addRatio(fraction, 'none', () => undefined)).toThrow(/already started/)
    expect(() => plan.start(settings)).toThrow(/already started/)
    expect(closed()).toBe(0)
    plan.finish()
    expect(closed()).toBe(1)
    const once = new BootstrapPlan(itemIds)
    let expected: BootstrapInterval | undefined
    once.addRatio(fraction, 'none', (interval) => (expected = interval))
    once.run(settings)
    expect(got).toEqual(expected)
  })

  it('ends the drawer of a plan abandoned after its start, and hands out no interval', () => {
    const { drawAhead, closed } = drawsInLine()
    const plan = new BootstrapPlan(itemIds)
    let got: BootstrapInterval | undefined
    plan.addRatio(fraction, 'none', (interval) => (got = interval))
    plan.start({ ...settings, drawAhead })
    plan.abandon()
    expect(closed()).toBe(1)
    plan.finish()
    expect(got).toBeUndefined()
  })
})
