import { assertFiniteNumbers, assertSameLength } from '../stats/input-checks'

/**
 * Isotonic (non-decreasing) regression of y on x by pool-adjacent-violators, with equal x values pooled first (as
 * sklearn's IsotonicRegression). Prediction interpolates linearly between the fitted points and clips outside their
 * range (sklearn's out_of_bounds='clip').
 */
export type IsotonicParameters = { x: number[]; y: number[] }

export function fitIsotonic(xs: readonly number[], ys: readonly number[]): IsotonicParameters {
  assertSameLength(xs, ys, 'isotonic regression')
  assertFiniteNumbers(xs, 'isotonic regression scores')
  assertFiniteNumbers(ys, 'isotonic regression targets')
  if (xs.length === 0) throw new RangeError('isotonic regression needs at least one labelled score')
  // Pool equal x: one block per distinct x, weighted by its count.
  const byX = new Map<number, { sum: number; weight: number }>()
  xs.forEach((x, i) => {
    const entry = byX.get(x) ?? { sum: 0, weight: 0 }
    entry.sum += ys[i] as number
    entry.weight += 1
    byX.set(x, entry)
  })
  const points = [...byX.entries()].sort((a, b) => a[0] - b[0])
  type Block = { mean: number; weight: number; first: number; last: number }
  const blocks: Block[] = []
  points.forEach(([, { sum, weight }], index) => {
    blocks.push({ mean: sum / weight, weight, first: index, last: index })
    while (blocks.length > 1) {
      const top = blocks[blocks.length - 1] as Block
      const below = blocks[blocks.length - 2] as Block
      if (below.mean <= top.mean) break
      const weight = below.weight + top.weight
      blocks.splice(blocks.length - 2, 2, { mean: (below.mean * below.weight + top.mean * top.weight) / weight, weight, first: below.first, last: top.last })
    }
  })
  const fitted = new Array<number>(points.length)
  for (const block of blocks) for (let i = block.first; i <= block.last; i++) fitted[i] = block.mean
  return { x: points.map(([x]) => x), y: fitted }
}

export function isotonicPredict(parameters: IsotonicParameters, x: number): number {
  const { x: xs, y: ys } = parameters
  const n = xs.length
  if (n === 0) throw new RangeError('isotonic regression without fitted points')
  if (x <= (xs[0] as number)) return ys[0] as number
  if (x >= (xs[n - 1] as number)) return ys[n - 1] as number
  let hi = 1
  while ((xs[hi] as number) < x) hi++
  const x0 = xs[hi - 1] as number, x1 = xs[hi] as number
  const y0 = ys[hi - 1] as number, y1 = ys[hi] as number
  return y0 + ((x - x0) / (x1 - x0)) * (y1 - y0)
}
