import { randomUUID } from 'node:crypto'
import type { Db, WritableDB } from './database'
import { annotationLatestFirst } from './revisions'

export interface AnnotationRow {
  id: string
  item_id: number
  instrument_id: string
  instrument_version: number
  annotator_id: number | null
  source_kind: 'human' | 'model' | 'reference'
  source_name: string
  judgement: string
  display: string
  supersedes: string | null
  retracted: number
  assignment_id: number | null
  active_ms: number | null
  origin: string
  import_id: number | null
  created_at: string
}

export interface NewAnnotation {
  itemId: number
  instrumentId: string
  instrumentVersion: number
  annotatorId: number | null
  sourceKind: 'human' | 'model' | 'reference'
  sourceName: string
  judgement: unknown
  display?: Record<string, unknown>
  supersedes?: string | null
  retracted?: boolean
  assignmentId?: number | null
  activeMs?: number | null
  origin?: string
  importId?: number | null
  id?: string
  createdAt?: string
}

/** Appends one annotation row; ids are UUIDs so answers from packets merge without conflicts. */
export function appendAnnotation(db: WritableDB, a: NewAnnotation): string {
  const id = a.id ?? randomUUID()
  db.prepare(
    `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, annotator_id, source_kind, source_name, judgement, display,
       supersedes, retracted, assignment_id, active_ms, origin, import_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))`
  ).run(
    id,
    a.itemId,
    a.instrumentId,
    a.instrumentVersion,
    a.annotatorId,
    a.sourceKind,
    a.sourceName,
    JSON.stringify(a.judgement),
    JSON.stringify(a.display ?? {}),
    a.supersedes ?? null,
    a.retracted ? 1 : 0,
    a.assignmentId ?? null,
    a.activeMs ?? null,
    a.origin ?? 'workbench',
    a.importId ?? null,
    a.createdAt ?? null
  )
  return id
}

/**
 * The answers of an assignment: those given on it (workbench, packets), and the annotator's own answers to the same
 * item and instrument given elsewhere and imported (`assay import labels`), which carry no assignment.
 */
const OF_ASSIGNMENT = `(a.assignment_id = s.id OR (a.assignment_id IS NULL AND a.source_kind = 'human' AND a.annotator_id = s.annotator_id
    AND a.item_id = s.item_id AND a.instrument_id = s.instrument_id))`

/** The head of an assignment's revision chain (the row nothing supersedes), if any. */
export function headForAssignment(db: Db, assignmentId: number): AnnotationRow | undefined {
  return db
    .prepare(
      `SELECT a.* FROM annotation_heads a JOIN assignments s ON s.id = ? WHERE ${OF_ASSIGNMENT}
       ORDER BY ${annotationLatestFirst('a')} LIMIT 1`
    )
    .get(assignmentId) as AnnotationRow | undefined
}

export type SourceHead = Pick<AnnotationRow, 'id' | 'judgement' | 'retracted'>

/**
 * A finder of one source's head for an (item, instrument): the answer an imported answer of that source is appended
 * after, and what it is compared with. Prepared once, for imports that ask for every row of a file.
 */
export function sourceHeadFinder(db: Db): (itemId: number, instrumentId: string, sourceKind: string, sourceName: string) => SourceHead | undefined {
  const stmt = db.prepare(
    `SELECT a.id, a.judgement, a.retracted FROM annotation_heads a
     WHERE a.item_id = ? AND a.instrument_id = ? AND a.source_kind = ? AND a.source_name = ?
     ORDER BY ${annotationLatestFirst('a')} LIMIT 1`
  )
  return (itemId, instrumentId, sourceKind, sourceName) => stmt.get(itemId, instrumentId, sourceKind, sourceName) as SourceHead | undefined
}

export type StoredAnswerKey = Pick<AnnotationRow, 'item_id' | 'instrument_id' | 'source_kind' | 'source_name' | 'judgement'>

