import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { MAX_NAME_CHARS, nameSchema } from '../../../shared/contract/annotation-schemas'
import { withProject } from '../contract'
import type { CliIO } from '../run'

/** The same limits as the workbench's "add annotator" form (annotators.create in the contract). */
const MAX_EXPERTISE = 500

export function registerAnnotators(program: Command, io: CliIO): void {
  const annotators = program.command('annotators').description('Annotator profiles: add them, list them with their progress')

  annotators
    .command('add')
    .description('Add annotators (a name that exists already is left as it is)')
    .argument('<file>', 'the .assay project file')
    .argument('<names...>', 'one or more annotator names')
    .option('--expertise <text>', 'their field of expertise, stored with each new profile')
    .option('--json', 'print JSON')
    .action(async (file: string, names: string[], opts: { expertise?: string; json?: boolean }) => {
      // Every name is checked before any is added, with the contract's own schema for names.
      const checked = names.map((n) => nameSchema.safeParse(n))
      const bad = checked.findIndex((r) => !r.success)
      if (bad >= 0) {
        const why = checked[bad]!.error?.issues[0]?.message ?? 'not a name'
        throw new AssayError('invalid_input', `An annotator name must be one line of 1 to ${MAX_NAME_CHARS} characters: ${why} (got ${JSON.stringify(names[bad])})`)
      }
      const clean = checked.map((r) => r.data!)
      if (opts.expertise !== undefined && opts.expertise.length > MAX_EXPERTISE) throw new AssayError('invalid_input', `--expertise has at most ${MAX_EXPERTISE} characters`)
      const rows = await withProject(file, { mode: 'write' }, async (project) => {
        const existing = new Set((await project.call('annotators.list', {})).annotators.map((a) => a.name))
        const added = []
        for (const name of clean) {
          const a = await project.call('annotators.create', { name, ...(opts.expertise !== undefined ? { expertise: opts.expertise } : {}) })
          added.push({ id: a.id, name: a.name, pseudonym: a.pseudonym, added: !existing.has(name) })
          existing.add(name)
        }
        return added
      })
      if (opts.json) return io.out(JSON.stringify({ annotators: rows }, null, 2))
      for (const r of rows) io.out(`${r.added ? 'Added' : 'Exists'}: ${r.name} (${r.pseudonym})`)
    })

  annotators
    .command('list')
    .description('Annotators with their pseudonym, expertise and progress')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { annotators: rows } = await withProject(file, { mode: 'read' }, (project) => project.call('annotators.list', {}))
      if (opts.json) return io.out(JSON.stringify({ annotators: rows }, null, 2))
      if (!rows.length) return io.out(`No annotators yet. Add them with: assay annotators add ${file} <name>…`)
      for (const r of rows) io.out(`${r.pseudonym}  ${r.name}${r.expertise ? ` (${r.expertise})` : ''}  ${r.done}/${r.assignments} done`)
    })
}
