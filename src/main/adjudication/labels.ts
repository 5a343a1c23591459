import { referenceLabel, type ReferenceLabel } from '../../shared/items/reference-label'
import type { Db } from '../store/database'
import { basedOnOf, currentAdjudicationsWithItems } from '../store/adjudications'

export interface AdjudicatedLabelFilter {
  set?: string | undefined
  split?: 'dev' | 'test' | 'none' | undefined
  instrument?: string | undefined
}

/**
 * Final labels as an export writes them: the head of each item's adjudication chain, in canonical order, with its
 * provenance (curator, reason, the answers it rests on, the adjudication it replaced). Field names follow the label
 * export, with `source_kind` 'adjudicated'.
 */
export interface AdjudicatedLabelRecord {
  item: string
  item_kind: string
  set: string
  split: string
  instrument: string
  source: string
  source_kind: 'adjudicated'
  judgement: unknown
  created_at: string
  origin: string
  adjudication_id: string
  curator: string
  reason: string
  based_on: string[]
  supersedes: string | null
  canonical_label: ReferenceLabel | null
}

/** Every adjudication head, stale or not (`finalLabels` decides which ones stand). */
export function adjudicatedLabels(db: Db, filter: AdjudicatedLabelFilter = {}): AdjudicatedLabelRecord[] {
  const rows = currentAdjudicationsWithItems(db, filter)
  const seen = new Set<string>()
  const out: AdjudicatedLabelRecord[] = []
  for (const r of rows) {
    const key = `${r.item_id}\u0000${r.instrument_id}`
    if (seen.has(key)) continue
    seen.add(key)
    const payload = JSON.parse(r.payload) as Record<string, unknown>
    out.push({
      item: r.external_id,
      item_kind: r.kind,
      set: r.set_name,
      split: r.split,
      instrument: r.instrument_id,
      source: 'adjudicated',
      source_kind: 'adjudicated',
      judgement: JSON.parse(r.judgement) as unknown,
      created_at: r.created_at,
      origin: `adjudication:${r.curator}`,
      adjudication_id: r.id,
      curator: r.curator,
      reason: r.reason,
      based_on: basedOnOf(r),
      supersedes: r.supersedes,
      canonical_label: referenceLabel(r.kind, payload)
    })
  }
  return out
}