/** A finder of an answer by its id: what it answers, and its judgement. */
export function answerByIdFinder(db: Db): (id: string) => StoredAnswerKey | undefined {
  const stmt = db.prepare(`SELECT item_id, instrument_id, source_kind, source_name, judgement FROM annotations WHERE id = ?`)
  return (id) => stmt.get(id) as StoredAnswerKey | undefined
}

/** Every revision of an assignment, oldest first. */
export function historyForAssignment(db: Db, assignmentId: number): AnnotationRow[] {
  return db.prepare(`SELECT a.* FROM annotations a JOIN assignments s ON s.id = ? WHERE ${OF_ASSIGNMENT} ORDER BY a.created_at, a.rowid`).all(assignmentId) as AnnotationRow[]
}

/** Whether annotation `id` is one of the assignment's answers (given on it, or the annotator's own, imported). */
export function isAnswerOfAssignment(db: Db, id: string, assignmentId: number): boolean {
  return db.prepare(`SELECT 1 FROM annotations a JOIN assignments s ON s.id = ? WHERE a.id = ? AND ${OF_ASSIGNMENT}`).get(assignmentId, id) !== undefined
}

/** The assignment an answer belongs to: its own, or for an imported answer of an annotator, theirs for that item. */
export function assignmentOfAnswer(db: Db, row: Pick<AnnotationRow, 'assignment_id' | 'annotator_id' | 'source_kind' | 'item_id' | 'instrument_id'>): number | null {
  if (row.assignment_id !== null) return row.assignment_id
  if (row.source_kind !== 'human' || row.annotator_id === null) return null
  const s = db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND item_id = ? AND instrument_id = ?`).get(row.annotator_id, row.item_id, row.instrument_id) as
    | { id: number }
    | undefined
  return s?.id ?? null
}

/**
 * Current answers: heads of revision chains that are not retractions, optionally for one instrument.
 * This is what exports and the audit read.
 */
export function currentAnnotations(db: Db, instrumentId?: string): AnnotationRow[] {
  return db.prepare(currentSql('a.*')).all(instrumentId ?? null, instrumentId ?? null) as AnnotationRow[]
}

/** What the audit reads of a current answer. */
export type AnswerRow = Pick<AnnotationRow, 'item_id' | 'instrument_version' | 'annotator_id' | 'source_kind' | 'source_name' | 'judgement' | 'display' | 'origin'>

/**
 * `currentAnnotations` with only the columns the audit reads, in the same order: it runs over every answer of an
 * instrument, and building each row's sixteen fields costs more than the query itself.
 */
export function currentAnswers(db: Db, instrumentId: string): AnswerRow[] {
  // Read as arrays and made into literals here: a third faster than rows built as objects by the driver.
  const rows = db
    .prepare(currentSql('a.item_id, a.instrument_version, a.annotator_id, a.source_kind, a.source_name, a.judgement, a.display, a.origin'))
    .raw(true)
    .all(instrumentId, instrumentId) as AnswerColumns[]
  return rows.map((r) => ({ item_id: r[0], instrument_version: r[1], annotator_id: r[2], source_kind: r[3], source_name: r[4], judgement: r[5], display: r[6], origin: r[7] }))
}

type AnswerColumns = [AnswerRow['item_id'], AnswerRow['instrument_version'], AnswerRow['annotator_id'], AnswerRow['source_kind'], AnswerRow['source_name'], AnswerRow['judgement'], AnswerRow['display'], AnswerRow['origin']]

function currentSql(columns: string): string {
  return `SELECT ${columns} FROM current_annotations a
       WHERE (? IS NULL OR a.instrument_id = ?)
       ORDER BY a.item_id, a.created_at`
}

export interface DraftRow {
  data: string
  active_ms: number
  updated_at: string
  /** The display mapping (JSON) the draft was entered in; null when saved before layouts were recorded. */
  display?: string | null
}

export function saveDraft(
  db: WritableDB,
  annotatorId: number,
  itemId: number,
  instrumentId: string,
  data: unknown,
  activeMs: number,
  display: Record<string, unknown> | null = null
): void {
  db.prepare(
    `INSERT INTO drafts (annotator_id, item_id, instrument_id, data, active_ms, updated_at, display)
     VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'), ?)
     ON CONFLICT (annotator_id, item_id, instrument_id) DO UPDATE SET data = excluded.data, active_ms = excluded.active_ms, updated_at = excluded.updated_at, display = excluded.display`
  ).run(annotatorId, itemId, instrumentId, JSON.stringify(data), Math.max(0, Math.round(activeMs)), display === null ? null : JSON.stringify(display))
}

export function getDraft(db: Db, annotatorId: number, itemId: number, instrumentId: string): DraftRow | undefined {
  return db.prepare(`SELECT data, active_ms, updated_at, display FROM drafts WHERE annotator_id = ? AND item_id = ? AND instrument_id = ?`).get(annotatorId, itemId, instrumentId) as
    | DraftRow
    | undefined
}

export function deleteDraft(db: WritableDB, annotatorId: number, itemId: number, instrumentId: string): void {
  db.prepare(`DELETE FROM drafts WHERE annotator_id = ? AND item_id = ? AND instrument_id = ?`).run(annotatorId, itemId, instrumentId)
}

/** One answer by its id, current or not. */
export function getAnnotation(db: Db, id: string): AnnotationRow | undefined {
  return db.prepare(`SELECT * FROM annotations WHERE id = ?`).get(id) as AnnotationRow | undefined
}

/** How many current answers an instrument has. */
export function currentAnswerCount(db: Db, instrumentId: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM current_annotations a WHERE a.instrument_id = ?`).get(instrumentId) as { n: number }).n
}

