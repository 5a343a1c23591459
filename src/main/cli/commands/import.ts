import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { InvalidArgumentError, type Command } from 'commander'
import { AssayError, formatLocation, type ErrorLocation } from '../../../shared/errors'
import { importOptionsInput, type ImportReportView } from '../../../shared/contract/import-operations'
import { GENERIC_ROLE_NAMES, GENERIC_SHAPES, genericMappingSchema, type GenericMapping } from '../../../shared/items/generic-mapping'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { IMPORT_FORMATS, isImportFormat, type ImportFormat } from '../../import/types'
import { withProject } from '../contract'
import { EXIT_FAILURE, ExitCode, type CliIO } from '../run'

interface ImportCliOptions {
  set?: string
  split?: Split
  dryRun?: boolean
  lossy?: boolean
  skipExisting?: boolean
  json?: boolean
  as?: string
  map?: string
}

export function registerImport(program: Command, io: CliIO): void {
  program
    .command('import')
    .description('Import a data file into a project, all or nothing')
    .argument('<file>', 'the .assay project file')
    .argument('<format>', `${IMPORT_FORMATS.join(' | ')} | auto`)
    .argument('<path>', 'the data file (JSON, JSONL or CSV)')
    .option('--set <name>', 'set name for the items (default: the data file name)')
    .option('--split <split>', `dev | test | none (default none)`, parseSplit)
    .option('--dry-run', 'parse and validate, print what would be imported, write nothing')
    .option('--lossy', 'accept invalid UTF-8, replacing each invalid sequence by U+FFFD; the count is reported')
    .option('--skip-existing', 'leave out items whose id the project already has (counted) instead of refusing the file')
    .option('--as <shape>', 'generic format: texts | pairs')
    .option('--map <columns>', 'generic format: role=column pairs, comma-separated (texts: id, text, title, origin; pairs: id, a_text, b_text, title, a_origin, b_origin, label)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nErrors are listed as file:line: field: message. Nothing is written when there is any error (exit 1).\n' +
        'Your own data: assay import P generic file.csv --as texts --map id=paper_id,text=abstract,title=title (columns no role names are kept under $extra).'
    )
    .action(async (file: string, formatArg: string, path: string, opts: ImportCliOptions) => {
      const format = formatOf(formatArg, path, opts)
      const mapping = format ? genericMapping(format, opts) : undefined
      const input = { path, ...importOptionsInput({ format, set: opts.set, split: opts.split, lossy: opts.lossy, skipExisting: opts.skipExisting, mapping }) }
      const report = await withProject(file, { mode: 'write' }, async (project) => {
        try {
          return await project.call(opts.dryRun ? 'import.preview' : 'import.run', input)
        } catch (e) {
          // The import screen says "choose one"; here the format is named on the command line.
          if (e instanceof AssayError && e.details?.some((d) => d.field === 'format' && d.message === 'not detected')) {
            throw new AssayError('invalid_input', `cannot tell the format of ${path}; name it (${IMPORT_FORMATS.join(', ')})`)
          }
          throw e
        }
      })
      if (opts.json) io.out(JSON.stringify(jsonReport(report), null, 2))
      else printReport(io, report, path)
      if (report.errors.length) throw new ExitCode(EXIT_FAILURE)
    })
}

/**
 * The format named on the command line, or undefined for `auto` (the import operation detects it, as for the import
 * screen). The data file is looked for here, so a missing one is told as before any project is opened.
 */
function formatOf(arg: string, path: string, opts: ImportCliOptions): ImportFormat | undefined {
  if (!isImportFormat(arg) && arg !== 'auto') throw new AssayError('invalid_input', `unknown format "${arg}"; expected one of ${IMPORT_FORMATS.join(', ')}, or auto`)
  if (!existsSync(resolve(path)) || !statSync(resolve(path)).isFile()) throw new AssayError('not_found', `${path}: file not found`)
  if (arg !== 'auto') return arg
  // The generic format is never detected: its columns say nothing of what they hold.
  if (opts.as || opts.map) throw new AssayError('invalid_input', '--as and --map are for the generic format, which is never detected: name it (assay import P generic …)')
  return undefined
}

