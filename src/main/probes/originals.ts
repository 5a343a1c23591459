import type { Db } from '../store/database'
import { AssayError } from '../../shared/errors'
import { proposalPairSchema, type ProposalPair, type Split } from '../../shared/items/kinds'
import { seededShuffle } from '../../shared/protocol'

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
  const rows = db
    .prepare(
      `SELECT id, external_id, split, payload FROM items i
       WHERE kind = 'proposal-pair' AND set_name = ? AND NOT EXISTS (SELECT 1 FROM probes p WHERE p.item_id = i.id) ORDER BY id`
    )
    .all(q.set) as Array<{ id: number; external_id: string; split: Split; payload: string }>
  if (!rows.length) {
    const sets = (db.prepare(`SELECT DISTINCT set_name AS s FROM items WHERE kind = 'proposal-pair'`).all() as Array<{ s: string }>).map((r) => r.s)
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
