import { balancedSwaps, type LayoutPair } from '../../shared/protocol/display'
import type { Project } from '../store/project'
import { assignedProposalPairs, assignmentStamp } from '../store/assignments'

// Which proposal of a pair an annotator sees on the left. Each person's pairs are balanced (see balancedSwaps):
// the human-written side is on the left in half of them, within one, and a pair keeps one layout across the
// instruments that show it (pairwise preference and flaw audit). Only main knows which side is human.

interface Cached {
  stamp: string
  swaps: Map<number, boolean>
}

const cache = new WeakMap<Project['db'], Map<number, Cached>>()

/** The key of an annotator's display orders: their id, which a rename does not change. */
export function layoutViewer(annotatorId: number): string {
  return `annotator:${annotatorId}`
}

/** The annotator's pairs in the order they were first assigned, with the stratum the balance keeps. */
function assignedPairs(db: Project['db'], annotatorId: number): Array<LayoutPair & { itemId: number }> {
  const rows = assignedProposalPairs(db, annotatorId)
  return rows.map((r) => ({ itemId: r.item_id, pairId: r.external_id, humanIsA: r.a_origin === 'human' }))
}

/**
 * Whether the pair `itemId` is shown swapped to this annotator; undefined when it is not among their pairs (the
 * caller then falls back to the seeded hash rule). Recomputed when their assignments change.
 */
export function annotatorSwap(project: Project, annotatorId: number, itemId: number): boolean | undefined {
  const db = project.db
  const { n, last } = assignmentStamp(db, annotatorId)
  const stamp = `${project.seed}:${n}:${last ?? 0}`
  let byAnnotator = cache.get(db)
  if (!byAnnotator) cache.set(db, (byAnnotator = new Map()))
  let entry = byAnnotator.get(annotatorId)
  if (!entry || entry.stamp !== stamp) {
    const pairs = assignedPairs(db, annotatorId)
    const byPair = balancedSwaps(project.seed, layoutViewer(annotatorId), pairs)
    entry = { stamp, swaps: new Map(pairs.map((p) => [p.itemId, byPair.get(p.pairId) ?? false])) }
    byAnnotator.set(annotatorId, entry)
  }
  return entry.swaps.get(itemId)
}
