import { basename } from 'node:path'
import { AssayError } from '../../shared/errors'
import { isWritable, openDatabase, type OpenOptions, type ReadableDB, type WritableDB } from './database'
import { ensureProjectIdentity, getMeta } from './meta'
import { countItems } from './items'
import { LATEST_SCHEMA_VERSION } from './migrations'
import type { ProjectInfo } from '../../shared/contract/schemas'
import type { AnyInstrument } from '../../shared/instruments/types'

/** Whether the file holds declared instruments (a file not yet migrated has no such table). */
function declaresInstruments(db: ReadableDB): boolean {
  const table = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'project_instruments'`).get()
  return table !== undefined && db.prepare(`SELECT 1 FROM project_instruments LIMIT 1`).get() !== undefined
}

/**
 * Makes the file's own instruments known beside the built-in ones, on any connection that reads it (the project's,
 * a report worker's). The instrument code loads only for a file that declares some, so the command line starts without it.
 */
export async function knowDeclaredInstruments(db: ReadableDB): Promise<AnyInstrument[]> {
  return declaresInstruments(db) ? (await import('./instruments')).registerProjectInstruments(db) : []
}

/**
 * The file's own instruments, newest versions by id, read without making them known to the process: for a thread
 * that serves several files in turn (the kept report worker), which scopes each job to its own file's.
 */
export async function readDeclaredInstruments(db: ReadableDB): Promise<Map<string, AnyInstrument>> {
  if (!declaresInstruments(db)) return new Map()
  return new Map((await import('./instruments')).projectInstruments(db).map((inst) => [inst.id, inst]))
}

/** An open project file. The file is the truth; this object only holds the connection. */
export class Project {
  /** The connection, to read through; writes go through `write`, which hands out the writable handle. */
  readonly db: ReadableDB
  /** This file's own instruments, newest versions by id: what its operations see (src/main/instruments/scope.ts). */
  readonly declaredInstruments = new Map<string, AnyInstrument>()

  private constructor(
    private readonly writable: WritableDB,
    readonly path: string,
    /** Opened read-only: nothing can be written through this connection. */
    readonly readonly: boolean
  ) {
    this.db = writable
  }

  /** Takes newer versions of the file's own instruments (after a declaration is added). */
  knowInstruments(list: ReadonlyArray<AnyInstrument>): void {
    for (const inst of list) this.declaredInstruments.set(inst.id, inst)
  }

  static async open(path: string, opts: OpenOptions = {}): Promise<Project> {
    const db = await openDatabase(path, opts)
    if (!opts.readonly) ensureProjectIdentity(db, basename(path).replace(/\.assay$/, ''))
    // The project's own instruments join the built-in ones for everything that follows (forms, runs, the audit).
    const declared = await knowDeclaredInstruments(db)
    const project = new Project(db, path, opts.readonly ?? false)
    project.knowInstruments(declared)
    return project
  }

  /**
   * For commands that only read: opens read-only, so a file without write permission can still be read and nothing
   * (not even the journal mode) changes. A file of an older schema is upgraded first when it can be written;
   * `notWritable` says when the file could not be written (commands say so).
   */
  static async openForReading(path: string, opts: Omit<OpenOptions, 'readonly' | 'create'> = {}): Promise<{ project: Project; notWritable: boolean }> {
    const writable = isWritable(path)
    try {
      return { project: await Project.open(path, { ...opts, readonly: true }), notWritable: !writable }
    } catch (e) {
      // Only a pending migration stops a read-only open of a good file; it needs one writing open.
      if (!(e instanceof AssayError && e.code === 'conflict' && /needs a migration/.test(e.message)) || !writable) throw e
      ;(await Project.open(path, opts)).close()
      return { project: await Project.open(path, { ...opts, readonly: true }), notWritable: false }
    }
  }

  static create(path: string, opts: Omit<OpenOptions, 'create'> = {}): Promise<Project> {
    return Project.open(path, { ...opts, create: true })
  }

  meta(key: string): string | undefined {
    return getMeta(this.db, key)
  }

  get id(): string {
    return this.meta('project_id') ?? ''
  }

  get seed(): string {
    return this.meta('seed') ?? '0'
  }

  get isPacket(): boolean {
    return this.meta('mode') === 'packet'
  }

  info(): ProjectInfo {
    const count = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n
    const counts = countItems(this.db)
    return {
      name: this.meta('name') ?? basename(this.path),
      path: this.path,
      projectId: this.id,
      schemaVersion: this.db.pragma('user_version', { simple: true }) as number,
      mode: this.isPacket ? 'packet' : 'curator',
      seed: this.seed,
      items: counts.reduce((s, r) => s + r.n, 0),
      counts,
      annotators: count(`SELECT count(*) AS n FROM annotators`),
      // People's current answers are annotations; a judge's (asked here, or imported as judge outputs) are judgements.
      annotations: count(`SELECT count(*) AS n FROM current_annotations a WHERE a.source_kind = 'human'`),
      judgements:
        count(`SELECT count(*) AS n FROM model_calls WHERE status = 'ok'`) + count(`SELECT count(*) AS n FROM current_annotations a WHERE a.source_kind = 'model'`),
      runs: count(`SELECT count(*) AS n FROM runs`),
      exposures: count(`SELECT count(*) AS n FROM exposures`)
    }
  }

  /**
   * Runs fn in one IMMEDIATE transaction (takes the write lock up front, so no mid-way busy errors), with the
   * connection as a writable handle: the only way to one for functions that write.
   */
  write<T>(fn: (db: WritableDB) => T): T {
    return this.writable.transaction(() => fn(this.writable)).immediate()
  }

  /**
   * Rewrites the file from its live pages, outside any transaction: nothing of deleted rows or overwritten values
   * survives in free space (a packet leaves the project with nothing of it but its own content).
   */
  compact(): void {
    this.db.exec('VACUUM')
  }

  close(): void {
    if (this.db.open) {
      try {
        this.db.pragma('wal_checkpoint(TRUNCATE)')
      } catch {
        // Another connection may hold the WAL; the checkpoint happens when it closes.
      }
      this.db.close()
    }
  }
}

export { LATEST_SCHEMA_VERSION }
