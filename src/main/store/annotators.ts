import type { Db } from './database'
import type { Project } from './project'

export interface AnnotatorRow {
  id: number
  name: string
  expertise: string | null
  pseudonym: string
  created_at: string
}

/** Finds or creates an annotator profile; pseudonyms (A01, A02…) are what exports use when asked to. */
export function ensureAnnotator(project: Project, name: string, expertise?: string): AnnotatorRow {
  const db = project.db
  const found = db.prepare(`SELECT * FROM annotators WHERE name = ?`).get(name) as AnnotatorRow | undefined
  if (found) return found
  return project.write((db) => {
    const n = (db.prepare(`SELECT count(*) AS n FROM annotators`).get() as { n: number }).n
    const pseudonym = `A${String(n + 1).padStart(2, '0')}`
    const info = db.prepare(`INSERT INTO annotators (name, expertise, pseudonym) VALUES (?, ?, ?)`).run(name, expertise ?? null, pseudonym)
    return db.prepare(`SELECT * FROM annotators WHERE id = ?`).get(info.lastInsertRowid) as AnnotatorRow
  })
}

export function listAnnotators(project: Project): AnnotatorRow[] {
  return project.db.prepare(`SELECT * FROM annotators ORDER BY id`).all() as AnnotatorRow[]
}

export interface AnnotatorSummary {
  id: number
  name: string
  expertise: string | null
  pseudonym: string
  assignments: number
  done: number
}

/** Each annotator with how many assignments they have and how many are done. */
export function annotatorSummaries(project: Project): AnnotatorSummary[] {
  return project.db
    .prepare(
      `SELECT a.id, a.name, a.expertise, a.pseudonym, count(s.id) AS assignments, coalesce(sum(s.status = 'done'), 0) AS done
       FROM annotators a LEFT JOIN assignments s ON s.annotator_id = a.id GROUP BY a.id ORDER BY a.id`
    )
    .all() as AnnotatorSummary[]
}

/** An annotator by exact name, if there is one. */
export function findAnnotator(project: Project, name: string): AnnotatorRow | undefined {
  return project.db.prepare(`SELECT * FROM annotators WHERE name = ?`).get(name) as AnnotatorRow | undefined
}

/** Every annotator's name and pseudonym, by id. */
export function annotatorNames(db: Db): Map<number, { name: string; pseudonym: string }> {
  return new Map((db.prepare(`SELECT id, name, pseudonym FROM annotators`).all() as Array<{ id: number; name: string; pseudonym: string }>).map((r) => [r.id, r]))
}

export function annotatorRef(db: Db, id: number): { id: number; name: string } | undefined {
  return db.prepare(`SELECT id, name FROM annotators WHERE id = ?`).get(id) as { id: number; name: string } | undefined
}

export function annotatorIdByName(db: Db, name: string): number | undefined {
  return (db.prepare(`SELECT id FROM annotators WHERE name = ?`).get(name) as { id: number } | undefined)?.id
}

/** Every annotator's name, by id. */
export function annotatorNamesById(db: Db): Map<number, string> {
  return new Map((db.prepare(`SELECT id, name FROM annotators`).all() as { id: number; name: string }[]).map((r) => [r.id, r.name]))
}
