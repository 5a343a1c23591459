import { resolve } from 'node:path'
import { InvalidArgumentError, Option, type Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { EXPORT_KINDS, TRAINING_EXPORT_KINDS, type ExportKind, type TrainingExportKind } from '../../export/kinds'
import { withProject } from '../contract'
import type { CliIO } from '../run'

interface ExportCliOptions {
  out: string
  format?: 'jsonl' | 'csv'
  set?: string
  split?: Split
  instrument?: string
  pseudonymise?: boolean
  force?: boolean
  rawCells?: boolean
  json?: boolean
  license?: string
}

export function registerExport(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('Export labels or judge outputs, with a dataset card beside the file')
    .argument('<file>', 'the .assay project file')
    .argument('<what>', [...EXPORT_KINDS, ...TRAINING_EXPORT_KINDS].join(' | '))
    .requiredOption('--out <path>', 'the file to write (the card goes beside it as <name>.card.md); for preferences and finetune a folder (one JSONL per split and a README.md dataset card)')
    .option('--license <id>', 'preferences and finetune: the license in the dataset card (a Hugging Face license id; default other)')
    .addOption(new Option('--format <format>', 'jsonl or csv (default: from the --out extension, else jsonl)').choices(['jsonl', 'csv']))
    .option('--set <name>', 'only items of this set')
    .option('--split <split>', 'only items of this split: dev | test | none', parseSplit)
    .option('--instrument <id>', 'only answers of this instrument')
    .option('--pseudonymise', 'write annotator pseudonyms (A01, …) instead of names')
    .option('--force', 'replace existing files at --out and its card (never an SQLite file or the project)')
    .option('--raw-cells', 'CSV: write cells starting with = + - @ tab or CR verbatim instead of escaping them with a leading \'')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, what: string, opts: ExportCliOptions) => {
      if ((TRAINING_EXPORT_KINDS as ReadonlyArray<string>).includes(what)) return exportTrainingSet(file, what as TrainingExportKind, opts, io)
      if (!(EXPORT_KINDS as ReadonlyArray<string>).includes(what)) {
        throw new AssayError('invalid_input', `cannot export "${what}"; expected ${[...EXPORT_KINDS, ...TRAINING_EXPORT_KINDS].join(', ')}`)
      }
      if (opts.instrument && !/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(opts.instrument)) throw new AssayError('invalid_input', `unknown instrument "${opts.instrument}"`)
      const result = await withProject(file, { mode: 'write-if-possible', onNotWritable: notWritable(io) }, (project) =>
        project.call('export.table', {
          what: what as ExportKind,
          out: resolve(opts.out),
          ...(opts.format ? { format: opts.format } : {}),
          ...filter(opts),
          pseudonymise: opts.pseudonymise ?? false,
          overwrite: opts.force ?? false,
          rawCells: opts.rawCells ?? false
        })
      )
      if (opts.json) return io.out(JSON.stringify(result, null, 2))
      const noun = what === 'labels' ? 'answer' : 'model call'
      io.out(`Exported ${result.rows} ${noun}${result.rows === 1 ? '' : 's'} on ${result.items} item${result.items === 1 ? '' : 's'} to ${result.path}`)
      io.out(`Dataset card: ${result.cardPath}`)
    })
}

/** The note on a file opened for reading: what an export of it cannot do. */
const notWritable = (io: CliIO) => (path: string) =>
  io.err(`note: ${path} is read-only; opened for reading (test-split items cannot be exported, as their exposure could not be recorded)`)

/** The filter flags as the operations take them (an absent flag is no key). */
function filter(opts: ExportCliOptions): { set?: string; split?: Split; instrument?: string } {
  return { ...(opts.set ? { set: opts.set } : {}), ...(opts.split ? { split: opts.split } : {}), ...(opts.instrument ? { instrument: opts.instrument } : {}) }
}

function parseSplit(value: string): Split {
  if (!(SPLITS as ReadonlyArray<string>).includes(value)) throw new InvalidArgumentError(`expected one of ${SPLITS.join(', ')}`)
  return value as Split
}

/** preferences | finetune: a folder that loads with the `datasets` library, written by ../../export/training. */
async function exportTrainingSet(file: string, what: TrainingExportKind, opts: ExportCliOptions, io: CliIO): Promise<void> {
  if (opts.format === 'csv') throw new AssayError('invalid_input', `${what} is written as JSONL only`)
  const result = await withProject(file, { mode: 'write-if-possible', onNotWritable: notWritable(io) }, (project) =>
    project.call('export.training', { what, out: resolve(opts.out), ...filter(opts), ...(opts.license ? { license: opts.license } : {}), overwrite: opts.force ?? false })
  )
  if (opts.json) return io.out(JSON.stringify(result, null, 2))
  io.out(`Exported ${result.rows} ${what} row${result.rows === 1 ? '' : 's'} to ${result.dir} (${result.files.map((f) => `${f.split} ${f.rows}`).join(', ')})`)
  io.out(`Left out: ${result.excluded.ties} ties, ${result.excluded.abstentions} abstentions`)
  io.out(`Dataset card: ${result.card}`)
}
