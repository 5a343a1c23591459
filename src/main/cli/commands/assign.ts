import { InvalidArgumentError, type Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { instrumentArg, instrumentHelp } from '../instrument-arg'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { withProject } from '../contract'
import { requireAnnotators } from '../hints'
import type { CliIO } from '../run'

interface AssignCliOptions {
  instrument: string
  annotators: string[]
  overlap: number
  set?: string
  split?: Split
  seed?: string
  json?: boolean
}

function choice(values: readonly string[]) {
  return (value: string): string => {
    if (!values.includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`)
    return value
  }
}

function names(value: string): string[] {
  const list = [...new Set(value.split(',').map((n) => n.trim()))]
  if (list.some((n) => n.length === 0)) throw new InvalidArgumentError('expected comma-separated names, e.g. alice,bob,carol')
  return list
}

function positiveInteger(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1')
  return n
}

export function registerAssign(program: Command, io: CliIO): void {
  program
    .command('assign')
    .description("Assign an instrument's items to annotators, each item to --overlap of them, balanced; each queue gets its own seeded order")
    .argument('<file>', 'the .assay project file')
    .requiredOption('--instrument <id>', instrumentHelp(), instrumentArg())
    .requiredOption('--annotators <names>', 'comma-separated annotator names (add them first with `assay annotators add`)', names)
    .requiredOption('--overlap <k>', 'how many annotators see each item (1 to the number of annotators)', positiveInteger)
    .option('--set <name>', 'only items of this set')
    .option('--split <split>', `only items of this split: ${SPLITS.join(' | ')}`, choice(SPLITS))
    .option('--seed <seed>', 'seed of the assignment and queue order (default: the project seed)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nRunning it again adds only what is missing: existing assignments and answers are kept.')
    .action(async (file: string, opts: AssignCliOptions) => {
      const result = await withProject(file, { mode: 'write' }, async (project) => {
        await requireAnnotators(project, file, opts.annotators)
        return project.call('assignments.create', {
          instrument: opts.instrument,
          annotators: opts.annotators,
          overlap: opts.overlap,
          ...(opts.set !== undefined ? { set: opts.set } : {}),
          ...(opts.split !== undefined ? { split: opts.split } : {}),
          ...(opts.seed !== undefined ? { seed: opts.seed } : {})
        })
      })
      if (result.items === 0) {
        const where = [opts.set ? `set "${opts.set}"` : '', opts.split ? `split ${opts.split}` : ''].filter(Boolean).join(', ')
        throw new AssayError('not_found', `No items for ${opts.instrument}${where ? ` in ${where}` : ''}; import some first with: assay import ${file} <format> <path>`)
      }
      if (opts.json) return io.out(JSON.stringify(result, null, 2))
      const per = Object.entries(result.perAnnotator).map(([n, k]) => `${n} ${k}`).join(', ')
      io.out(`Assigned ${result.items} item${result.items === 1 ? '' : 's'} of ${opts.instrument} with overlap ${opts.overlap} (seed ${result.seed}): ${result.created} new assignment${result.created === 1 ? '' : 's'}${result.created ? ` (${per})` : ''}`)
    })
}
