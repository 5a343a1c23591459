import { resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import type { CliIO } from '../run'

// `assay instrument add|list|show|check`: a project's own instruments, declared in a JSON or YAML file.

/** The declaration code and the store load only when an instrument command runs. */
const declarations = () => import('../../instruments/declarations')
const projects = () => import('../../store/project')

async function withProject<T>(file: string, readOnly: boolean, fn: (project: import('../../store/project').Project) => T): Promise<T> {
  const { Project } = await projects()
  const project = readOnly ? (await Project.openForReading(resolve(file))).project : await Project.open(resolve(file))
  try {
    return fn(project)
  } finally {
    project.close()
  }
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
      const { checkDeclarationFile, declarationHash, declaredVersions } = await declarations()
      const d = checkDeclarationFile(resolve(path))
      const versions = await withProject(file, true, (p) => declaredVersions(p, d.id))
      const last = versions[versions.length - 1]
      const hash = declarationHash(d)
      const would = !last ? 'version 1 (new)' : last.hash === hash ? `unchanged (version ${last.version})` : `version ${last.version + 1} (changed)`
      if (opts.json) return io.out(JSON.stringify({ ok: true, id: d.id, fields: d.fields.length, item: d.item, adding: would }, null, 2))
      io.out(`${path}: ${d.id} is valid: ${d.fields.length} field${d.fields.length === 1 ? '' : 's'}, ${d.item === 'text' ? 'single texts' : 'A/B pairs'}; adding it would make ${would}`)
    })

  instrument
    .command('add')
    .description('Add a declaration to the project: the same again changes nothing, a changed one is a new version (answers keep theirs)')
    .argument('<file>', 'the .assay project file')
    .argument('<declaration>', 'the declaration, .json or .yaml')
    .option('--json', 'print JSON')
    .action(async (file: string, path: string, opts: { json?: boolean }) => {
      const { addDeclaration, checkDeclarationFile } = await declarations()
      const d = checkDeclarationFile(resolve(path))
      const outcome = await withProject(file, false, (p) => addDeclaration(p, d))
      if (opts.json) return io.out(JSON.stringify(outcome, null, 2))
      io.out(outcome.status === 'added' ? `Added ${outcome.id} version ${outcome.version}` : `Unchanged: ${outcome.id} is version ${outcome.version} already`)
    })

  instrument
    .command('list')
    .description('The project’s declared instruments, newest version of each')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { declaredVersions } = await declarations()
      const all = await withProject(file, true, (p) => declaredVersions(p))
      const latest = [...new Map(all.map((v) => [v.id, v])).values()]
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
      const { declaredVersions } = await declarations()
      const versions = await withProject(file, true, (p) => declaredVersions(p, id))
      if (!versions.length) throw new AssayError('not_found', `The project declares no instrument "${id}"`)
      const chosen = opts.version === undefined ? versions[versions.length - 1]! : versions.find((v) => String(v.version) === opts.version)
      if (!chosen) throw new AssayError('not_found', `${id} has no version ${opts.version} (versions: ${versions.map((v) => v.version).join(', ')})`)
      if (opts.json) return io.out(JSON.stringify({ ...chosen, versions: versions.map((v) => ({ version: v.version, hash: v.hash, createdAt: v.createdAt })) }, null, 2))
      io.out(`${chosen.id}@${chosen.version}: ${chosen.title} (${chosen.item === 'text' ? 'single texts' : 'A/B pairs'}), versions ${versions.map((v) => v.version).join(', ')}`)
      for (const f of chosen.declaration.fields) io.out(`  ${f.name}  ${f.kind}${f.optional ? ' (optional)' : f.required_when ? ` (required when ${f.required_when.field})` : ''}  ${f.label}`)
    })
}
