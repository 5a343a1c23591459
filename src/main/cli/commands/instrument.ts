import { readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import type { Declaration } from '../../../shared/instruments/declared/declaration'
import { withProject } from '../contract'
import type { CliIO } from '../run'

// `assay instrument add|list|show|check`: a project's own instruments, declared in a JSON or YAML file, through the
// contract's instruments.* operations (the same checks as the window's).

/** The declaration file's text and the name its problems are reported under. */
function declarationFile(path: string): { text: string; file: string } {
  try {
    return { text: readFileSync(resolve(path), 'utf8'), file: basename(path) }
  } catch (e) {
    throw new AssayError('not_found', `Cannot read ${path}: ${(e as Error).message}`)
  }
}

function shape(item: string): string {
  return item === 'text' ? 'single texts' : 'A/B pairs'
}

export function registerInstrument(program: Command, io: CliIO): void {
  const instrument = program.command('instrument').description('Instruments of the project’s own: declare a review form in a JSON or YAML file, keep its versions')

  instrument
    .command('check')
    .description('Check a declaration without writing anything (file:line: field: what for every problem)')
    .argument('<file>', 'the .assay project file')
    .argument('<declaration>', 'the declaration, .json or .yaml')
    .option('--json', 'print JSON')
    .action(async (file: string, path: string, opts: { json?: boolean }) => {
      const input = declarationFile(path)
      const { checked, versions } = await withProject(file, { mode: 'read' }, async (p) => {
        const checked = await p.call('instruments.check', input)
        const id = checked.declaration ? String(checked.declaration['id']) : undefined
        return { checked, versions: id === undefined ? [] : (await p.call('instruments.versions', { id })).versions }
      })
      if (!checked.ok || !checked.declaration) throw new AssayError('invalid_input', `${input.file} is not a valid instrument declaration`, checked.problems)
      const d = checked.declaration as unknown as Declaration
      const last = versions[versions.length - 1]
      const would = checked.adding === 'new' || !last ? 'version 1 (new)' : checked.adding === 'unchanged' ? `unchanged (version ${last.version})` : `version ${last.version + 1} (changed)`
      if (opts.json) return io.out(JSON.stringify({ ok: true, id: d.id, fields: d.fields.length, item: d.item, adding: would }, null, 2))
      io.out(`${path}: ${d.id} is valid: ${d.fields.length} field${d.fields.length === 1 ? '' : 's'}, ${shape(d.item)}; adding it would make ${would}`)
    })

  instrument
    .command('add')
    .description('Add a declaration to the project: the same again changes nothing, a changed one is a new version (answers keep theirs)')
    .argument('<file>', 'the .assay project file')
    .argument('<declaration>', 'the declaration, .json or .yaml')
    .option('--json', 'print JSON')
    .action(async (file: string, path: string, opts: { json?: boolean }) => {
      const input = declarationFile(path)
      const outcome = await withProject(file, { mode: 'write' }, (p) => p.call('instruments.add', input))
      if (opts.json) return io.out(JSON.stringify(outcome, null, 2))
      io.out(outcome.status === 'added' ? `Added ${outcome.id} version ${outcome.version}` : `Unchanged: ${outcome.id} is version ${outcome.version} already`)
    })

  instrument
    .command('list')
    .description('The project’s declared instruments, newest version of each')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { versions } = await withProject(file, { mode: 'read' }, (p) => p.call('instruments.versions', {}))
      const latest = [...new Map(versions.map((v) => [v.id, v])).values()]
      if (opts.json) return io.out(JSON.stringify({ instruments: latest.map(({ declaration: _d, ...v }) => v) }, null, 2))
      if (!latest.length) return io.out('No declared instruments (add one with `assay instrument add <file> <declaration>`)')
      for (const v of latest) io.out(`${v.id}@${v.version}  ${v.item === 'text' ? 'text' : 'pair'}  ${v.title}`)
    })

  instrument
    .command('show')
    .description('One declared instrument: its declaration (newest, or --version) and its versions')
    .argument('<file>', 'the .assay project file')
    .argument('<id>', 'the instrument id')
    .option('--version <n>', 'this version rather than the newest')
    .option('--json', 'print JSON')
    .action(async (file: string, id: string, opts: { version?: string; json?: boolean }) => {
      const { versions } = await withProject(file, { mode: 'read' }, (p) => p.call('instruments.versions', { id }))
      if (!versions.length) throw new AssayError('not_found', `The project declares no instrument "${id}"`)
      const chosen = opts.version === undefined ? versions[versions.length - 1]! : versions.find((v) => String(v.version) === opts.version)
      if (!chosen) throw new AssayError('not_found', `${id} has no version ${opts.version} (versions: ${versions.map((v) => v.version).join(', ')})`)
      if (opts.json) return io.out(JSON.stringify({ ...chosen, versions: versions.map((v) => ({ version: v.version, hash: v.hash, createdAt: v.createdAt })) }, null, 2))
      io.out(`${chosen.id}@${chosen.version}: ${chosen.title} (${shape(chosen.item)}), versions ${versions.map((v) => v.version).join(', ')}`)
      for (const f of (chosen.declaration as unknown as Declaration).fields) {
        io.out(`  ${f.name}  ${f.kind}${f.optional ? ' (optional)' : f.required_when ? ` (required when ${f.required_when.field})` : ''}  ${f.label}`)
      }
    })
}
