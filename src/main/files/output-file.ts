import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { AssayError } from '../../shared/errors'

/**
 * Every file the app writes at a path the user named goes through here. A project is the only copy of people's
 * work, so an SQLite file (any, not only an Assay project) is never replaced, and neither is the open project;
 * any other existing file only with an explicit `force`.
 */
export interface OutputGuard {
  /** Replace an existing file that is not an SQLite database. */
  force?: boolean | undefined
  /** Paths that must never be written (the open project). */
  protect?: ReadonlyArray<string> | undefined
  /** An SQLite file this predicate accepts may be replaced with `force` (e.g. an earlier packet of the project). */
  replaceableDatabase?: ((path: string) => boolean) | undefined
  /** Names the flag that allows replacing, for the message (`--force`). */
  forceFlag?: string | undefined
  /** The file is an SQLite database: its name leaves room for the `-journal` SQLite writes beside it. */
  database?: boolean | undefined
}

/** What file systems hold, in bytes of UTF-8: a name (one part of a path) and a whole path (NAME_MAX and PATH_MAX). */
export const MAX_NAME_BYTES = 255
export const MAX_PATH_BYTES = 4095

/**
 * Refuses a path the file system could not hold, before anything is written: a part of it over 255 bytes of UTF-8
 * (the last part with room for `suffix` after it), or the whole over 4,095. A name of 90 Chinese characters is 270
 * bytes: the limit is in bytes, not characters.
 */
export function checkPathLength(path: string, suffix = ''): void {
  const total = Buffer.byteLength(path + suffix, 'utf8')
  if (total > MAX_PATH_BYTES) {
    throw new AssayError('invalid_input', `${path} is ${total} bytes long; file systems hold paths of at most ${MAX_PATH_BYTES} bytes. Choose a shorter path.`, [{ file: path, message: 'path too long' }])
  }
  const parts = path.split(sep)
  parts.forEach((part, i) => {
    const last = i === parts.length - 1
    const bytes = Buffer.byteLength(part, 'utf8')
    const room = last ? Buffer.byteLength(suffix, 'utf8') : 0
    if (bytes + room <= MAX_NAME_BYTES) return
    const where = last ? 'its name' : `the folder name ${JSON.stringify(part.length > 40 ? `${part.slice(0, 40)}…` : part)} in it`
    const limit = room
      ? `it may have at most ${MAX_NAME_BYTES - room} here, leaving room for the ${suffix} file SQLite writes beside it`
      : `and file systems hold names of at most ${MAX_NAME_BYTES} bytes`
    throw new AssayError('invalid_input', `${path}: ${where} is ${bytes} bytes of UTF-8, ${limit}. Choose a shorter name.`, [
      { file: path, message: `name of ${bytes} bytes; at most ${MAX_NAME_BYTES - room}` }
    ])
  })
}

/**
 * A file-system refusal that the path explains (a name too long, a file where a folder is needed), as an error that
 * names the path; any other error is returned as it is.
 */
export function pathError(e: unknown, path: string): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code
  if (code === 'ENAMETOOLONG') {
    return new AssayError('invalid_input', `${path}: the file system refuses the name as too long; choose a shorter one`, [{ file: path, message: 'name too long' }])
  }
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
    return new AssayError('conflict', `${path}: a file or folder already stands where this path needs ${code === 'EISDIR' ? 'a file' : 'a folder'}; choose another path`, [{ file: path, message: code === 'EISDIR' ? 'is a folder' : 'a file is in the way' }])
  }
  return e
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1')

/** True when the file starts with the SQLite header (an Assay project, a packet, or any other database). */
export function isSqliteFile(path: string): boolean {
  return startsWithAny(path, [SQLITE_MAGIC])
}

/** Whether a regular file at path starts with one of the headers (never opens a device or a pipe, which could block). */
function startsWithAny(path: string, heads: ReadonlyArray<Buffer>): boolean {
  if (!statOrNull(path)?.isFile()) return false
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return false
  }
  try {
    const head = Buffer.alloc(Math.max(...heads.map((h) => h.length)))
    const n = readSync(fd, head, 0, head.length, 0)
    return heads.some((h) => n >= h.length && head.subarray(0, h.length).equals(h))
  } finally {
    closeSync(fd)
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal']

/**
 * The database a `-wal`, `-shm` or `-journal` path belongs to, when that database exists and is SQLite: such a file
 * holds committed pages not yet in the database, and replacing it loses or corrupts them.
 */
function databaseCompanion(path: string): string | null {
  for (const suffix of COMPANION_SUFFIXES) {
    if (path.endsWith(suffix) && isSqliteFile(path.slice(0, -suffix.length))) return path.slice(0, -suffix.length)
  }
  return startsWithAny(path, COMPANION_MAGIC) ? path : null
}

/** A write-ahead log (either byte order) or a rollback journal, recognised by its header even without its database. */
const COMPANION_MAGIC = [Buffer.from([0x37, 0x7f, 0x06, 0x82]), Buffer.from([0x37, 0x7f, 0x06, 0x83]), Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7])]

