import { ItemIndex } from './item-index'
import { RANDOM_GENERATOR, assertSeed, seededRandom, sortedQuantileType7, type BootstrapInterval, type Estimate } from '../stats'
import { assertLevel } from '../stats/input-checks'
import type { BootstrapSettings } from './intervals'
import { SumColumns } from './sum-columns'
import { SumsLayout } from './sums-layout'

/** How many times each item (by dense index) was drawn into a resample; all ones for the data as given. */
export type Weights = Int32Array

/** One item's whole-number contribution to a sum of a `addSums` statistic. */
export interface SumContribution {
  item: number
  /** Which of the statistic's sums it adds to. */
  slot: number
  amount: number
}

type Entry =
  | { kind: 'weights'; size: number; statistic: (weights: Weights) => Estimate[]; done: (intervals: BootstrapInterval[]) => void }
  | SumsEntry

type SumsEntry = {
  kind: 'sums'
  size: number
  slots: number
  contributions: SumColumns
  statistic: (sums: Float64Array) => Estimate[]
  done: (intervals: BootstrapInterval[]) => void
}

/**
 * Every bootstrap interval of one report, drawn from one cluster bootstrap over the items in scope: each resample
 * draws whole items (all their units, display orders, trials and raters together) and every statistic of the report
 * is evaluated on that same resample. One draw per resample serves every figure, and differences between sources
 * are paired by construction. A statistic reads the draw as a weight per item and uses only the items it covers.
 *
 * Statistics that are functions of weighted sums of whole numbers per item (counts of a contingency table, of
 * correct calls, of wins) are declared with `addSums`: their item contributions are laid out once, item by item,
 * and every resample fills all such sums in a single pass over the items. Sums of whole numbers are exact in any
 * order, so this gives the same figures, bit for bit, as summing each statistic on its own.
 */
export class BootstrapPlan {
  private readonly entries: Entry[] = []
  private readonly items: ItemIndex
  private started = false
  /** Between `start` and `finish`: the resamples still to evaluate, and how to let the draw thread go. */
  private pending: { finish: () => void; close: () => void } | null = null

  constructor(itemIds: Iterable<number>) {
    this.items = new ItemIndex(itemIds)
  }

  /** Dense index of an item id (items outside the plan's scope are an error). */
  index(itemId: number): number {
    const index = this.items.find(itemId)
    if (index < 0) throw new RangeError(`item ${itemId} is outside the report's scope`)
    return index
  }

  add(statistic: (weights: Weights) => Estimate, done: (interval: BootstrapInterval) => void): void {
    this.addMany(1, (w) => [statistic(w)], (intervals) => done(intervals[0] as BootstrapInterval))
  }

  /** Several statistics from one computation per resample (e.g. one strength per player of a fit). */
  addMany(size: number, statistic: (weights: Weights) => Estimate[], done: (intervals: BootstrapInterval[]) => void): void {
    this.assertOpen()
    this.entries.push({ kind: 'weights', size, statistic, done })
  }

  /**
   * `size` statistics computed from `slots` sums, each Σ over items of (times drawn) × (the item's whole-number
   * amounts for that slot). `statistic` receives the sums of a resample (a view it must not keep).
   */
  addSums(
    slots: number,
    contributions: ReadonlyArray<SumContribution> | SumColumns,
    size: number,
    statistic: (sums: Float64Array) => Estimate[],
    done: (intervals: BootstrapInterval[]) => void
  ): void {
    let columns: SumColumns
    if (contributions instanceof SumColumns) columns = contributions
    else {
      columns = this.sumColumns(contributions.length)
      for (const c of contributions) {
        if (!Number.isSafeInteger(c.amount)) throw new RangeError(`a sum contribution must be a whole number (${c.amount})`)
        if (!(Number.isInteger(c.slot) && c.slot >= 0 && c.slot < slots)) throw new RangeError(`slot ${c.slot} is outside 0..${slots - 1}`)
        columns.push(c.item, c.slot, c.amount)
      }
    }
    for (let p = 0; p < columns.length; p++) {
      const slot = columns.slots[p] as number
      if (!(slot >= 0 && slot < slots)) throw new RangeError(`slot ${slot} is outside 0..${slots - 1}`)
    }
    this.assertOpen()
    this.entries.push({ kind: 'sums', size, slots, contributions: columns, statistic, done })
  }

