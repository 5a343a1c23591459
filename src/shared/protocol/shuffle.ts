import { sha256Prefix64, seedText } from './hash'

// Seeded display orders for labelled lists (the match judge's P1..P5, the forecasts' H1..H5). Method
// "sha256-sort-v1": element i gets the key int(sha256(f"{seed}:{key}:{i}").hexdigest()[:16], 16) and the elements
// are shown in ascending key order (ties, which need a 64-bit collision, by index). Independent keys make every
// permutation equally likely; the method name is recorded so a stored order can be recomputed.

export const SHUFFLE_METHOD = 'sha256-sort-v1'

export interface SeededOrder {
  method: typeof SHUFFLE_METHOD
  /** order[displayPosition] = canonical index. */
  order: number[]
}

export function seededOrder(seed: string | number, key: string, length: number): SeededOrder {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be a non-negative integer, got ${length}`)
  const prefix = seedText(seed)
  const keyed = Array.from({ length }, (_, i) => ({ i, h: sha256Prefix64(`${prefix}:${key}:${i}`) }))
  keyed.sort((x, y) => (x.h < y.h ? -1 : x.h > y.h ? 1 : x.i - y.i))
  return { method: SHUFFLE_METHOD, order: keyed.map((k) => k.i) }
}

/** The items in seeded display order. */
export function seededShuffle<T>(seed: string | number, key: string, items: readonly T[]): T[] {
  return seededOrder(seed, key, items.length).order.map((i) => items[i] as T)
}

/** inverse[canonicalIndex] = display position. */
export function invertOrder(order: readonly number[]): number[] {
  const inverse = new Array<number>(order.length)
  order.forEach((canonical, position) => {
    inverse[canonical] = position
  })
  return inverse
}

export interface LabelledOrder {
  method: typeof SHUFFLE_METHOD
  /** The ids in display order with their labels: [{ label: 'P1', id }, ...]. */
  shown: Array<{ label: string; id: string }>
  /** Display label -> canonical id, to map an answer back. */
  idOfLabel: Record<string, string>
}

/** Labels `${prefix}1..n` for the ids in seeded display order. */
export function labelledOrder(seed: string | number, key: string, ids: readonly string[], prefix: string): LabelledOrder {
  const shown = seededShuffle(seed, key, ids).map((id, i) => ({ label: `${prefix}${i + 1}`, id }))
  return { method: SHUFFLE_METHOD, shown, idOfLabel: Object.fromEntries(shown.map((s) => [s.label, s.id])) }
}
