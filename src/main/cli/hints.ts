import { AssayError } from '../../shared/errors'
import { findAnnotator, type AnnotatorRow } from '../store/annotators'
import type { Project } from '../store/project'
import { assignmentCount } from '../store/assignments'

// Errors for things a command needs that do not exist yet, each saying which command creates them.

function shellWord(s: string): string {
  return /^[\w.@/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** The named annotators, or an error naming the missing ones and the `assay annotators add` line that adds them. */
export function requireAnnotators(project: Project, file: string, names: readonly string[]): AnnotatorRow[] {
  const found = names.map((n) => findAnnotator(project, n))
  const missing = names.filter((_, i) => !found[i])
  if (missing.length) {
    const one = missing.length === 1
    throw new AssayError(
      'not_found',
      `No annotator${one ? '' : 's'} named ${missing.map((n) => `"${n}"`).join(', ')} in this project; add ${one ? 'it' : 'them'} with: assay annotators add ${shellWord(file)} ${missing.map(shellWord).join(' ')}`
    )
  }
  return found as AnnotatorRow[]
}

/** An error when the annotator has no assignments at all, naming the `assay assign` line that gives them some. */
export function requireAssignments(project: Project, file: string, annotator: AnnotatorRow): void {
  if (assignmentCount(project.db, annotator.id) === 0) {
    throw new AssayError(
      'not_found',
      `${annotator.name} has no assignments yet; assign items with: assay assign ${shellWord(file)} --instrument <id> --annotators ${shellWord(annotator.name)} --overlap 1`
    )
  }
}
