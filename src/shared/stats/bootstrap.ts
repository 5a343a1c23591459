import { assertLevel } from './input-checks'
import { sortedQuantileType7 } from './quantile'
import { RANDOM_GENERATOR, assertSeed, seededRandom, type SeededRandom } from './seeded-random'
import { binnedResamples, type DrawAhead, type DrawsAhead } from './draw-ahead'
import type { Estimate } from './types'

export const DEFAULT_BOOTSTRAP_RESAMPLES = 2000
export const DEFAULT_BOOTSTRAP_SEED = 20240917

export type BootstrapOptions = {
  /** Number of resamples drawn (default 2,000). */
  resamples?: number
  seed?: number
  /** Confidence level of the percentile interval (default 0.95). */
  level?: number
  /** Where the binned bootstrap may have its draws made on another thread (the same draws; see DrawAhead). */
  drawAhead?: DrawAhead | undefined
}

export type BootstrapInterval = {
  /** The statistic on the units as given. */
  point: Estimate
  /** Percentile interval (type-7 quantiles of the defined replicates); null with intervalReason when there is none. */
  lower: number | null
  upper: number | null
  intervalReason?: string
  level: number
  resamples: number
  /** Resamples on which the statistic was undefined: excluded from the interval, never counted as 0. */
  undefinedResamples: number
  seed: number
  generator: string
  method: 'cluster bootstrap, percentile interval (type 7)'
}

/** Rows grouped into resampling units by a unit id, in order of first appearance. */
export type Unit<R, I extends string | number = string> = { id: I; rows: R[] }

export function groupRowsIntoUnits<R, I extends string | number = string>(rows: readonly R[], unitIdOf: (row: R) => I): Unit<R, I>[] {
  const units = new Map<I, Unit<R, I>>()
  for (const row of rows) {
    const id = unitIdOf(row)
    const unit = units.get(id)
    if (unit) unit.rows.push(row)
    else units.set(id, { id, rows: [row] })
  }
  return [...units.values()]
}

/**
 * Cluster bootstrap: resamples whole units (e.g. items, with all their rows: both display orders, every rater)
 * with replacement, so rows of one item are never treated as independent evidence. A unit drawn twice appears
 * twice in the resample; a statistic must not merge draws by unit id.
 */
export function clusterBootstrap<U>(
  units: readonly U[],
  statistic: (resample: readonly U[]) => Estimate,
  options: BootstrapOptions = {}
): BootstrapInterval {
  return clusterBootstrapMany(units, (resample) => ({ statistic: statistic(resample) }), options).statistic
}

/**
 * Cluster bootstrap of several statistics computed on the same resamples (e.g. one strength per proposal).
 * The keys of the point estimate define the statistics; a key missing from a resample counts as undefined there.
 */
export function clusterBootstrapMany<U, K extends string>(
  units: readonly U[],
  statistics: (resample: readonly U[]) => Record<K, Estimate>,
  options: BootstrapOptions = {}
): Record<K, BootstrapInterval> {
  // One resample, filled anew from each draw of indices (a statistic reads its resample and keeps nothing of it).
  const resample = new Array<U>(units.length)
  return clusterBootstrapDrawn(
    units.length,
    (drawn) => {
      if (drawn === null) return statistics(units)
      for (let i = 0; i < drawn.length; i++) resample[i] = units[drawn[i] as number] as U
      return statistics(resample)
    },
    options
  )
}

/**
 * The same cluster bootstrap over `count` units told only by their indices: `statistics` gets each resample's drawn
 * unit indices (null for the units as given, in order), so a statistic held in columns sums them without a resample
 * of objects. The draws are those of clusterBootstrapMany, in the same order.
 */
export function clusterBootstrapDrawn<K extends string>(
  count: number,
  statistics: (drawn: Int32Array | null) => Record<K, Estimate>,
  options: BootstrapOptions = {}
): Record<K, BootstrapInterval> {
  // One array of drawn indices, filled anew for each resample: the same draws in the same order as a call per unit.
  const drawn = new Int32Array(count)
  return resampled(statistics, options, (random) => {
    if (count > 0) random.fillBelow(drawn, count)
    return drawn
  })
}

/**
 * The same cluster bootstrap told by how often each unit was drawn: `statistics` gets each resample's times drawn
 * per unit (null for the units as given). The draws are those of clusterBootstrapDrawn, in the same order, so a
 * statistic of whole-number sums over the drawn units gives the same figures; it reads the units in order instead
 * of the drawn indices.
 */
export function clusterBootstrapCounted<K extends string>(
  count: number,
  statistics: (times: Int32Array | null) => Record<K, Estimate>,
  options: BootstrapOptions = {}
): Record<K, BootstrapInterval> {
  const times = new Int32Array(count)
  return resampled(statistics, options, (random) => {
    times.fill(0)
    if (count > 0) random.addDraws(times, count)
    return times
  })
}

