import { clusterBootstrapMany, type BootstrapInterval, type Estimate } from '../stats'
import type { BootstrapSettings } from './intervals'

/** How many times each item (by dense index) was drawn into a resample; all ones for the data as given. */
export type Weights = Int32Array

type Entry = { size: number; statistic: (weights: Weights) => Estimate[]; done: (intervals: BootstrapInterval[]) => void }

/**
 * Every bootstrap interval of one report, drawn from one cluster bootstrap over the items in scope: each resample
 * draws whole items (all their units, display orders, trials and raters together) and every statistic of the report
 * is evaluated on that same resample. One draw per resample serves every figure, and differences between sources
 * are paired by construction. A statistic reads the draw as a weight per item and uses only the items it covers.
 */
export class BootstrapPlan {
  private readonly entries: Entry[] = []
  private readonly indexOfItem = new Map<number, number>()

  constructor(itemIds: Iterable<number>) {
    for (const id of itemIds) if (!this.indexOfItem.has(id)) this.indexOfItem.set(id, this.indexOfItem.size)
  }

  /** Dense index of an item id (items outside the plan's scope are an error). */
  index(itemId: number): number {
    const index = this.indexOfItem.get(itemId)
    if (index === undefined) throw new RangeError(`item ${itemId} is outside the report's scope`)
    return index
  }

  add(statistic: (weights: Weights) => Estimate, done: (interval: BootstrapInterval) => void): void {
    this.entries.push({ size: 1, statistic: (w) => [statistic(w)], done: (intervals) => done(intervals[0] as BootstrapInterval) })
  }

  /** Several statistics from one computation per resample (e.g. one strength per player of a fit). */
  addMany(size: number, statistic: (weights: Weights) => Estimate[], done: (intervals: BootstrapInterval[]) => void): void {
    this.entries.push({ size, statistic, done })
  }

  /** A ratio Σ w·numerator / Σ w·denominator over per-item sums (accuracy, mean absolute difference, Brier). */
  addRatio(items: ReadonlyArray<{ item: number; numerator: number; denominator: number }>, none: string, done: (interval: BootstrapInterval) => void): void {
    const index = Int32Array.from(items, (u) => this.index(u.item))
    const numerator = Float64Array.from(items, (u) => u.numerator)
    const denominator = Float64Array.from(items, (u) => u.denominator)
    this.add((w) => {
      let num = 0
      let den = 0
      for (let i = 0; i < index.length; i++) {
        const weight = w[index[i] as number] as number
        if (weight === 0) continue
        num += weight * (numerator[i] as number)
        den += weight * (denominator[i] as number)
      }
      return den === 0 ? { value: null, reason: none } : { value: num / den }
    }, done)
  }

  get size(): number {
    return this.entries.reduce((sum, e) => sum + e.size, 0)
  }

  run(settings: BootstrapSettings): void {
    if (this.entries.length === 0) return
    const units = Array.from({ length: this.indexOfItem.size }, (_, i) => i)
    const weights = new Int32Array(units.length)
    const intervals = clusterBootstrapMany(
      units,
      (resample) => {
        weights.fill(0)
        for (const unit of resample) weights[unit] = (weights[unit] as number) + 1
        const out: Record<string, Estimate> = {}
        this.entries.forEach((entry, k) => {
          entry.statistic(weights).forEach((estimate, j) => {
            out[`${k}.${j}`] = estimate
          })
        })
        return out
      },
      settings
    )
    this.entries.forEach((entry, k) => {
      entry.done(Array.from({ length: entry.size }, (_, j) => intervals[`${k}.${j}`] as BootstrapInterval))
    })
  }
}
