import type { Category } from './types'

/**
 * Positions of declared categories. Categories are declared by the instrument, never inferred from the data:
 * a category nobody chose still exists (it changes chance agreement and ordinal distances).
 */
export function indexCategories<C extends Category>(categories: readonly C[], what: string): Map<C, number> {
  const positions = new Map<C, number>()
  categories.forEach((category, index) => {
    if (positions.has(category)) throw new RangeError(`${what}: category ${String(category)} is declared twice`)
    positions.set(category, index)
  })
  return positions
}

export function positionOf<C extends Category>(positions: ReadonlyMap<C, number>, label: C, what: string): number {
  const position = positions.get(label)
  if (position === undefined) {
    throw new RangeError(`${what}: label ${JSON.stringify(label)} is not one of the declared categories`)
  }
  return position
}

/** Distinct labels in a stable order (numbers ascending, then other labels by their text). */
export function observedCategories<C extends Category>(...sources: readonly (readonly C[])[]): C[] {
  const distinct = new Set<C>()
  for (const source of sources) for (const label of source) distinct.add(label)
  return [...distinct].sort((x, y) => {
    if (typeof x === 'number' && typeof y === 'number') return x - y
    if (typeof x === 'number') return -1
    if (typeof y === 'number') return 1
    const a = String(x)
    const b = String(y)
    return a < b ? -1 : a > b ? 1 : 0
  })
}
