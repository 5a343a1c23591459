/**
 * Revision rows ordered so that every row follows the row it supersedes. Time alone does not give that order: a
 * merged revision keeps its own time but may be appended after a newer one. Roots come by time; rows whose chain
 * loops back on itself are left out (returned separately) so callers can refuse them.
 */
export function parentsFirst<T extends { id: string; supersedes: string | null; created_at: string }>(rows: ReadonlyArray<T>): { ordered: T[]; unreachable: T[] } {
  const byTime = [...rows].sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : 0))
  const ids = new Set(rows.map((r) => r.id))
  const children = new Map<string, T[]>()
  const roots: T[] = []
  for (const r of byTime) {
    if (r.supersedes !== null && ids.has(r.supersedes)) {
      const list = children.get(r.supersedes)
      if (list) list.push(r)
      else children.set(r.supersedes, [r])
    } else {
      roots.push(r)
    }
  }
  const ordered: T[] = []
  const stack = [...roots].reverse()
  while (stack.length) {
    const r = stack.pop()!
    ordered.push(r)
    const next = children.get(r.id) ?? []
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!)
  }
  const placed = new Set(ordered.map((r) => r.id))
  return { ordered, unreachable: byTime.filter((r) => !placed.has(r.id)) }
}
