import type { Db, WritableDB } from './database'

// The `templates` table: the project's own request templates, each version kept (a published one is never edited).

export interface UserTemplateRow {
  template_id: string
  version: number
  instrument_id: string
  system_text: string | null
  user_text: string
  answer_format: string
  note: string | null
  created_at: string
}

/** The versions of a template, newest first; only the one version when given. */
export function templateRows(db: Db, id: string, version?: number): UserTemplateRow[] {
  return db
    .prepare(`SELECT * FROM templates WHERE template_id = ? ${version === undefined ? '' : 'AND version = ?'} ORDER BY version DESC`)
    .all(...(version === undefined ? [id] : [id, version])) as UserTemplateRow[]
}

export function allTemplateRows(db: Db): UserTemplateRow[] {
  return db.prepare(`SELECT * FROM templates ORDER BY template_id, version`).all() as UserTemplateRow[]
}

/** The project's newest version of a template; 0 when it has none. */
export function latestTemplateVersion(db: Db, id: string): number {
  return (db.prepare(`SELECT max(version) AS v FROM templates WHERE template_id = ?`).get(id) as { v: number | null }).v ?? 0
}

export function hasTemplateVersion(db: Db, id: string, version: number): boolean {
  return db.prepare(`SELECT 1 FROM templates WHERE template_id = ? AND version = ?`).get(id, version) !== undefined
}

export function insertTemplate(
  db: WritableDB,
  t: { id: string; version: number; instrument: string; system: string | null; user: string; answerFormat: string; note: string | null }
): void {
  db.prepare(`INSERT INTO templates (template_id, version, instrument_id, system_text, user_text, answer_format, note) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    t.id,
    t.version,
    t.instrument,
    t.system,
    t.user,
    t.answerFormat,
    t.note
  )
}
