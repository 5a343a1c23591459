import { readFile } from 'node:fs/promises'
import { basename, extname, resolve } from 'node:path'
import { zodIssuesToLocations, type ErrorLocation } from '../../shared/errors'
import { itemTitle, parseItemPayload, type ItemKind, type Split } from '../../shared/items/kinds'
import type { Project } from '../store/project'
import { detectFormat } from './detect'
import { EXTRA_KEY, namespaceUnknownFields } from './extra-fields'
import type { GenericMapping } from '../../shared/items/generic-mapping'
import { FORMAT_ARRAY_KEYS, parseFormat } from './formats'
import { keepWrittenNumbers } from './numbers'
import { readRecords } from './read-records'
import { decodeUtf8 } from './utf8'
import { IMPORT_FORMATS, isImportFormat, type ImportContext, type ImportFormat, type ItemDraft, type ParsedImport } from './types'
import { writeImport, type ImportProgress } from './write'
import { itemExistsFinder } from '../store/items'

export { detectFormat, IMPORT_FORMATS, isImportFormat }
export type { ImportFormat, ImportProgress }

export interface ImportOptions {
  /** Set name for the items; defaults to the file name without its extension. */
  set?: string
  split?: 'dev' | 'test' | 'none'
  /** Parse and validate only; write nothing. */
  dryRun?: boolean
  /** Phases and write progress, for progress bars. */
  onProgress?: (p: ImportProgress) => void
  /** Accept invalid UTF-8, each bad sequence replaced by U+FFFD and counted (refused otherwise). */
  lossy?: boolean
  /** The name errors and the import record give the file, where `path` is a copy (an uploaded file). */
  sourceName?: string
  /** Refuse every reference to another file (an uploaded file may bring nothing from this machine). */
  selfContained?: boolean
  /**
   * Leave out items whose id the project already has (counted in `skipped` and the summary's `alreadyInProject`)
   * instead of refusing the file; every other problem still refuses it whole.
   */
  skipExisting?: boolean
  /** The columns of a `generic` import (refused with any other format). */
  mapping?: GenericMapping
}

export interface ImportPreviewRow {
  kind: string
  external_id: string
  title: string
}

export interface ImportReport {
  format: ImportFormat
  /** Items and labels written (or, in a dry run, that would be written). */
  imported: number
  skipped: number
  warnings: ErrorLocation[]
  errors: ErrorLocation[]
  /** First rows, for the import dialog. */
  preview: ImportPreviewRow[]
  /** Counts recomputed from the rows: label balance, tracks, pairs kept… (format-specific). */
  summary: Record<string, unknown>
  items: number
  labels: number
  set: string
  split: Split
  dryRun: boolean
  /** Id of the `imports` row, when something was written. */
  importId: number | null
}

const PREVIEW_ROWS = 20

/** No XML parser is among Assay's dependencies, so XML (PubMed's efetch included) is refused with what to do instead. */
export const XML_REFUSED =
  'XML files are not read (PubMed XML included); write the records as JSON, JSONL or CSV with the fields of the format (for abstracts: pmid, title, journal, abstract)'

/** The field a duplicate id is reported against, per kind. */
const ID_FIELD: Partial<Record<ItemKind, string>> = {
  'proposal-pair': 'pair_id',
  'rediscovery-task': 'task_id',
  'hypothesis-set': 'set_id',
  'research-question': 'question_id',
  'fs-problem': 'task_group_id',
  'preprint-pair': 'pair_id',
  'reference-pair': 'pair_id',
  paper: 'pmid'
}

/**
 * Imports one file, all or nothing: everything is parsed and validated first; on any error the report lists the
 * errors (file, line, field) and nothing is written; otherwise every item and label is written in one
 * transaction together with its `imports` row.
 */
