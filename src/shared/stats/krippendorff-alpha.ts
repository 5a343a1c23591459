import { indexCategories, observedCategories, positionOf } from './categories'
import { defined, undefinedBecause, type Category, type Estimate, type MeasurementLevel } from './types'

export type KrippendorffAlpha = Estimate & {
  level: MeasurementLevel
  /** Values in units with at least 2 values: the n of Krippendorff's formulas. */
  pairableValues: number
  unitsUsed: number
  /** Units with fewer than 2 values, which cannot be paired and are left out. */
  unitsDropped: number
}

export type KrippendorffOptions<C extends Category> = {
  /**
   * Ordered values of the scale (lowest first). Required for ordinal labels that are not numbers; for numbers the
   * numeric order is used. Values outside a declared domain are rejected.
   */
  domain?: readonly C[]
}

/**
 * Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's alpha-reliability") for a reliability data
 * matrix of observers × units with null where an observer gave no value. alpha = 1 − D_o / D_e computed from the
 * coincidence matrix of pairable values, with the difference function of the measurement level.
 */
export function krippendorffAlpha<C extends Category>(
  data: readonly (readonly (C | null)[])[],
  level: MeasurementLevel,
  options: KrippendorffOptions<C> = {}
): KrippendorffAlpha {
  const unitCount = data[0]?.length ?? 0
  data.forEach((row, observer) => {
    if (row.length !== unitCount) throw new RangeError(`Krippendorff's alpha: observer ${observer} has ${row.length} units, expected ${unitCount}`)
  })
  // The values seen are needed only to check numbers or to find the categories; a declared domain of categories
  // needs neither, and a report asks for alpha over tens of thousands of units.
  const numeric = level === 'interval' || level === 'ratio' || (level === 'ordinal' && !options.domain)
  const seen = numeric || !options.domain ? data.flatMap((row) => row.filter((value): value is C => value !== null)) : []
  if (numeric && seen.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    throw new RangeError(`Krippendorff's alpha: ${level} data must be finite numbers${level === 'ordinal' ? ' (or declare the ordered domain)' : ''}`)
  }
  if (level === 'ratio' && seen.some((v) => (v as number) < 0)) {
    throw new RangeError("Krippendorff's alpha: ratio data cannot be negative")
  }
  const domain = options.domain ? [...options.domain] : observedCategories(seen)
  const positions = indexCategories(domain, "Krippendorff's alpha")
  const size = domain.length

  // Coincidence matrix: each unit with m ≥ 2 values adds every ordered pair of values from different observers, weighted 1/(m − 1).
  const coincidences = domain.map(() => new Array<number>(size).fill(0))
  let unitsUsed = 0
  // A unit's distinct values in order of first appearance, with their counts: reused across units (a report runs
  // this over tens of thousands of units), in the order a map would give them, so every sum is added alike.
  const unitValues = new Int32Array(data.length)
  const unitCounts = new Int32Array(data.length)
  for (let unit = 0; unit < unitCount; unit++) {
    let distinct = 0
    let valuesInUnit = 0
    for (const row of data) {
      const value = row[unit]
      if (value === null || value === undefined) continue
      const position = positionOf(positions, value, "Krippendorff's alpha")
      let at = 0
      while (at < distinct && unitValues[at] !== position) at++
      if (at === distinct) {
        unitValues[at] = position
        unitCounts[at] = 0
        distinct++
      }
      unitCounts[at] = (unitCounts[at] as number) + 1
      valuesInUnit++
    }
    if (valuesInUnit < 2) continue
    unitsUsed++
    for (let i = 0; i < distinct; i++) {
      const c = unitValues[i] as number
      const countC = unitCounts[i] as number
      const row = coincidences[c] as number[]
      for (let j = 0; j < distinct; j++) {
        const k = unitValues[j] as number
        const countK = unitCounts[j] as number
        const pairs = c === k ? countC * (countC - 1) : countC * countK
        row[k] = (row[k] ?? 0) + pairs / (valuesInUnit - 1)
      }
    }
  }
  const tally = { level, unitsUsed, unitsDropped: unitCount - unitsUsed }
  const marginals = coincidences.map((row) => row.reduce((sum, value) => sum + value, 0))
  const pairableValues = marginals.reduce((sum, value) => sum + value, 0)
  // Coincidences are sums of fractions; round the total so that the count reported is an integer.
  const n = Math.round(pairableValues)
  if (unitsUsed === 0) return { ...undefinedBecause('no unit has values from at least 2 observers'), ...tally, pairableValues: 0 }

  const difference = differenceFunction(level, domain, marginals)
  let observedDisagreement = 0
  let expectedDisagreement = 0
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      if (c === k) continue
      const delta = difference(c, k)
      observedDisagreement += (coincidences[c]?.[k] ?? 0) * delta
      expectedDisagreement += (marginals[c] ?? 0) * (marginals[k] ?? 0) * delta
    }
  }
  if (expectedDisagreement === 0) {
    return { ...undefinedBecause('all pairable values are the same: expected disagreement is 0'), ...tally, pairableValues: n }
  }
  return { ...defined(1 - ((pairableValues - 1) * observedDisagreement) / expectedDisagreement), ...tally, pairableValues: n }
}

/** Squared difference δ²(c, k) between domain positions c and k at the given level. */
function differenceFunction<C extends Category>(
  level: MeasurementLevel,
  domain: readonly C[],
  marginals: readonly number[]
): (c: number, k: number) => number {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1)
    case 'ordinal':
      return (c, k) => {
        const low = Math.min(c, k)
        const high = Math.max(c, k)
        let between = 0
        for (let g = low; g <= high; g++) between += marginals[g] ?? 0
        const distance = between - ((marginals[low] ?? 0) + (marginals[high] ?? 0)) / 2
        return distance * distance
      }
    case 'interval':
      return (c, k) => ((domain[c] as number) - (domain[k] as number)) ** 2
    case 'ratio':
      return (c, k) => {
        const x = domain[c] as number
        const y = domain[k] as number
        return x + y === 0 ? 0 : ((x - y) / (x + y)) ** 2
      }
  }
}
