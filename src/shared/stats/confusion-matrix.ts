import { indexCategories, positionOf } from './categories'
import { assertSameLength } from './input-checks'
import type { Category } from './types'

export type ConfusionMatrix<C extends Category> = {
  /** The declared categories, in order; every one appears even with zero counts. */
  categories: C[]
  /** counts[i][j]: items the reference put in categories[i] and the other source in categories[j]. */
  counts: number[][]
  total: number
}

/** Cross-tabulates paired labels over a declared category list (rows: reference, columns: other source). */
export function confusionMatrix<C extends Category>(
  reference: readonly C[],
  predicted: readonly C[],
  categories: readonly C[]
): ConfusionMatrix<C> {
  assertSameLength(reference, predicted, 'confusion matrix')
  const positions = indexCategories(categories, 'confusion matrix')
  const counts = categories.map(() => categories.map(() => 0))
  reference.forEach((label, item) => {
    const row = positionOf(positions, label, 'confusion matrix (reference)')
    const column = positionOf(positions, predicted[item] as C, 'confusion matrix (other source)')
    const cells = counts[row] as number[]
    cells[column] = (cells[column] ?? 0) + 1
  })
  return { categories: [...categories], counts, total: reference.length }
}
