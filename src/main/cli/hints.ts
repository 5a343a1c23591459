import { AssayError } from '../../shared/errors'
import type { OperationOutput } from '../../shared/contract/operations'
import type { CommandProject } from './contract'

type AnnotatorSummary = OperationOutput<'annotators.list'>['annotators'][number]

// Errors for things a command needs that do not exist yet, each saying which command creates them.

function shellWord(s: string): string {
  return /^[\w.@/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** The named annotators, or an error naming the missing ones and the `assay annotators add` line that adds them. */
export async function requireAnnotators(project: CommandProject, file: string, names: readonly string[]): Promise<AnnotatorSummary[]> {
  const { annotators } = await project.call('annotators.list', {})
  const found = names.map((n) => annotators.find((a) => a.name === n))
  const missing = names.filter((_, i) => !found[i])
  if (missing.length) {
    const one = missing.length === 1
    throw new AssayError(
      'not_found',
      `No annotator${one ? '' : 's'} named ${missing.map((n) => `"${n}"`).join(', ')} in this project; add ${one ? 'it' : 'them'} with: assay annotators add ${shellWord(file)} ${missing.map(shellWord).join(' ')}`
    )
  }
  return found as AnnotatorSummary[]
}

/** An error when the annotator has no assignments at all, naming the `assay assign` line that gives them some. */
export function requireAssignments(file: string, annotator: AnnotatorSummary): void {
  if (annotator.assignments === 0) {
    throw new AssayError(
      'not_found',
      `${annotator.name} has no assignments yet; assign items with: assay assign ${shellWord(file)} --instrument <id> --annotators ${shellWord(annotator.name)} --overlap 1`
    )
  }
}
