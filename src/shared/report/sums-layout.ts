import { WeightedSums, binnedResamples, laneSumsKernelModule, sumsKernelModule, type SeededRandom } from '../stats'
import type { BootstrapSettings } from './intervals'
import type { SumColumns } from './sum-columns'

/** How often each item (by dense index) was drawn into a resample. */
type Weights = Int32Array

/** One `addSums` statistic as laid out: how many sums it has, and its items' contributions to them. */
export interface SumsSpec {
  slots: number
  contributions: SumColumns
}

/**
 * The contributions of every `addSums` statistic, gathered per item into one row (global slot, amount), and items
 * with the same row grouped into one kind: items that were judged alike add the same amounts to the same sums, and
 * there are usually far fewer kinds than items (a few hundred among tens of thousands of pairs). A resample then
 * costs one pass over the items to total the draws of each kind, and one pass over the kinds' rows.
 */
export class SumsLayout {
  /** Kind of each item (by dense index); -1 for items that add to no sum. */
  private readonly kindOfItem: Int32Array
  /** Times the items of each kind were drawn; one more bin at the end for items that add to no sum. */
  private readonly kindWeights: Int32Array
  /** kindOfItem with the last bin in place of -1, for drawing straight into kindWeights. */
  private readonly binOfItem: Int32Array
  /** The kinds' compressed rows (slots with their amounts) and their sums under the kinds' draws. */
  private readonly weighted: WeightedSums
  private readonly firstSlot = new Map<SumsSpec, number>()

  constructor(itemCount: number, entries: readonly SumsSpec[]) {
    // Rows of all items in one buffer (compressed by item): count, place, then sort and merge each row.
    const rowStart = new Int32Array(itemCount + 1)
    let slotCount = 0
    for (const entry of entries) {
      this.firstSlot.set(entry, slotCount)
      slotCount += entry.slots
      const { items, amounts, length } = entry.contributions
      for (let p = 0; p < length; p++) {
        if (amounts[p] === 0) continue
        const next = (items[p] as number) + 1
        rowStart[next] = (rowStart[next] as number) + 1
      }
    }
    for (let i = 0; i < itemCount; i++) rowStart[i + 1] = (rowStart[i + 1] as number) + (rowStart[i] as number)
    const rowSlots = new Int32Array(rowStart[itemCount] as number)
    const rowAmounts = new Float64Array(rowSlots.length)
    const rowEnd = rowStart.slice(0, itemCount)
    for (const entry of entries) {
      const first = this.firstSlot.get(entry) as number
      const { items, slots, amounts, length } = entry.contributions
      for (let p = 0; p < length; p++) {
        const amount = amounts[p] as number
        if (amount === 0) continue
        const i = items[p] as number
        const at = rowEnd[i] as number
        rowSlots[at] = first + (slots[p] as number)
        rowAmounts[at] = amount
        rowEnd[i] = at + 1
      }
    }

    this.kindOfItem = new Int32Array(itemCount).fill(-1)
    const kindsByHash = new Map<number, number[]>()
    const offsets: number[] = [0]
    const slots: number[] = []
    const amounts: number[] = []
    const sameAsKind = (kind: number, from: number, length: number): boolean => {
      const start = offsets[kind] as number
      if ((offsets[kind + 1] as number) - start !== length) return false
      for (let p = 0; p < length; p++) {
        if (slots[start + p] !== rowSlots[from + p] || amounts[start + p] !== rowAmounts[from + p]) return false
      }
      return true
    }
    for (let i = 0; i < itemCount; i++) {
      const start = rowStart[i] as number
      const end = rowEnd[i] as number
      if (start === end) continue
      // Whole numbers, so merging an item's amounts on one slot changes no sum.
      const length = sortAndMerge(rowSlots, rowAmounts, start, end)
      let hash = 0x811c9dc5
      for (let p = start; p < start + length; p++) {
        hash = Math.imul(hash ^ (rowSlots[p] as number), 0x01000193)
        hash = Math.imul(hash ^ (rowAmounts[p] as number), 0x01000193)
      }
      const candidates = kindsByHash.get(hash)
      let kind: number | undefined
      if (candidates) {
        for (let k = 0; k < candidates.length && kind === undefined; k++) if (sameAsKind(candidates[k] as number, start, length)) kind = candidates[k]
      }
      if (kind === undefined) {
        kind = offsets.length - 1
        for (let p = start; p < start + length; p++) {
          slots.push(rowSlots[p] as number)
          amounts.push(rowAmounts[p] as number)
        }
        offsets.push(slots.length)
        if (candidates) candidates.push(kind)
        else kindsByHash.set(hash, [kind])
      }
      this.kindOfItem[i] = kind
    }
    const kinds = offsets.length - 1
    this.binOfItem = this.kindOfItem.map((kind) => (kind < 0 ? kinds : kind))
    this.weighted = new WeightedSums(Int32Array.from(offsets), Int32Array.from(slots), Float64Array.from(amounts), slotCount)
    this.kindWeights = this.weighted.weights
  }

