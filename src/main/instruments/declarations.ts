import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { AssayError } from '../../shared/errors'
import { buildInstrument } from '../../shared/instruments/declared/build'
import type { Declaration } from '../../shared/instruments/declared/declaration'
import { readDeclaration } from '../../shared/instruments/declared/read'
import { addProjectInstrument, declarationHash, declarationOf, projectInstrumentRows, registerProjectInstruments, type AddOutcome } from '../store/instruments'
import type { Project } from '../store/project'

export { declarationHash }

// A project's declared instruments: a declaration file checked (file, line, field and what), added as a new version
// when it changed, and listed with every version kept.

/** Reads and checks a declaration text; refused with every problem found, each with its line and field. */
export function checkDeclarationText(text: string, file: string): Declaration {
  const result = readDeclaration(text, file)
  if (!result.ok) throw new AssayError('invalid_input', `${file} is not a valid instrument declaration`, result.problems)
  // Building it proves the schema and form can be made from it.
  buildInstrument(result.declaration, 1)
  return result.declaration
}

export function checkDeclarationFile(path: string): Declaration {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new AssayError('not_found', `Cannot read ${path}: ${(e as Error).message}`)
  }
  return checkDeclarationText(text, basename(path))
}

/** Adds a declaration: identical to the newest version, nothing is written; changed, it is the next version. */
export function addDeclaration(project: Project, declaration: Declaration): AddOutcome {
  const outcome = project.write((db) => addProjectInstrument(db, declaration))
  project.knowInstruments(registerProjectInstruments(project.db))
  return outcome
}

export interface DeclaredVersion {
  id: string
  version: number
  title: string
  item: Declaration['item']
  hash: string
  createdAt: string
  declaration: Declaration
}

export function declaredVersions(project: Project, id?: string): DeclaredVersion[] {
  return projectInstrumentRows(project.db, id).map((r) => {
    const d = declarationOf(r)
    return { id: r.instrument_id, version: r.version, title: d.title, item: d.item, hash: r.content_hash, createdAt: r.created_at, declaration: d }
  })
}
