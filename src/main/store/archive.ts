import { AssayError } from '../../shared/errors'
import type { Db, WritableDB } from './database'

/**
 * Archived runs and judges: kept in the file with every call, left out of reports and lists unless asked for.
 * A run of an archived judge counts as archived too, so archiving a judge hides all its runs at once.
 */

export type ArchiveTarget = 'run' | 'judge'

const TABLE: Record<ArchiveTarget, string> = { run: 'runs', judge: 'judges' }

/** Marks (or, with `archived` false, unmarks) one run or judge; returns whether it is archived now. */
export function setArchived(db: WritableDB, target: ArchiveTarget, id: number, archived: boolean): boolean {
  const table = TABLE[target]
  const exists = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id)
  if (!exists) throw new AssayError('not_found', `No ${target} ${id}`)
  // An already archived row keeps the time it was first archived.
  if (archived) db.prepare(`UPDATE ${table} SET archived_at = coalesce(archived_at, strftime('%Y-%m-%dT%H:%M:%fZ','now')) WHERE id = ?`).run(id)
  else db.prepare(`UPDATE ${table} SET archived_at = NULL WHERE id = ?`).run(id)
  return archived
}

/** Ids of archived judges. */
export function archivedJudgeIds(db: Db): Set<number> {
  return new Set((db.prepare(`SELECT id FROM judges WHERE archived_at IS NOT NULL`).all() as { id: number }[]).map((r) => r.id))
}

/** Run id → whether the run itself is archived and whether its judge is. */
export function runArchiveStates(db: Db): Map<number, { archived: boolean; judgeArchived: boolean }> {
  const rows = db
    .prepare(`SELECT r.id, r.archived_at IS NOT NULL AS archived, j.archived_at IS NOT NULL AS judge_archived FROM runs r JOIN judges j ON j.id = r.judge_id`)
    .all() as { id: number; archived: number; judge_archived: number }[]
  return new Map(rows.map((r) => [r.id, { archived: r.archived === 1, judgeArchived: r.judge_archived === 1 }]))
}

/** SQL condition on `runs r JOIN judges j`: the run counts as active (neither it nor its judge archived). */
export const ACTIVE_RUN_SQL = `(r.archived_at IS NULL AND j.archived_at IS NULL)`