  private assertOpen(): void {
    if (this.started) throw new Error('a statistic was added to a bootstrap plan already started')
  }

  /** Empty columns of sum contributions for this plan's items (see addSums). */
  sumColumns(capacity = 64): SumColumns {
    return new SumColumns((item) => this.index(item), Math.max(1, capacity))
  }

/** A ratio Σ w·numerator / Σ w·denominator over per-item sums (accuracy, mean absolute difference, Brier). */
  addRatio(items: ReadonlyArray<{ item: number; numerator: number; denominator: number }>, none: string, done: (interval: BootstrapInterval) => void): void {
    const ratio = (num: number, den: number): Estimate => ratioOf(num, den, none)
    if (items.every((u) => Number.isSafeInteger(u.numerator) && Number.isSafeInteger(u.denominator))) {
      const contributions = this.sumColumns(items.length * 2)
      for (const u of items) {
        contributions.push(u.item, 0, u.numerator)
        contributions.push(u.item, 1, u.denominator)
      }
      this.addSums(2, contributions, 1, (sums) => [ratio(sums[0] as number, sums[1] as number)], (intervals) => done(intervals[0] as BootstrapInterval))
      return
    }
    const index = Int32Array.from(items, (u) => this.index(u.item))
    this.addOrderedSums(index, [Float64Array.from(items, (u) => u.numerator), Float64Array.from(items, (u) => u.denominator)], ([num, den]) => ratio(num as number, den as number), done)
  }

  /** addRatio over whole-number counts held as columns: item k is `item[k]`, with its numerator and denominator. */
  addRatioColumns(counts: RatioColumns, none: string, done: (interval: BootstrapInterval) => void): void {
    const contributions = this.sumColumns(counts.length * 2)
    for (let k = 0; k < counts.length; k++) {
      const item = counts.item[k] as number
      contributions.push(item, 0, counts.numerator[k] as number)
      contributions.push(item, 1, counts.denominator[k] as number)
    }
    this.addSums(2, contributions, 1, (sums) => [ratioOf(sums[0] as number, sums[1] as number, none)], (intervals) => done(intervals[0] as BootstrapInterval))
  }

  /**
   * A statistic of weighted column sums for fractional amounts: each resample sums row by row in the order given
   * (`index[i]` is row i's item), so every resample rounds the same way. Whole-number amounts go through addSums.
   */
  addOrderedSums(index: Int32Array, columns: ReadonlyArray<Float64Array>, statistic: (sums: number[]) => Estimate, done: (interval: BootstrapInterval) => void): void {
    this.add((w) => {
      const sums = columns.map(() => 0)
      for (let i = 0; i < index.length; i++) {
        const weight = w[index[i] as number] as number
        if (weight === 0) continue
        for (let c = 0; c < columns.length; c++) sums[c] = (sums[c] as number) + weight * ((columns[c] as Float64Array)[i] as number)
      }
      return statistic(sums)
    }, done)
  }

  get size(): number {
    return this.entries.reduce((sum, e) => sum + e.size, 0)
  }

  /**
   * Draws the resamples and hands every statistic its interval: the point on the items as given, then per resample
   * one draw of n items with replacement (the generator's stream, item by item, exactly as a cluster bootstrap over
   * the items draws it), and percentile intervals (type 7) of the defined replicates.
   */
  run(settings: BootstrapSettings): void {
    this.start(settings)
    this.finish()
  }

