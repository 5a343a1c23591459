import type { Db } from './database'

export type ExposureKind = 'label_viewed' | 'judge_output_viewed' | 'annotations_viewed' | 'prompt_revision' | 'exported'

export function logExposure(db: Db, itemId: number, kind: ExposureKind, actor: string, detail?: string): void {
  db.prepare(`INSERT INTO exposures (item_id, kind, actor, detail) VALUES (?, ?, ?, ?)`).run(itemId, kind, actor, detail ?? null)
}

export function exposedItemIds(db: Db): Set<number> {
  return new Set((db.prepare(`SELECT DISTINCT item_id FROM exposures`).all() as { item_id: number }[]).map((r) => r.item_id))
}
