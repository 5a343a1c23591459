import { createHash } from 'node:crypto'
import { buildInstrument } from '../../shared/instruments/declared/build'
import { declarationSchema, type Declaration } from '../../shared/instruments/declared/declaration'
import { registerDeclaredInstruments, type AnyInstrument } from '../../shared/instruments'
import type { ReadableDB, WritableDB } from './database'

// The `project_instruments` table: the instruments a project declared, every version kept. Adding the same
// declaration again adds nothing; a changed one is the next version, and answers keep the version they were given
// under.

export interface ProjectInstrumentRow {
  instrument_id: string
  version: number
  declaration: string
  content_hash: string
  created_at: string
}

/** JSON with keys in sorted order: the same declaration, however its file orders it, hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function declarationHash(d: Declaration): string {
  return createHash('sha256').update(canonical(d)).digest('hex')
}

/** Whether the file has the table (a file opened read-only before its migration has not). */
function hasTable(db: ReadableDB): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'project_instruments'`).get() !== undefined
}

/** Every version of every declared instrument, by id then version. */
export function projectInstrumentRows(db: ReadableDB, id?: string): ProjectInstrumentRow[] {
  if (!hasTable(db)) return []
  return db
    .prepare(`SELECT * FROM project_instruments ${id === undefined ? '' : 'WHERE instrument_id = ?'} ORDER BY instrument_id, version`)
    .all(...(id === undefined ? [] : [id])) as ProjectInstrumentRow[]
}

/** The newest version of each declared instrument. */
export function latestProjectInstruments(db: ReadableDB): ProjectInstrumentRow[] {
  const latest = new Map<string, ProjectInstrumentRow>()
  for (const r of projectInstrumentRows(db)) latest.set(r.instrument_id, r)
  return [...latest.values()]
}

/** The newest version of a declared instrument the project held at `at` (an ISO time of this file's clock), if any. */
export function declaredVersionAt(db: ReadableDB, id: string, at: string): number | undefined {
  if (!hasTable(db)) return undefined
  const row = db.prepare(`SELECT max(version) AS v FROM project_instruments WHERE instrument_id = ? AND created_at <= ?`).get(id, at) as { v: number | null }
  return row.v ?? undefined
}

export type AddOutcome = { status: 'added' | 'unchanged'; id: string; version: number; hash: string }

/** Stores a declaration: the same one again is a no-op, a changed one the next version. Never overwrites. */
export function addProjectInstrument(db: WritableDB, d: Declaration): AddOutcome {
  const hash = declarationHash(d)
  const versions = projectInstrumentRows(db, d.id)
  const last = versions[versions.length - 1]
  if (last && last.content_hash === hash) return { status: 'unchanged', id: d.id, version: last.version, hash }
  const version = (last?.version ?? 0) + 1
  db.prepare(`INSERT INTO project_instruments (instrument_id, version, declaration, content_hash) VALUES (?, ?, ?, ?)`).run(d.id, version, JSON.stringify(d), hash)
  return { status: 'added', id: d.id, version, hash }
}

/** Writes rows of another file as they are (a packet carries the declarations its assignments are answered with). */
export function copyProjectInstrumentRows(db: WritableDB, rows: ReadonlyArray<ProjectInstrumentRow>): void {
  const insert = db.prepare(`INSERT INTO project_instruments (instrument_id, version, declaration, content_hash, created_at) VALUES (?, ?, ?, ?, ?)`)
  for (const r of rows) insert.run(r.instrument_id, r.version, r.declaration, r.content_hash, r.created_at)
}

/** The stored declaration of a row (checked again: a hand-edited file is refused, not half-used). */
export function declarationOf(row: ProjectInstrumentRow): Declaration {
  return declarationSchema.parse(JSON.parse(row.declaration))
}

/** The project's declared instruments at their newest versions. */
export function projectInstruments(db: ReadableDB): AnyInstrument[] {
  return latestProjectInstruments(db).map((r) => buildInstrument(declarationOf(r), r.version))
}

/** The project's declared instruments at their newest versions, made the ones the registry knows. */
export function registerProjectInstruments(db: ReadableDB): AnyInstrument[] {
  const built = projectInstruments(db)
  registerDeclaredInstruments(built)
  return built
}