  /**
   * The first half of `run`: lays out the sums, evaluates the points and sets the draw thread (where the settings
   * have one) drawing and summing the resamples, so that the caller can build what needs no interval meanwhile and
   * then `finish`. No statistic can be added once started.
   */
  start(settings: BootstrapSettings): void {
    if (this.started) throw new Error('the bootstrap plan was already started')
    this.started = true
    const statisticCount = this.size
    if (statisticCount === 0) return
    if (!(Number.isInteger(settings.resamples) && settings.resamples >= 1)) throw new RangeError(`resamples must be a positive integer (${settings.resamples})`)
    assertSeed(settings.seed)
    assertLevel(settings.level)
    const n = this.items.size
    const sums = new SumsLayout(n, this.entries.filter((e): e is SumsEntry => e.kind === 'sums'))
    const weights = new Int32Array(n)
    // With no statistic reading the draw item by item, a resample's draws go straight to the kinds of items.
    const byKind = this.entries.every((e) => e.kind === 'sums')
    // Each sums statistic's view of the one buffer every resample refills, made once.
    const views = this.entries.map((e) => (e.kind === 'sums' ? sums.of(e) : null))
    const evaluate = (record: (k: number, estimate: Estimate) => void): void => {
      let k = 0
      for (let e = 0; e < this.entries.length; e++) {
        const entry = this.entries[e] as Entry
        const estimates = entry.kind === 'sums' ? entry.statistic(views[e] as Float64Array) : entry.statistic(weights)
        for (let j = 0; j < entry.size; j++) record(k + j, estimates[j] ?? MISSING)
        k += entry.size
      }
    }

    weights.fill(1)
    sums.fill(weights)
    const points = new Array<Estimate>(statisticCount)
    evaluate((k, estimate) => (points[k] = estimate))

    const random = seededRandom(settings.seed)
    // Started now, so that the draw thread works while the caller builds the rest.
    const drawKinds = byKind ? sums.resamples(random, settings) : null
    this.pending = {
      close: () => drawKinds?.close(),
      finish: () => {
        // Each statistic's defined replicates, in the order drawn, in one buffer of a row per statistic.
        const resamples = settings.resamples
        const replicates = new Float64Array(statisticCount * resamples)
        const defined = new Int32Array(statisticCount)
        const record = (k: number, estimate: Estimate): void => {
          if (estimate.value === null || estimate.value === undefined) return
          replicates[k * resamples + (defined[k] as number)] = estimate.value
          defined[k] = (defined[k] as number) + 1
        }
        for (let r = 0; r < resamples; r++) {
          if (drawKinds) drawKinds.next()
          else {
            weights.fill(0)
            random.addDraws(weights, n)
            sums.fill(weights)
          }
          evaluate(record)
        }
        let k = 0
        for (const entry of this.entries) {
          entry.done(Array.from({ length: entry.size }, (_, j) => {
            const row = (k + j) * resamples
            return percentileInterval(points[k + j] as Estimate, replicates.subarray(row, row + (defined[k + j] as number)), settings)
          }))
          k += entry.size
        }
      }
    }
  }

  /** The second half of `run`: every resample's statistics, and every statistic's interval handed to it. */
  finish(): void {
    const pending = this.pending
    this.pending = null
    if (!pending) return
    try {
      pending.finish()
    } finally {
      pending.close()
    }
  }

  /** Ends a started plan without its intervals (the build that started it failed), freeing the draw thread. */
  abandon(): void {
    this.pending?.close()
    this.pending = null
  }
}

/** Whole-number counts per item as columns, for addRatioColumns. */
export interface RatioColumns {
  length: number
  item: Int32Array
  numerator: Int32Array
  denominator: Int32Array
}

function ratioOf(num: number, den: number, none: string): Estimate {
  return den === 0 ? { value: null, reason: none } : { value: num / den }
}

/** A statistic a computation did not return counts as undefined on that resample. */
const MISSING: Estimate = { value: null, reason: 'not computed' }

/** The percentile interval (type 7) of the defined replicates, as the stats module's cluster bootstrap reports it. */
function percentileInterval(point: Estimate, replicates: Float64Array, settings: BootstrapSettings): BootstrapInterval {
  // A typed array sorts by numeric value without a comparator call per comparison.
  const values = replicates.sort()
  const base = {
    point,
    level: settings.level,
    resamples: settings.resamples,
    undefinedResamples: settings.resamples - values.length,
    seed: settings.seed,
    generator: RANDOM_GENERATOR,
    method: 'cluster bootstrap, percentile interval (type 7)' as const
  }
  if (point.value === null) return { ...base, lower: null, upper: null, intervalReason: `the statistic is undefined on the data: ${point.reason}` }
  if (values.length === 0) return { ...base, lower: null, upper: null, intervalReason: 'the statistic was undefined in every resample' }
  const tail = (1 - settings.level) / 2
  return { ...base, lower: sortedQuantileType7(values, tail), upper: sortedQuantileType7(values, 1 - tail) }
}
