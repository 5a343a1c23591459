import type { Db, WritableDB } from './database'

export type ExposureKind = 'label_viewed' | 'judge_output_viewed' | 'annotations_viewed' | 'prompt_revision' | 'exported'

export function logExposure(db: WritableDB, itemId: number, kind: ExposureKind, actor: string, detail?: string): void {
  db.prepare(`INSERT INTO exposures (item_id, kind, actor, detail) VALUES (?, ?, ?, ?)`).run(itemId, kind, actor, detail ?? null)
}

export function exposedItemIds(db: Db): Set<number> {
  return new Set((db.prepare(`SELECT DISTINCT item_id FROM exposures`).all() as { item_id: number }[]).map((r) => r.item_id))
}

/**
 * A prompt revised after its author saw labels or judge outputs of test items was tuned on them: those items stop
 * being unbiased test items. Marks every such test item of the instrument's item kind (once per template version).
 */
export function markPromptRevision(db: WritableDB, itemKind: string, templateRef: string, actor: string): number {
  const info = db
    .prepare(
      `INSERT INTO exposures (item_id, kind, actor, detail)
       SELECT DISTINCT e.item_id, 'prompt_revision', ?, ? FROM exposures e JOIN items i ON i.id = e.item_id
       WHERE i.split = 'test' AND i.kind = ? AND e.kind IN ('label_viewed', 'judge_output_viewed', 'annotations_viewed')
         AND NOT EXISTS (SELECT 1 FROM exposures p WHERE p.item_id = e.item_id AND p.kind = 'prompt_revision' AND p.detail = ?)`
    )
    .run(actor, `revised ${templateRef}`, itemKind, `revised ${templateRef}`)
  return info.changes
}

/** A finder of whether anything of an item has been exposed. */
export function exposureFinder(db: Db): (itemId: number) => boolean {
  const stmt = db.prepare(`SELECT 1 FROM exposures WHERE item_id = ? LIMIT 1`)
  return (itemId) => stmt.get(itemId) !== undefined
}