/** Refuses a target the guard does not allow; returns the absolute path. Checks every target before any is written. */
export function checkOutputPath(target: string, guard: OutputGuard = {}): string {
  const path = resolve(target)
  checkPathLength(path, guard.database ? '-journal' : '')
  const flag = guard.forceFlag ?? '--force'
  const stat = statOrNull(path)
  for (const p of guard.protect ?? []) {
    const ps = statOrNull(p)
    // Same inode catches symlinks and hard links to the project, not only the same spelling.
    if (resolve(p) === path || (stat && ps && sameFile(stat, ps))) {
      throw new AssayError('conflict', `${path} is the open project; write the output to another file`, [{ file: path, message: 'is the open project' }])
    }
    for (const suffix of ['-wal', '-shm', '-journal']) {
      if (resolve(p) + suffix === path) throw new AssayError('conflict', `${path} belongs to the open project; write the output to another file`, [{ file: path, message: 'is part of the open project' }])
    }
  }
  const companion = databaseCompanion(path)
  if (companion) {
    throw new AssayError('conflict', `${path} belongs to the SQLite database ${companion} (its ${path.slice(companion.length)} file); it is never written over. Choose another file name.`, [
      { file: path, message: 'is part of an SQLite database' }
    ])
  }
  if (!stat) return path
  if (stat.isDirectory()) throw new AssayError('conflict', `${path} is a folder; name a file to write`, [{ file: path, message: 'is a folder' }])
  // A device, pipe or socket is not a file an output can replace: writing "to" /dev/null or a FIFO would lose the
  // output, or feed it to whatever reads there.
  if (!stat.isFile()) throw new AssayError('conflict', `${path} is not a regular file (a device, pipe or socket); name a file to write`, [{ file: path, message: 'is not a regular file' }])
  if (isSqliteFile(path)) {
    if (guard.force && guard.replaceableDatabase?.(path)) return path
    throw new AssayError('conflict', `${path} is an SQLite database (perhaps an Assay project); it is never written over. Choose another file name.`, [
      { file: path, message: 'is an SQLite database' }
    ])
  }
  if (!guard.force) throw new AssayError('conflict', `${path} exists; choose another file name, or give ${flag} to replace it`, [{ file: path, message: 'exists' }])
  return path
}

/**
 * Refuses a folder an export writes its files into when a file stands at it, or at a folder above it: a file is never
 * replaced by a folder, even with `force`. A folder that does not exist yet is fine (it is made when writing); one
 * that exists is fine too (each file written into it is checked on its own). Returns the absolute path.
 */
export function checkOutputFolder(target: string, guard: OutputGuard = {}): string {
  const dir = resolve(target)
  checkPathLength(dir)
  for (let p = dir; ; p = dirname(p)) {
    const stat = statOrNull(p)
    if (stat?.isDirectory()) return dir
    if (stat) {
      const isProject = (guard.protect ?? []).some((q) => {
        const qs = statOrNull(q)
        return resolve(q) === p || (qs !== null && sameFile(stat, qs))
      })
      const what = isProject ? 'is the open project' : isSqliteFile(p) ? 'is an SQLite database (perhaps an Assay project)' : 'is a file'
      const place = p === dir ? '' : `, so ${dir} cannot be made inside it`
      throw new AssayError('conflict', `${p} ${what}, not a folder${place}; a file is never replaced by a folder. Name a folder to write into.`, [{ file: p, message: `${what}, not a folder` }])
    }
    if (dirname(p) === p) return dir
  }
}

/** A temporary name in the target's folder, so the final rename stays on one file system and is atomic. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${shortened(basename(path), 120)}.${randomBytes(6).toString('hex')}.partial`)
}

/** At most `maxBytes` of UTF-8, cut at a character boundary: a long target name must not make its temporary name too long. */
export function shortened(name: string, maxBytes: number): string {
  let out = ''
  let bytes = 0
  for (const ch of name) {
    bytes += Buffer.byteLength(ch, 'utf8')
    if (bytes > maxBytes) break
    out += ch
  }
  return out
}

/**
 * Writes files all together or not at all: every target is checked, each content goes to a temporary file beside
 * its target, then all are renamed into place. A failure removes the temporary files and leaves targets untouched
 * (a failure between two renames removes the files already renamed, unless they replaced a file).
 */
export function writeOutputFiles(files: ReadonlyArray<{ path: string; content: string | Uint8Array }>, guard: OutputGuard = {}): string[] {
  const targets = files.map((f) => checkOutputPath(f.path, guard))
  if (new Set(targets).size !== targets.length) throw new AssayError('conflict', `two outputs would go to the same file: ${targets.join(', ')}`)
  const temps: string[] = []
  const placed: string[] = []
  let at = 0
  try {
    files.forEach((f, i) => {
      at = i
      const temp = tempPathFor(targets[i]!)
      temps.push(temp)
      writeFileSync(temp, f.content, { flag: 'wx' })
    })
    targets.forEach((target, i) => {
      at = i
      // Checked again right before the rename: another program may have created the file meanwhile.
      const existed = statOrNull(target) !== null
      if (existed) checkOutputPath(target, guard)
      renameSync(temps[i]!, target)
      if (!existed) placed.push(target)
    })
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true })
    for (const p of placed) rmSync(p, { force: true })
    throw pathError(e, targets[at]!)
  }
  return targets
}

/** One file, checked and written atomically. */
export function writeOutputFile(path: string, content: string | Uint8Array, guard: OutputGuard = {}): string {
  return writeOutputFiles([{ path, content }], guard)[0]!
}
