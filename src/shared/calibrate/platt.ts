import { assertFiniteNumbers, assertSameLength, binaryOutcomes } from '../stats/input-checks'

/**
 * Platt scaling (Platt 1999): P(y = 1 | s) = 1 / (1 + exp(−(a·s + b))), fitted by maximum likelihood with Platt's
 * smoothed targets t₊ = (N₊ + 1)/(N₊ + 2) and t₋ = 1/(N₋ + 2) (as sklearn's sigmoid calibration), so that a
 * separable fit set does not drive the slope to infinity. Newton's method with step halving.
 */
export type PlattParameters = { a: number; b: number; targets: { positive: number; negative: number }; iterations: number }

export function fitPlatt(scores: readonly number[], outcomes: readonly (number | boolean)[]): PlattParameters {
  assertSameLength(scores, outcomes, 'Platt scaling')
  assertFiniteNumbers(scores, 'Platt scaling scores')
  const y = binaryOutcomes(outcomes, 'Platt scaling')
  if (y.length === 0) throw new RangeError('Platt scaling needs at least one labelled score')
  const positives = y.filter((v) => v === 1).length
  const negatives = y.length - positives
  const hi = (positives + 1) / (positives + 2)
  const lo = 1 / (negatives + 2)
  const t = y.map((v) => (v === 1 ? hi : lo))
  let a = 0
  let b = Math.log((positives + 1) / (negatives + 1))
  const loss = (a_: number, b_: number) =>
    scores.reduce((sum, s, i) => {
      const z = a_ * s + b_
      // −[t·log σ(z) + (1 − t)·log(1 − σ(z))], written stably.
      const ti = t[i] as number
      return sum + (z >= 0 ? (1 - ti) * z + Math.log1p(Math.exp(-z)) : -ti * z + Math.log1p(Math.exp(z)))
    }, 0)
  let current = loss(a, b)
  let iterations = 0
  for (; iterations < 100; iterations++) {
    let ga = 0, gb = 0, haa = 1e-12, hab = 0, hbb = 1e-12
    scores.forEach((s, i) => {
      const p = sigmoid(a * s + b)
      const d = p - (t[i] as number)
      const w = p * (1 - p)
      ga += d * s
      gb += d
      haa += w * s * s
      hab += w * s
      hbb += w
    })
    const det = haa * hbb - hab * hab
    if (!(Math.abs(det) > 0)) break
    const da = (hbb * ga - hab * gb) / det
    const db = (haa * gb - hab * ga) / det
    let step = 1
    let next = loss(a - step * da, b - step * db)
    while (next > current && step > 1e-10) {
      step /= 2
      next = loss(a - step * da, b - step * db)
    }
    if (next > current) break
    a -= step * da
    b -= step * db
    const improvement = current - next
    current = next
    if (improvement < 1e-12 && Math.abs(ga) + Math.abs(gb) < 1e-9) break
  }
  return { a, b, targets: { positive: hi, negative: lo }, iterations }
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z))
}

export function plattProbability(parameters: Pick<PlattParameters, 'a' | 'b'>, score: number): number {
  return sigmoid(parameters.a * score + parameters.b)
}
