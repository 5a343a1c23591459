/** 1-based ranks with ties given the average of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, index) => index).sort((a, b) => (values[a] as number) - (values[b] as number))
  const ranks = new Array<number>(values.length).fill(0)
  let start = 0
  while (start < order.length) {
    let end = start
    while (end + 1 < order.length && values[order[end + 1] as number] === values[order[start] as number]) end++
    const rank = (start + end) / 2 + 1
    for (let position = start; position <= end; position++) ranks[order[position] as number] = rank
    start = end + 1
  }
  return ranks
}

/** Sizes of the groups of tied values (groups of one included). */
export function tieGroupSizes(values: readonly number[]): number[] {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.values()]
}