  /** Every sum on the items weighted by how often each was drawn. */
  fill(weights: Weights): void {
    this.countKinds(weights)
    this.fillFromKinds()
  }

  /** Totals the draws of each kind from the draws of each item. */
  countKinds(weights: Weights): void {
    const { kindOfItem, kindWeights } = this
    kindWeights.fill(0)
    for (let i = 0; i < kindOfItem.length; i++) {
      const kind = kindOfItem[i] as number
      if (kind >= 0) kindWeights[kind] = (kindWeights[kind] as number) + (weights[i] as number)
    }
  }

  /**
   * Each resample's draws of `n` items (the stream a draw per item gives), totalled by kind as they are drawn, and
   * every sum of the resample filled in by `next()`: on the settings' draw thread when it takes the job (which then
   * sums them too, with the same kernel on the same rows), else drawn in line from `random` and summed here.
   */
  resamples(random: SeededRandom, settings: BootstrapSettings): { next: () => void; close: () => void } {
    const module = settings.drawAhead ? sumsKernelModule() : null
    const job = {
      seed: settings.seed,
      bins: this.binOfItem,
      binCount: this.kindWeights.length,
      draws: this.binOfItem.length,
      resamples: settings.resamples,
      ...(module ? { sums: { module, lanes: laneSumsKernelModule(), rows: this.weighted.rows } } : {})
    }
    const drawn = binnedResamples(random, job, settings.drawAhead)
    const { kindWeights } = this
    const sums = this.weighted.sums
    const next = drawn.nextSums
      ? () => {
          if (!(drawn.nextSums as NonNullable<typeof drawn.nextSums>)(kindWeights, sums)) this.fillFromKinds()
        }
      : () => {
          drawn.next(kindWeights)
          this.fillFromKinds()
        }
    return { next, close: () => drawn.close() }
  }

  /** Every sum from the draws of each kind (the last bin, items that add to no sum, is not read). */
  fillFromKinds(): void {
    this.weighted.fill()
  }

  of(entry: SumsSpec): Float64Array {
    const first = this.firstSlot.get(entry) as number
    return this.weighted.sums.subarray(first, first + entry.slots)
  }
}

/**
 * Sorts one row (slots[start..end) with their amounts) by slot and merges repeated slots by adding their amounts;
 * returns the merged length, left at the row's start. Rows are short (one entry per statistic an item counts in).
 */
function sortAndMerge(slots: Int32Array, amounts: Float64Array, start: number, end: number): number {
  for (let p = start + 1; p < end; p++) {
    const slot = slots[p] as number
    const amount = amounts[p] as number
    let q = p - 1
    while (q >= start && (slots[q] as number) > slot) {
      slots[q + 1] = slots[q] as number
      amounts[q + 1] = amounts[q] as number
      q--
    }
    slots[q + 1] = slot
    amounts[q + 1] = amount
  }
  let last = start
  for (let p = start + 1; p < end; p++) {
    if (slots[p] === slots[last]) amounts[last] = (amounts[last] as number) + (amounts[p] as number)
    else {
      last++
      slots[last] = slots[p] as number
      amounts[last] = amounts[p] as number
    }
  }
  return last - start + 1
}
