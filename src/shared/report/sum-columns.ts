/**
 * Contributions of a bootstrap sum statistic laid out as columns (item by dense index, slot, whole-number amount)
 * and grown as they are pushed: a statistic over tens of thousands of items declares them without an object each.
 */
export class SumColumns {
  items: Int32Array
  slots: Int32Array
  amounts: Float64Array
  length = 0
  private lastItem = Number.NaN
  private lastIndex = -1

  /** `indexOf` turns an item id into the plan's dense index (and refuses items outside its scope). */
  constructor(
    private readonly indexOf: (itemId: number) => number,
    capacity = 64
  ) {
    this.items = new Int32Array(capacity)
    this.slots = new Int32Array(capacity)
    this.amounts = new Float64Array(capacity)
  }

  push(itemId: number, slot: number, amount: number): void {
    if (!Number.isSafeInteger(amount)) throw new RangeError(`a sum contribution must be a whole number (${amount})`)
    if (!(Number.isInteger(slot) && slot >= 0 && slot <= 0x7fffffff)) throw new RangeError(`slot ${slot} must be a whole number from 0`)
    // An item's contributions usually come one after another: its index is looked up once per run of them.
    if (itemId !== this.lastItem) {
      this.lastIndex = this.indexOf(itemId)
      this.lastItem = itemId
    }
    const index = this.lastIndex
    if (this.length === this.items.length) this.grow()
    this.items[this.length] = index
    this.slots[this.length] = slot
    this.amounts[this.length] = amount
    this.length++
  }

  private grow(): void {
    const capacity = this.items.length * 2
    const items = new Int32Array(capacity)
    const slots = new Int32Array(capacity)
    const amounts = new Float64Array(capacity)
    items.set(this.items)
    slots.set(this.slots)
    amounts.set(this.amounts)
    this.items = items
    this.slots = slots
    this.amounts = amounts
  }
}
