import type { Split } from '../items/kinds'
import type { StoredFit } from './types'

/** What keeps a fit's evaluation held out: the items never to score it on, and whether its eval split still is. */
export interface FitHoldOut {
  /** The items the fit learned from and the items made from the same originals, whatever their split now. */
  excluded: ReadonlySet<number>
  /** Why no held-out figure can be given (null while the fit's items are still where they were when it was fitted). */
  notHeldOut: string | null
}

export function fitHoldOut(fit: StoredFit): FitHoldOut {
  const excluded = new Set([...fit.fitItems, ...(fit.relatedItems ?? [])])
  const moved = Object.entries(fit.fitItemSplits ?? {}).filter(([split, n]) => split !== fit.spec.fit_split && (n ?? 0) > 0) as Array<[Split, number]>
  if (moved.length === 0) return { excluded, notHeldOut: null }
  const where = moved.map(([split, n]) => `${n} in ${split}`).join(', ')
  return {
    excluded,
    notHeldOut:
      `a split made after this fit moved ${moved.reduce((s, [, n]) => s + n, 0)} of the ${fit.fitItems.length} items it learned from out of ` +
      `${fit.spec.fit_split} (now ${where}): its ${fit.spec.eval_split} items were chosen after it was fitted, so no held-out figure is given; fit again on the current split`
  }
}

