import type { Db } from '../store/database'
import { AssayError } from '../../shared/errors'
import { proposalPairSchema, type ProposalPair, type Split } from '../../shared/items/kinds'
import { seededShuffle } from '../../shared/protocol'
import { proposalPairSets } from '../store/items'
import { unprobedPairs } from '../store/probes'

/** One proposal of an original pair that a probe can be derived from. */
export interface OriginalSide {
  itemId: number
  split: Split
  pair: ProposalPair
  side: 'a' | 'b'
}

export interface OriginalQuery {
  set: string
  /** Which proposals of each pair: a, b, or both (default). */
  sides: ReadonlyArray<'a' | 'b'>
  /** Only proposals whose origin is this one (e.g. only human-written originals). */
  origin?: 'human' | 'ai' | undefined
  seed: string
}

/**
 * The proposals of a set's pairs that can be perturbed (probe pairs themselves are never originals), in a seeded
 * order, so `--n N` takes the same N for the same seed.
 */
export function originalSides(db: Db, q: OriginalQuery): OriginalSide[] {
  const rows = unprobedPairs(db, q.set)
  if (!rows.length) {
    const sets = proposalPairSets(db)
    throw new AssayError('not_found', `No proposal pairs in set "${q.set}" (sets with proposal pairs: ${sets.join(', ') || 'none'}); import pairs first`)
  }
  const out: OriginalSide[] = []
  for (const r of rows) {
    const parsed = proposalPairSchema.safeParse(JSON.parse(r.payload))
    if (!parsed.success) throw new AssayError('bad_data', `Item ${r.external_id} is not a valid proposal pair`)
    for (const side of q.sides) {
      if (q.origin && parsed.data[side].origin !== q.origin) continue
      out.push({ itemId: r.id, split: r.split, pair: parsed.data, side })
    }
  }
  return seededShuffle(q.seed, 'probe-originals', out)
}
