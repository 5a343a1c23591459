import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { AssayError } from '../../shared/errors'
import { MIGRATIONS, type Migration } from './migrations'

declare const writable: unique symbol

/** A connection read through: what a function that only reads takes. Every connection can be read. */
export type ReadableDB = Database.Database

/**
 * A connection inside a write transaction: what a function that writes takes. Only `Project.write` hands one out
 * (and opening a file, which writes its schema), so a write outside a transaction does not type-check.
 */
export type WritableDB = ReadableDB & { readonly [writable]: true }

/** The readers' name for a readable connection. */
export type Db = ReadableDB

/** 'ASSY' — marks a SQLite file as an Assay project. */
export const APPLICATION_ID = 0x41535359

export interface OpenOptions {
  /** Path to a better_sqlite3.node built for this runtime (Electron keeps its own build beside Node's). */
  nativeBinding?: string
  readonly?: boolean
  /** Create the file if missing (otherwise a missing file is an error). */
  create?: boolean
  /** Called before a migration with the path of the backup copy taken. */
  onBackup?: (path: string) => void
  /** The migration list; tests pass their own to exercise upgrades. */
  migrations?: ReadonlyArray<Migration>
  /** Run `PRAGMA quick_check` first and refuse a damaged file (a long-lived session: serve, the app). */
  verify?: boolean
}

/**
 * True when the file and its folder can be written: a project in WAL mode writes its `-wal` and `-shm` beside it, so
 * a writable file in a read-only folder cannot be opened for writing either.
 */
export function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    accessSync(dirname(path), constants.W_OK)
    return true
  } catch {
    return false
  }
}

function defaultNativeBinding(): string | undefined {
  return process.env.ASSAY_SQLITE_BINDING || undefined
}

/**
 * Opens a project file: pragmas for durability (WAL, synchronous=FULL), foreign keys, busy timeout,
 * then migrations (backing the file up first). Refuses files from a newer schema and non-Assay files.
 */
export async function openDatabase(path: string, opts: OpenOptions = {}): Promise<WritableDB> {
  const existed = existsSync(path) && statSync(path).size > 0
  if (!existed && !opts.create) throw new AssayError('not_found', `No project file at ${path}`)
  if (existed && !opts.readonly && !isWritable(path)) {
    throw new AssayError('conflict', `${path} is read-only (no permission to write it or its folder); this command needs to write to the project`, [
      { file: path, message: 'read-only' }
    ])
  }
  const nativeBinding = opts.nativeBinding ?? defaultNativeBinding()
  let db: Db
  try {
    db = opts.readonly && existed ? openReadonly(path, nativeBinding) : new Database(path, { readonly: opts.readonly ?? false, ...(nativeBinding ? { nativeBinding } : {}) })
  } catch (e) {
    if (e instanceof AssayError) throw e
    throw new AssayError('not_a_project', `Cannot open ${path}: ${(e as Error).message}`, [{ file: path, message: 'cannot be opened' }])
  }
  const migrations = opts.migrations ?? MIGRATIONS
  const latest = migrations[migrations.length - 1]?.version ?? 0
  try {
    db.pragma('busy_timeout = 5000')
    checkIsProject(db, path, existed)
    if (opts.verify && existed) verifyIntegrity(db, path)
    // Read the version before anything writes to the file, so a refused file is left byte for byte as it was.
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > latest) {
      throw new AssayError(
        'newer_schema',
        `${path} was written by a newer version of Assay (project schema ${version}; this version reads up to ${latest}). Update Assay to open it; the file was not changed.`
      )
    }
    if (!opts.readonly) {
      const mode = db.pragma('journal_mode = WAL', { simple: true })
      if (String(mode).toLowerCase() !== 'wal') throw new AssayError('in_use', `${path} is in use by another program (could not switch to WAL)`)
    }
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    if (version < latest) {
      if (opts.readonly) throw new AssayError('conflict', `${path} needs a migration (schema ${version} → ${latest}) and was opened read-only`)
      if (version > 0) {
        const backup = `${path}.bak-v${version}-${Date.now()}`
        await db.backup(backup)
        opts.onBackup?.(backup)
      }
      migrate(db as WritableDB, version, migrations)
    }
    return db as WritableDB
  } catch (e) {
    db.close()
    if (e instanceof AssayError) throw e
    if (/database is locked|SQLITE_BUSY/i.test((e as Error).message)) {
      throw new AssayError('in_use', `${path} is in use by another Assay process; close it there or try again.`)
    }
    if (/file is not a database|SQLITE_NOTADB/i.test((e as Error).message)) {
      throw new AssayError('not_a_project', `${path} is not an Assay project (not a SQLite database)`)
    }
    if (/malformed|SQLITE_CORRUPT/i.test((e as Error).message)) throw corrupt(path, (e as Error).message)
    throw e
  }
}

