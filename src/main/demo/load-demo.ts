import { existsSync } from 'node:fs'
import { AssayError, formatLocation } from '../../shared/errors'
import { importFile, type ImportFormat } from '../import'
import { resourcePath } from '../paths'
import type { Project } from '../store/project'

/** The bundled demo, in the order its files depend on each other (hypothesis sets name their tasks). */
const DEMO_FILES: ReadonlyArray<{ format: ImportFormat; file: string; set: string }> = [
  { format: 'pairs', file: 'pairs.jsonl', set: 'demo-pairs' },
  { format: 'tasks', file: 'tasks.jsonl', set: 'demo-ageing' },
  { format: 'hypotheses', file: 'hypotheses.jsonl', set: 'demo-ageing' },
  { format: 'questions', file: 'research-questions.jsonl', set: 'demo-cues' },
  { format: 'frontierscience', file: 'frontierscience.jsonl', set: 'demo-frontierscience' },
  // Answers of two demonstration experts and of a style-preferring judge, so the audit has something to show at once.
  { format: 'labels', file: 'labels.jsonl', set: 'demo-pairs' }
]

/** Imports the demo project through the same importers users use; returns a one-line summary. */
export async function loadDemo(project: Project): Promise<string> {
  const parts: string[] = []
  for (const { format, file, set } of DEMO_FILES) {
    const path = resourcePath('demo', file)
    if (!existsSync(path)) throw new AssayError('not_found', `The demo file ${path} is missing from this installation`)
    const report = await importFile(project, format, path, { set, split: 'none' })
    if (report.errors.length) {
      throw new AssayError('import_failed', `The demo file ${file} did not import`, report.errors)
    }
    parts.push(`${report.imported} ${format}`)
  }
  return parts.join(', ')
}

export function describeDemoError(e: AssayError): string {
  return [e.message, ...(e.details ?? []).map(formatLocation)].join('\n')
}
