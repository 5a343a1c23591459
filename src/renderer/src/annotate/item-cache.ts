import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { api } from '../api'

/**
 * Blinded items fetched ahead of time, so moving on renders at once. An entry is dropped when its item is shown:
 * from then on the item's draft changes, and a later visit must fetch it fresh.
 */
export class ItemCache {
  private readonly ready = new Map<number, BlindedItem>()
  private readonly pending = new Map<number, Promise<BlindedItem>>()

  constructor(private readonly fetchItem: (assignmentId: number) => Promise<BlindedItem> = (id) => api['queue.item']({ assignmentId: id })) {}

  /** The item if it has arrived already. */
  peek(assignmentId: number): BlindedItem | undefined {
    return this.ready.get(assignmentId)
  }

  load(assignmentId: number): Promise<BlindedItem> {
    const have = this.ready.get(assignmentId)
    if (have) return Promise.resolve(have)
    let p = this.pending.get(assignmentId)
    if (!p) {
      p = this.fetchItem(assignmentId).then(
        (item) => {
          if (this.pending.get(assignmentId) === p) {
            this.pending.delete(assignmentId)
            this.ready.set(assignmentId, item)
          }
          return item
        },
        (e: unknown) => {
          this.pending.delete(assignmentId)
          throw e
        }
      )
      this.pending.set(assignmentId, p)
    }
    return p
  }

  prefetch(assignmentId: number | undefined): void {
    if (assignmentId === undefined) return
    this.load(assignmentId).catch(() => {
      // A failed prefetch is retried when the item is opened, where the error is shown.
    })
  }

  /** Drops every held or awaited item not in `keep`, so the cache holds the next few items and no more. */
  retain(keep: ReadonlySet<number>): void {
    for (const id of [...this.ready.keys(), ...this.pending.keys()]) if (!keep.has(id)) this.forget(id)
  }

  /** How many items are held or on their way. */
  get size(): number {
    return new Set([...this.ready.keys(), ...this.pending.keys()]).size
  }

  forget(assignmentId: number): void {
    this.ready.delete(assignmentId)
    this.pending.delete(assignmentId)
  }
}
