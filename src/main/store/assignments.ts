import type { Db, WritableDB } from './database'

export type AssignmentStatus = 'pending' | 'done' | 'skipped' | 'flagged'

export interface AssignmentRow {
  id: number
  annotator_id: number
  item_id: number
  instrument_id: string
  position: number
  status: AssignmentStatus
  status_reason: string | null
  created_at: string
}

export function getAssignment(db: Db, id: number): AssignmentRow | undefined {
  return db.prepare(`SELECT * FROM assignments WHERE id = ?`).get(id) as AssignmentRow | undefined
}

/** An annotator's queue for one instrument, in its seeded order. */
export function queueFor(db: Db, annotatorId: number, instrumentId: string): AssignmentRow[] {
  return db.prepare(`SELECT * FROM assignments WHERE annotator_id = ? AND instrument_id = ? ORDER BY position, id`).all(annotatorId, instrumentId) as AssignmentRow[]
}

/** Where an assignment stands in its queue (0-based) and how long the queue is, without reading the queue. */
export function queuePosition(db: Db, a: Pick<AssignmentRow, 'id' | 'annotator_id' | 'instrument_id' | 'position'>): { index: number; total: number } {
  // Both counts are range scans of the queue index (annotator, instrument, position).
  const where = `annotator_id = @annotator AND instrument_id = @instrument`
  const params = { position: a.position, id: a.id, annotator: a.annotator_id, instrument: a.instrument_id }
  const before = db
    .prepare(`SELECT count(*) AS n FROM assignments WHERE ${where} AND (position < @position OR (position = @position AND id < @id))`)
    .get(params) as { n: number }
  const total = db.prepare(`SELECT count(*) AS n FROM assignments WHERE ${where}`).get(params) as { n: number }
  return { index: before.n, total: total.n }
}

export interface QueueSummary {
  instrument_id: string
  total: number
  done: number
  skipped: number
  flagged: number
}

export function queueSummaries(db: Db, annotatorId: number): QueueSummary[] {
  return db
    .prepare(
      `SELECT instrument_id, count(*) AS total,
         sum(status = 'done') AS done, sum(status = 'skipped') AS skipped, sum(status = 'flagged') AS flagged
       FROM assignments WHERE annotator_id = ? GROUP BY instrument_id ORDER BY instrument_id`
    )
    .all(annotatorId) as QueueSummary[]
}

export function setAssignmentStatus(db: WritableDB, id: number, status: AssignmentStatus, reason: string | null): void {
  db.prepare(`UPDATE assignments SET status = ?, status_reason = ? WHERE id = ?`).run(status, reason, id)
}

/**
 * Marks done every assignment not yet done whose annotator has a current answer to its item and instrument (an
 * answer imported from elsewhere counts as theirs), so imported answers count in queues as answers given here do.
 */
export function markAnsweredAssignmentsDone(db: WritableDB): number {
  return db
    .prepare(
      `UPDATE assignments SET status = 'done', status_reason = NULL
       WHERE status != 'done' AND EXISTS (
         SELECT 1 FROM current_annotations a
         WHERE a.annotator_id = assignments.annotator_id AND a.item_id = assignments.item_id AND a.instrument_id = assignments.instrument_id
           AND a.source_kind = 'human'
           AND (a.assignment_id IS NULL OR a.assignment_id = assignments.id))`
    )
    .run().changes
}

export function insertAssignment(db: WritableDB, annotatorId: number, itemId: number, instrumentId: string, position: number): boolean {
  const info = db
    .prepare(`INSERT OR IGNORE INTO assignments (annotator_id, item_id, instrument_id, position) VALUES (?, ?, ?, ?)`)
    .run(annotatorId, itemId, instrumentId, position)
  return info.changes > 0
}

export function assignmentCount(db: Db, annotatorId: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM assignments WHERE annotator_id = ?`).get(annotatorId) as { n: number }).n
}

/** The proposal pairs assigned to an annotator, in the order first assigned, with which side the person wrote. */
export function assignedProposalPairs(db: Db, annotatorId: number): Array<{ item_id: number; external_id: string; a_origin: unknown }> {
  return db
    .prepare(
      `SELECT i.id AS item_id, i.external_id, json_extract(i.payload, '$.a.origin') AS a_origin, MIN(a.id) AS first
         FROM assignments a JOIN items i ON i.id = a.item_id
        WHERE a.annotator_id = ? AND i.kind = 'proposal-pair'
        GROUP BY i.id ORDER BY first`
    )
    .all(annotatorId) as Array<{ item_id: number; external_id: string; a_origin: unknown }>
}

/** How many assignments an annotator has and the newest one's id: changes whenever assignments are added. */
export function assignmentStamp(db: Db, annotatorId: number): { n: number; last: number | null } {
  return db.prepare(`SELECT count(*) AS n, max(id) AS last FROM assignments WHERE annotator_id = ?`).get(annotatorId) as { n: number; last: number | null }
}

export interface AssignmentWithItem {
  id: number
  annotator_id: number
  item_id: number
  instrument_id: string
  status: AssignmentStatus
  status_reason: string | null
  external_id: string
  payload: string
}

/** Every assignment of the file with its item's external id and payload, in the order made. */
export function assignmentsWithItems(db: Db): AssignmentWithItem[] {
  return db
    .prepare(
      `SELECT s.id, s.annotator_id, s.item_id, s.instrument_id, s.status, s.status_reason, i.external_id, i.payload
       FROM assignments s JOIN items i ON i.id = s.item_id ORDER BY s.id`
    )
    .all() as AssignmentWithItem[]
}

/** An annotator's assignments, of one instrument, set and split when given, queue by queue in order. */
export function annotatorAssignments(db: Db, annotatorId: number, f: { instrument: string | null; set: string | null; split: string | null }): AssignmentRow[] {
  return db
    .prepare(
      `SELECT s.* FROM assignments s JOIN items i ON i.id = s.item_id
       WHERE s.annotator_id = @annotator AND (@instrument IS NULL OR s.instrument_id = @instrument)
         AND (@set IS NULL OR i.set_name = @set) AND (@split IS NULL OR i.split = @split)
       ORDER BY s.instrument_id, s.position, s.id`
    )
    .all({ annotator: annotatorId, instrument: f.instrument, set: f.set, split: f.split }) as AssignmentRow[]
}
