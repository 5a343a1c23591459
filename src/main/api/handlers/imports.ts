import { existsSync, statSync, openSync, readSync, closeSync } from 'node:fs'
import { AssayError } from '../../../shared/errors'
import type { importOperations } from '../../../shared/contract/import-operations'
import { detectFormat, importFile, type ImportFormat } from '../../import'
import { describeMapping } from '../../import/mapping'
import type { ApiContext } from '../context'
import type { HandlerGroup } from './types'

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

async function runImport(input: { path: string; format?: ImportFormat | undefined; set?: string | undefined; split?: 'dev' | 'test' | 'none' | undefined }, ctx: ApiContext, dryRun: boolean) {
  if (!existsSync(input.path) || !statSync(input.path).isFile()) throw new AssayError('not_found', `No file at ${input.path}`, [{ file: input.path, message: 'not found' }])
  const detected = input.format === undefined
  const format = input.format ?? detectFormat(input.path, firstLines(input.path))
  if (!format) throw new AssayError('invalid_input', `Cannot tell the format of ${input.path}; choose one`, [{ file: input.path, field: 'format', message: 'not detected' }])
  const report = await importFile(ctx.project, format, input.path, { dryRun, ...(input.set ? { set: input.set } : {}), ...(input.split ? { split: input.split } : {}) })
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
    mapping: safeMapping(format, input.path)
  }
}

function safeMapping(format: ImportFormat, path: string) {
  try {
    return describeMapping(format, path)
  } catch {
    // A file that cannot be read as records has its errors in the report already.
    return []
  }
}

export const importHandlers: HandlerGroup<keyof typeof importOperations> = {
  'import.preview': (input, ctx) => runImport(input, ctx, true),
  'import.run': (input, ctx) => runImport(input, ctx, false)
}

