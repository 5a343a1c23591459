/**
 * Dense indices of item ids, in order of first appearance. Where the ids are whole numbers from 0 and not much
 * sparser than the items (as a project's are), an id is looked up in an array: a map of a hundred thousand numbers
 * misses the processor's caches on nearly every lookup.
 */

/** Ids are looked up in an array while the largest is below this many per item (plus the slack). */
const DENSE_IDS_PER_ITEM = 8
const DENSE_IDS_SLACK = 4096

export class ItemIndex {
  private readonly indexOf = new Map<number, number>()
  private readonly byId: Int32Array | null

  constructor(itemIds: Iterable<number>) {
    let largest = -1
    let whole = true
    for (const id of itemIds) {
      if (this.indexOf.has(id)) continue
      this.indexOf.set(id, this.indexOf.size)
      if (Number.isInteger(id) && id >= 0) largest = Math.max(largest, id)
      else whole = false
    }
    this.byId = whole && largest < DENSE_IDS_PER_ITEM * this.indexOf.size + DENSE_IDS_SLACK ? new Int32Array(largest + 1).fill(-1) : null
    if (this.byId) for (const [id, index] of this.indexOf) this.byId[id] = index
  }

  get size(): number {
    return this.indexOf.size
  }

  /** The dense index of an id, or -1 for an id not indexed. */
  find(itemId: number): number {
    const byId = this.byId
    if (byId && itemId >= 0 && itemId < byId.length && Number.isInteger(itemId)) return byId[itemId] as number
    return this.indexOf.get(itemId) ?? -1
  }
}
