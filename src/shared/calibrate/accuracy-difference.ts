import { clusterBootstrapBinned, groupRowsIntoUnits, type BootstrapOptions, type Estimate, type PairedBootstrapDifference } from '../stats'

/**
 * after − before accuracy, by a paired bootstrap over items (an item's rows stay together), held in columns: items
 * with the same counts (rows, correct before, correct after) are one bin, and each resample sums the bins' counts
 * times how often their items were drawn. The sums are of integers, so they are the same in any order: the same
 * figures as evaluating both accuracies on resampled rows.
 */
export function accuracyDifference(rows: ReadonlyArray<{ itemId: number; before: boolean; after: boolean }>, bootstrap: BootstrapOptions): PairedBootstrapDifference {
  const units = groupRowsIntoUnits([...rows], (r) => String(r.itemId))
  const binOfCounts = new Map<string, number>()
  const size: number[] = []
  const before: number[] = []
  const after: number[] = []
  const binOf = Int32Array.from(units, (unit) => {
    let b = 0
    let a = 0
    for (const r of unit.rows) {
      if (r.before) b++
      if (r.after) a++
    }
    const key = `${unit.rows.length} ${b} ${a}`
    let bin = binOfCounts.get(key)
    if (bin === undefined) {
      bin = size.length
      binOfCounts.set(key, bin)
      size.push(unit.rows.length)
      before.push(b)
      after.push(a)
    }
    return bin
  })
  // Each bin's counts times how often its items were drawn: sums of whole numbers, the same as over the drawn units.
  const accuracies = (drawn: Int32Array): { n: number; after: number; before: number } => {
    let n = 0
    let a = 0
    let b = 0
    for (let k = 0; k < size.length; k++) {
      const weight = drawn[k] as number
      if (weight === 0) continue
      n += weight * (size[k] as number)
      a += weight * (after[k] as number)
      b += weight * (before[k] as number)
    }
    return { n, after: a, before: b }
  }
  const estimate = (correct: number, n: number): Estimate => (n ? { value: correct / n } : { value: null, reason: 'no units' })
  const difference = clusterBootstrapBinned(
    binOf,
    size.length,
    (drawn) => {
      const c = accuracies(drawn)
      if (c.n === 0) return { statistic: { value: null, reason: 'first source: no units' } }
      return { statistic: { value: c.after / c.n - c.before / c.n } }
    },
    bootstrap
  ).statistic
  const correct = (which: 'before' | 'after') => rows.reduce((sum, r) => sum + (r[which] ? 1 : 0), 0)
  return { ...difference, first: estimate(correct('after'), rows.length), second: estimate(correct('before'), rows.length) }
}
