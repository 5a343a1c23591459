/**
 * 1-based ranks with ties given the average of the ranks they span. The values are sorted as numbers (a typed
 * array's own sort, no comparator call per comparison) and each distinct value is given its rank once: the same
 * ranks as ordering the positions, since tied values share one rank whatever order they are sorted in.
 */
export function averageRanks(values: readonly number[]): number[] {
  const sorted = Float64Array.from(values).sort()
  const rankOf = new Map<number, number>()
  let start = 0
  while (start < sorted.length) {
    let end = start
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[start]) end++
    rankOf.set(sorted[start] as number, (start + end) / 2 + 1)
    start = end + 1
  }
  return values.map((value) => rankOf.get(value) as number)
}

/** Sizes of the groups of tied values (groups of one included). */
export function tieGroupSizes(values: readonly number[]): number[] {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.values()]
}