/**
 * Reads meta values of a project file without opening it as a project (no pragmas, no migration): read-only, for
 * deciding about a file. Null when it is not a readable Assay file.
 */
export function peekMeta(path: string, keys: ReadonlyArray<string>, nativeBinding = defaultNativeBinding()): Record<string, string | undefined> | null {
  let db: Db | undefined
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) })
    if ((db.pragma('application_id', { simple: true }) as number) !== APPLICATION_ID) return null
    const get = db.prepare(`SELECT value FROM meta WHERE key = ?`)
    return Object.fromEntries(keys.map((k) => [k, (get.get(k) as { value: string } | undefined)?.value]))
  } catch {
    return null
  } finally {
    db?.close()
  }
}

/**
 * A read-only connection. SQLite reads a WAL-mode file only where it can create the `-shm` index beside it; in a
 * folder the user cannot write, the file's bytes are read into memory instead (the journal-mode bytes set to
 * rollback, which an in-memory copy needs), unless its write-ahead log holds changes the file does not.
 */
function openReadonly(path: string, nativeBinding: string | undefined): Db {
  const binding = nativeBinding ? { nativeBinding } : {}
  const db = new Database(path, { readonly: true, ...binding })
  try {
    db.pragma('application_id', { simple: true })
    return db as WritableDB
  } catch (e) {
    db.close()
    if (!/readonly|read-only|SQLITE_READONLY/i.test((e as Error).message)) throw e
  }
  const wal = `${path}-wal`
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new AssayError(
      'conflict',
      `${path} cannot be read here: its write-ahead log (${wal}) holds changes not yet in the file, and the folder cannot be written. Open it once where it can be written, or copy the folder.`,
      [{ file: path, message: 'unmerged write-ahead log in a read-only folder' }]
    )
  }
  const bytes = readFileSync(path)
  if (bytes.length > 19 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1
    bytes[19] = 1
  }
  return new Database(bytes, { readonly: true, ...binding })
}

/**
 * An error met while using an open project, with the file named when the file itself is at fault (damaged, not a
 * database); anything else is returned as it was.
 */
export function namedDatabaseError(path: string, e: unknown): unknown {
  const code = (e as { code?: unknown }).code
  if (typeof code !== 'string' || e instanceof AssayError) return e
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return corrupt(path, (e as Error).message)
  return e
}

/** The error for a damaged project file, naming it and what to do. */
export function damagedProjectError(path: string, detail: string): AssayError {
  return corrupt(path, detail)
}

function corrupt(path: string, detail: string): AssayError {
  return new AssayError(
    'not_a_project',
    `${path} is damaged (${detail}); it was not opened or changed. Restore it from a backup (a .bak-v* copy beside it, if there is one).`,
    [{ file: path, message: 'damaged' }]
  )
}

/** `PRAGMA quick_check`: page structure, indexes against tables, NOT NULL and CHECK; O(file size), no writes. */
function verifyIntegrity(db: Db, path: string): void {
  const rows = db.pragma('quick_check(5)') as Array<{ quick_check: string }>
  const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok')
  if (problems.length) throw corrupt(path, `integrity check: ${problems.join('; ')}`)
}

function checkIsProject(db: Db, path: string, existed: boolean): void {
  if (!existed) return
  const appId = db.pragma('application_id', { simple: true }) as number
  const version = db.pragma('user_version', { simple: true }) as number
  if (appId === APPLICATION_ID) return
  const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_schema`).get() as { n: number }
  if (appId === 0 && version === 0 && tables.n === 0) return
  throw new AssayError('not_a_project', `${path} is a SQLite file but not an Assay project`)
}

/** Applies all pending migrations in one transaction: a failure leaves the file as it was. */
export function migrate(db: WritableDB, from: number, migrations: ReadonlyArray<Migration> = MIGRATIONS): void {
  const pending = migrations.filter((m) => m.version > from)
  const apply = db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql)
      db.pragma(`user_version = ${m.version}`)
    }
    db.pragma(`application_id = ${APPLICATION_ID}`)
  })
  apply.exclusive()
}

/** Whether the file has a table of this name (a file opened read-only may predate it). */
export function hasTable(db: Db, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined
}