/** The latest draft set aside for an item (one entered in a layout the item no longer shows), if any. */
export function latestSetAsideDraft(db: Db, annotatorId: number, itemId: number, instrumentId: string): { data: string; updated_at: string } | undefined {
  return db
    .prepare(`SELECT data, updated_at FROM drafts_set_aside WHERE annotator_id = ? AND item_id = ? AND instrument_id = ? ORDER BY id DESC LIMIT 1`)
    .get(annotatorId, itemId, instrumentId) as { data: string; updated_at: string } | undefined
}

/** Keeps a draft that is about to be replaced, so what was written in an earlier layout is not lost. */
export function setDraftAside(db: WritableDB, annotatorId: number, itemId: number, instrumentId: string, draft: DraftRow): void {
  db.prepare(`INSERT INTO drafts_set_aside (annotator_id, item_id, instrument_id, data, display, active_ms, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    annotatorId,
    itemId,
    instrumentId,
    draft.data,
    draft.display ?? null,
    draft.active_ms,
    draft.updated_at
  )
}

/** The ids of every answer to an item for an instrument, current or not. */
export function annotationIdsOf(db: Db, itemId: number, instrumentId: string): string[] {
  return (db.prepare(`SELECT id FROM annotations WHERE item_id = ? AND instrument_id = ?`).all(itemId, instrumentId) as { id: string }[]).map((r) => r.id)
}

/** A finder of whether the project has an answer with this id. */
export function annotationExistsFinder(db: Db): (id: string) => boolean {
  const stmt = db.prepare(`SELECT 1 FROM annotations WHERE id = ?`)
  return (id) => stmt.get(id) !== undefined
}

/** Every answer of the file, in the order written. */
export function allAnnotations(db: Db): AnnotationRow[] {
  return db.prepare(`SELECT * FROM annotations ORDER BY rowid`).all() as AnnotationRow[]
}

/** A finder of whether an answer with this id answers this item for this instrument. */
export function answerOfFinder(db: Db): (id: string, itemId: number, instrumentId: string) => boolean {
  const stmt = db.prepare(`SELECT 1 FROM annotations WHERE id = ? AND item_id = ? AND instrument_id = ?`)
  return (id, itemId, instrumentId) => stmt.get(id, itemId, instrumentId) !== undefined
}