export async function importFile(project: Project, format: ImportFormat, path: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const fullPath = resolve(path)
  const shown = opts.sourceName ?? path
  const set = opts.set?.trim() || basename(fullPath, extname(fullPath)) || 'default'
  const split: Split = opts.split ?? 'none'
  const report = (parsed: ParsedImport, importId: number | null): ImportReport => ({
    format,
    imported: parsed.errors.length ? 0 : parsed.items.length + parsed.annotations.length,
    skipped: parsed.skipped,
    warnings: parsed.warnings,
    errors: parsed.errors,
    preview: preview(parsed),
    summary: parsed.summary,
    items: parsed.errors.length ? 0 : parsed.items.length,
    labels: parsed.errors.length ? 0 : parsed.annotations.length,
    set,
    split,
    dryRun: opts.dryRun ?? false,
    importId
  })

  if (opts.mapping && format !== 'generic') return report(failed(shown, `a column mapping is read only by the generic format, not ${format}`), null)
  if (/\.xml$/i.test(fullPath)) return report(failed(shown, XML_REFUSED), null)
  opts.onProgress?.({ phase: 'reading' })
  let bytes: Buffer
  try {
    bytes = await readFile(fullPath)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return report(failed(shown, code === 'ENOENT' ? 'file not found' : `cannot read the file: ${(e as Error).message}`), null)
  }
  const decoded = decodeUtf8(bytes, opts.lossy ?? false)
  if (decoded.invalid.length && !opts.lossy) {
    const bad = decoded.invalid[0]!
    return report(
      { ...failed(shown, ''), errors: [{ file: shown, line: bad.line, message: `invalid UTF-8 at byte offset ${bad.offset}; fix the encoding, or import with --lossy to replace each invalid sequence by U+FFFD (counted)` }] },
      null
    )
  }
  const text = decoded.text

  const ctx: ImportContext = { path: fullPath, file: shown, db: project.db, lossy: opts.lossy ?? false, replaced: { count: 0 }, selfContained: opts.selfContained ?? false, ...(opts.mapping ? { mapping: opts.mapping } : {}) }
  const read = readRecords(shown, fullPath, text, FORMAT_ARRAY_KEYS[format])
  if (read.errors.length && read.records.length === 0) return report({ ...failed(shown, ''), errors: read.errors }, null)
  if (read.records.length === 0) return report(failed(shown, 'the file has no records'), null)

  opts.onProgress?.({ phase: 'validating' })
  const parsed = await parseFormat(format, ctx, read)
  // Lines that could not be read are reported together with the problems of the lines that could, so one preview
  // lists every problem of the file instead of stopping at the first bad line.
  parsed.errors.unshift(...read.errors)
  validateItems(ctx, parsed, opts.skipExisting ?? false)
  keepWrittenNumbers(shown, read.records, parsed)
  const replaced = decoded.invalid.length + ctx.replaced!.count
  if (replaced) {
    parsed.summary = { ...parsed.summary, invalidUtf8Replaced: replaced }
    const first = decoded.invalid[0]
    parsed.warnings.unshift({
      file: shown,
      ...(first ? { line: first.line } : {}),
      message: `${replaced} invalid UTF-8 sequence${replaced === 1 ? '' : 's'} replaced by U+FFFD${first ? ` (first at byte offset ${first.offset})` : ' in the files it names'}`
    })
  }
  if (parsed.errors.length || opts.dryRun) return report(parsed, null)

  const importId = writeImport(project, {
    format,
    source: opts.sourceName !== undefined ? `upload:${opts.sourceName}` : fullPath,
    set,
    split,
    items: parsed.items,
    annotations: parsed.annotations,
    adjudications: parsed.adjudications,
    warnings: parsed.warnings,
    onProgress: opts.onProgress
  })
  opts.onProgress?.({ phase: 'done' })
  return report(parsed, importId)
}

function failed(file: string, message: string): ParsedImport {
  return { items: [], annotations: [], warnings: [], errors: message ? [{ file, message }] : [], skipped: 0, summary: {} }
}

/**
 * Checks every item against its kind's schema (replacing the payload by the parsed one, defaults filled) and
 * that external ids are unique per kind, within the file and against the project.
 */
function validateItems(ctx: ImportContext, parsed: ParsedImport, skipExisting: boolean): void {
  const firstLine = new Map<string, number>()
  const exists = itemExistsFinder(ctx.db)
  const present: ItemDraft[] = []
  for (const item of parsed.items) {
    const result = parseItemPayload(item.kind, item.payload)
    if (!result.success) {
      parsed.errors.push(...zodIssuesToLocations(result.error.issues, { file: ctx.file, line: item.line }))
      continue
    }
    item.payload = namespaceUnknownFields(item.kind, result.data as Record<string, unknown>)
    if (item.extra && Object.keys(item.extra).length) item.payload[EXTRA_KEY] = { ...(item.payload[EXTRA_KEY] as Record<string, unknown> | undefined), ...item.extra }
    const key = `${item.kind}\u0000${item.externalId}`
    const prior = firstLine.get(key)
    if (prior !== undefined) {
      parsed.errors.push({ file: ctx.file, line: item.line, field: item.idField ?? ID_FIELD[item.kind] ?? 'id', message: `${item.kind} "${item.externalId}" appears twice (first on line ${prior})` })
      continue
    }
    firstLine.set(key, item.line)
    if (exists(item.kind, item.externalId)) {
      if (skipExisting) present.push(item)
      else
        parsed.errors.push({
          file: ctx.file,
          line: item.line,
          field: item.idField ?? ID_FIELD[item.kind] ?? 'id',
          message: `${item.kind} "${item.externalId}" is already in the project`
        })
    }
  }
  if (present.length) {
    const left = new Set(present)
    parsed.items = parsed.items.filter((item) => !left.has(item))
    parsed.skipped += present.length
    parsed.summary = { ...parsed.summary, alreadyInProject: present.length }
    const first = present[0]!
    parsed.warnings.push({
      file: ctx.file,
      line: first.line,
      message: `${present.length} item${present.length === 1 ? '' : 's'} already in the project left out, not imported again (first: ${first.kind} "${first.externalId}")`
    })
  }
  parsed.errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

function preview(parsed: ParsedImport): ImportPreviewRow[] {
  const rows: ImportPreviewRow[] = parsed.items.slice(0, PREVIEW_ROWS).map((it) => ({
    kind: it.kind,
    external_id: it.externalId,
    title: safeTitle(it.kind, it.externalId, it.payload)
  }))
  for (const a of parsed.annotations.slice(0, PREVIEW_ROWS - rows.length)) {
    rows.push({ kind: 'annotation', external_id: a.itemExternalId, title: `${a.instrumentId} · ${a.sourceKind} ${a.sourceName}` })
  }
  return rows
}

function safeTitle(kind: Parameters<typeof itemTitle>[0], id: string, payload: Record<string, unknown>): string {
  try {
    return itemTitle(kind, id, payload)
  } catch {
    return id
  }
}