/**
 * The same cluster bootstrap for statistics that depend on the units only through their bins (units of one bin add
 * alike to every sum): `statistics` gets how often the units of each bin were drawn, the bins' sizes for the units as
 * given. The draws are those of clusterBootstrapCounted, in the same order, each added to its unit's bin, so sums of
 * whole numbers give the same figures with a pass over the bins instead of the units.
 */
export function clusterBootstrapBinned<K extends string>(
  binOf: Int32Array,
  binCount: number,
  statistics: (drawnPerBin: Int32Array) => Record<K, Estimate>,
  options: BootstrapOptions = {}
): Record<K, BootstrapInterval> {
  const sizes = new Int32Array(binCount)
  for (const bin of binOf) {
    if (!(bin >= 0 && bin < binCount)) throw new RangeError(`bin ${bin} is outside 0..${binCount - 1}`)
    sizes[bin] = (sizes[bin] as number) + 1
  }
  const counts = new Int32Array(binCount)
  let resamples = null as DrawsAhead | null
  try {
    return resampled((drawn) => statistics(drawn ?? sizes), options, (random, settings) => {
      // Made at the first draw, once the settings are checked.
      resamples ??= binnedResamples(random, { ...settings, bins: binOf, binCount, draws: binOf.length }, options.drawAhead)
      resamples.next(counts)
      return counts
    })
  } finally {
    resamples?.close()
  }
}

/** The percentile bootstrap of statistics evaluated on the data as given, then on each drawn resample. */
function resampled<K extends string>(
  statistics: (resample: Int32Array | null) => Record<K, Estimate>,
  options: BootstrapOptions,
  draw: (random: SeededRandom, settings: { seed: number; resamples: number }) => Int32Array
): Record<K, BootstrapInterval> {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED
  const level = options.level ?? 0.95
  if (!(Number.isInteger(resamples) && resamples >= 1)) throw new RangeError(`resamples must be a positive integer (${resamples})`)
  assertSeed(seed)
  assertLevel(level)

  const points = statistics(null)
  const keys = Object.keys(points) as K[]
  const replicates = new Map<K, number[]>(keys.map((key) => [key, []]))
  const random = seededRandom(seed)
  const settings = { seed, resamples }
  for (let r = 0; r < resamples; r++) {
    const estimates = statistics(draw(random, settings))
    for (const key of keys) {
      const value = estimates[key]?.value
      if (value !== null && value !== undefined) replicates.get(key)?.push(value)
    }
  }

  const results = {} as Record<K, BootstrapInterval>
  for (const key of keys) {
    const values = (replicates.get(key) ?? []).sort((a, b) => a - b)
    const point = points[key]
    const base = {
      point,
      level,
      resamples,
      undefinedResamples: resamples - values.length,
      seed,
      generator: RANDOM_GENERATOR,
      method: 'cluster bootstrap, percentile interval (type 7)' as const
    }
    if (point.value === null) {
      results[key] = { ...base, lower: null, upper: null, intervalReason: `the statistic is undefined on the data: ${point.reason}` }
    } else if (values.length === 0) {
      results[key] = { ...base, lower: null, upper: null, intervalReason: 'the statistic was undefined in every resample' }
    } else {
      const tail = (1 - level) / 2
      results[key] = { ...base, lower: sortedQuantileType7(values, tail), upper: sortedQuantileType7(values, 1 - tail) }
    }
  }
  return results
}

export type PairedBootstrapDifference = BootstrapInterval & {
  /** The two statistics on the units as given; point is first − second. */
  first: Estimate
  second: Estimate
}

/**
 * Paired cluster bootstrap of the difference between two sources scored on the same units (e.g. judge vs judge):
 * each resample evaluates both on the same drawn units, so their correlation is kept. A resample where either is
 * undefined is an undefined difference.
 */
export function pairedBootstrapDifference<U>(
  units: readonly U[],
  firstStatistic: (resample: readonly U[]) => Estimate,
  secondStatistic: (resample: readonly U[]) => Estimate,
  options: BootstrapOptions = {}
): PairedBootstrapDifference {
  const first = firstStatistic(units)
  const second = secondStatistic(units)
  const difference = (resample: readonly U[]): Estimate => {
    const a = firstStatistic(resample)
    const b = secondStatistic(resample)
    if (a.value === null) return { value: null, reason: `first source: ${a.reason}` }
    if (b.value === null) return { value: null, reason: `second source: ${b.reason}` }
    return { value: a.value - b.value }
  }
  return { ...clusterBootstrap(units, difference, options), first, second }
}