/** `--as` and `--map` as the generic format's mapping; refused with any other format, required with it. */
function genericMapping(format: ImportFormat, opts: ImportCliOptions): GenericMapping | undefined {
  if (format !== 'generic') {
    if (opts.as || opts.map) throw new AssayError('invalid_input', `--as and --map are for the generic format, not ${format}`)
    return undefined
  }
  if (!opts.as || !opts.map) throw new AssayError('invalid_input', 'the generic format needs --as texts|pairs and --map role=column,… (e.g. --map id=paper_id,text=abstract)')
  const columns: Record<string, string> = {}
  for (const part of opts.map.split(',')) {
    const eq = part.indexOf('=')
    const role = part.slice(0, eq).trim()
    if (eq < 0 || !role || !part.slice(eq + 1).trim()) throw new AssayError('invalid_input', `--map: "${part}" is not role=column`)
    if (!(GENERIC_ROLE_NAMES as ReadonlyArray<string>).includes(role)) throw new AssayError('invalid_input', `--map: ${role}: not a role; the roles are ${GENERIC_ROLE_NAMES.join(', ')}`)
    if (role in columns) throw new AssayError('invalid_input', `--map: ${role} is given twice`)
    columns[role] = part.slice(eq + 1).trim()
  }
  const parsed = genericMappingSchema.safeParse({ as: opts.as, columns })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new AssayError('invalid_input', issue.path[0] === 'as' ? `--as: expected ${GENERIC_SHAPES.join(' or ')}` : `--map: ${issue.path.slice(1).join('.')}: ${issue.message}`)
  }
  return parsed.data
}

function parseSplit(value: string): Split {
  if (!(SPLITS as ReadonlyArray<string>).includes(value)) throw new InvalidArgumentError(`expected one of ${SPLITS.join(', ')}`)
  return value as Split
}

/** The machine-readable result: exactly these keys, locations with their file, and the summary's counts. */
function jsonReport(r: ImportReportView): { imported: number; skipped: number; warnings: ErrorLocation[]; errors: ErrorLocation[]; summary: Record<string, unknown> } {
  return { imported: r.imported, skipped: r.skipped, warnings: r.warnings, errors: r.errors, summary: r.summary }
}

function printReport(io: CliIO, r: ImportReportView, path: string): void {
  for (const e of r.errors) io.err(formatLocation(e))
  for (const w of r.warnings) io.err(`warning: ${formatLocation(w)}`)
  if (r.errors.length) {
    io.err(`${r.errors.length} error${r.errors.length === 1 ? '' : 's'}; nothing was imported from ${path}`)
    if (r.errors.some((e) => e.message.endsWith('is already in the project'))) io.err('To import the rest and leave out items the project already has, add --skip-existing.')
    return
  }
  const what = [`${r.items} item${r.items === 1 ? '' : 's'}`, ...(r.labels ? [`${r.labels} label${r.labels === 1 ? '' : 's'}`] : [])].join(' and ')
  const where = r.items ? ` into set "${r.set}" (split ${r.split})` : ''
  const present = typeof r.summary.alreadyInProject === 'number' && r.summary.alreadyInProject ? ` (${r.summary.alreadyInProject} already in the project)` : ''
  const unchanged = typeof r.summary.unchanged === 'number' && r.summary.unchanged ? `; ${r.summary.unchanged} unchanged (already in the project)` : ''
  io.out(`${r.dryRun ? 'Would import' : 'Imported'} ${what} from ${path}${where}${r.skipped ? `; ${r.skipped} skipped${present}` : ''}${unchanged}`)
  if (Object.keys(r.summary).length) io.out(`summary: ${JSON.stringify(r.summary)}`)
  if (r.dryRun) {
    for (const p of r.preview) io.out(`  ${p.kind}  ${p.external_id}  ${p.title}`)
    if (r.imported > r.preview.length) io.out(`  … and ${r.imported - r.preview.length} more`)
  }
}
