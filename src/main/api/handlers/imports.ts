import { existsSync, statSync, openSync, readSync, closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, extname, join, sep } from 'node:path'
import { AssayError } from '../../../shared/errors'
import { MAX_UPLOAD_BYTES, type importOperations } from '../../../shared/contract/import-operations'
import { detectFormat, importFile, XML_REFUSED, type ImportFormat } from '../../import'
import { describeMapping } from '../../import/mapping'
import type { GenericMapping } from '../../../shared/items/generic-mapping'
import type { ApiContext } from '../context'
import type { HandlerGroup } from './types'
import { shortened } from '../../files/output-file'

function firstLines(path: string, n = 5): string[] {
  const fd = openSync(path, 'r')
  try {
    const buf = Buffer.alloc(64 * 1024)
    const read = readSync(fd, buf, 0, buf.length, 0)
    return buf.subarray(0, read).toString('utf8').split(/\r?\n/).slice(0, n)
  } finally {
    closeSync(fd)
  }
}

interface ImportRequest {
  path: string
  format?: ImportFormat | undefined
  set?: string | undefined
  split?: 'dev' | 'test' | 'none' | undefined
  /** The name shown for the file where `path` is a copy of an uploaded file. */
  sourceName?: string | undefined
  lossy?: boolean | undefined
  /** An uploaded file: it may refer to no other file. */
  selfContained?: boolean | undefined
  skipExisting?: boolean | undefined
  mapping?: GenericMapping | undefined
}

async function runImport(input: ImportRequest, ctx: ApiContext, dryRun: boolean) {
  const shown = input.sourceName ?? input.path
  if (!existsSync(input.path) || !statSync(input.path).isFile()) throw new AssayError('not_found', `No file at ${shown}`, [{ file: shown, message: 'not found' }])
  if (/\.xml$/i.test(input.path)) throw new AssayError('invalid_input', `${shown}: ${XML_REFUSED}`, [{ file: shown, message: XML_REFUSED }])
  const detected = input.format === undefined
  const format = input.format ?? detectFormat(input.path, firstLines(input.path))
  if (input.mapping && format !== 'generic') {
    throw new AssayError('invalid_input', `A column mapping is read only by the generic format, not ${format ?? 'a detected one'}`, [{ file: shown, field: 'mapping', message: 'only for format generic' }])
  }
  if (!format) throw new AssayError('invalid_input', `Cannot tell the format of ${shown}; choose one`, [{ file: shown, field: 'format', message: 'not detected' }])
  const report = await importFile(ctx.project, format, input.path, {
    dryRun,
    ...(input.set ? { set: input.set } : {}),
    ...(input.split ? { split: input.split } : {}),
    ...(input.sourceName !== undefined ? { sourceName: input.sourceName } : {}),
    ...(input.lossy ? { lossy: true } : {}),
    ...(input.selfContained ? { selfContained: true } : {}),
    ...(input.skipExisting ? { skipExisting: true } : {}),
    ...(input.mapping ? { mapping: input.mapping } : {})
  })
  if (!dryRun && report.errors.length === 0) ctx.events.emit('project.changed', { what: 'items' })
  return {
    format: report.format,
    detected,
    dryRun: report.dryRun,
    imported: report.imported,
    skipped: report.skipped,
    items: report.items,
    labels: report.labels,
    set: report.set,
    split: report.split,
    warnings: report.warnings,
    errors: report.errors,
    preview: report.preview,
    summary: report.summary,
    mapping: safeMapping(format, input.path, input.mapping)
  }
}

function safeMapping(format: ImportFormat, path: string, generic: GenericMapping | undefined) {
  try {
    return describeMapping(format, path, generic)
  } catch {
    // A file that cannot be read as records has its errors in the report already.
    return []
  }
}

type Upload = { name: string; bytes: string } & Omit<ImportRequest, 'path' | 'sourceName' | 'selfContained'>

/**
 * An uploaded file goes through the same pipeline as a path: its bytes are written under its own name (shortened
 * where the file system could not hold it, its extension kept) into a private temporary folder, so detection by
 * name, strict UTF-8 decoding and the default set name work as for a path; imported; and the folder removed whatever
 * happens. It is self-contained: a path inside it (Markdown by path) is refused, never resolved.
 */
async function runUpload(input: Upload, ctx: ApiContext, dryRun: boolean) {
  const bytes = Buffer.from(input.bytes, 'base64')
  if (bytes.length > MAX_UPLOAD_BYTES) {
    throw new AssayError('invalid_input', `${input.name} is over ${MAX_UPLOAD_BYTES} bytes; import it by path or with assay import`, [{ file: input.name, message: 'too large to upload' }])
  }
  const dir = mkdtempSync(join(tmpdir(), 'assay-upload-'))
  try {
    const path = join(dir, copyName(input.name))
    writeFileSync(path, bytes, { mode: 0o600 })
    const report = await runImport(
      {
        path,
        sourceName: input.name,
        format: input.format,
        set: input.set ?? defaultSet(input.name),
        split: input.split,
        lossy: input.lossy,
        skipExisting: input.skipExisting,
        mapping: input.mapping,
        selfContained: true
      },
      ctx,
      dryRun
    )
    return { ...report, errors: report.errors.map((e) => withoutCopyPath(e, dir)), warnings: report.warnings.map((w) => withoutCopyPath(w, dir)) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * File systems hold names of MAX_NAME_BYTES (255) bytes: a longer name (200 characters of three bytes each) is cut,
 * its extension kept, with a margin. An output the user names is refused instead (checkPathLength), never cut.
 */
const MAX_COPY_NAME_BYTES = 200

function copyName(name: string): string {
  if (Buffer.byteLength(name, 'utf8') <= MAX_COPY_NAME_BYTES) return name
  const ext = extname(name)
  const keep = Buffer.byteLength(ext, 'utf8') <= 32 ? ext : ''
  return `${shortened(name.slice(0, name.length - keep.length), MAX_COPY_NAME_BYTES - Buffer.byteLength(keep, 'utf8'))}${keep}`
}

/** The set is named after the file as uploaded, not after its shortened copy. */
function defaultSet(name: string): string | undefined {
  if (Buffer.byteLength(name, 'utf8') <= MAX_COPY_NAME_BYTES) return undefined
  return basename(name, extname(name)).slice(0, 200) || undefined
}

/** A problem of an uploaded file, told without the private folder it was copied to (which means nothing to anyone). */
function withoutCopyPath<T extends { message: string; file?: string | undefined; field?: string | undefined }>(problem: T, dir: string): T {
  const inside = `${dir}${sep}`
  if (!problem.message.includes(inside) && !(problem.file ?? '').startsWith(inside)) return problem
  return { ...problem, ...(problem.file ? { file: problem.file.split(inside).join('') } : {}), message: problem.message.split(inside).join('') }
}

export const importHandlers: HandlerGroup<keyof typeof importOperations> = {
  'import.preview': (input, ctx) => runImport(input, ctx, true),
  'import.run': (input, ctx) => runImport(input, ctx, false),
  'import.previewUpload': (input, ctx) => runUpload(input, ctx, true),
  'import.runUpload': (input, ctx) => runUpload(input, ctx, false),
  'import.chooseFile': async (_input, ctx) => {
    if (!ctx.chooseFile) return { available: false, path: null }
    return { available: true, path: await ctx.chooseFile({ title: 'Import a file into the project' }) }
  }
}

