import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { importFile } from '../../src/main/import'
import type { Project } from '../../src/main/store/project'

/** Writes `rows` as JSON lines, the way import files come. */
export function writeJsonl(path: string, rows: ReadonlyArray<unknown>): void {
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'))
}

/** One side of a proposal pair: a one-line proposal by `origin`. */
export const side = (origin: string) => ({ markdown: `A ${origin} proposal.`, origin })

/** Imports two labelled pairs, p1 (the human proposal first and better) and p2 (the human proposal second and better). */
export function importLabelledPairs(project: Project, dir: string, options: Parameters<typeof importFile>[3] = {}): ReturnType<typeof importFile> {
  const path = join(dir, 'pairs.jsonl')
  writeJsonl(path, [
    { pair_id: 'p1', a: side('human'), b: side('ai'), label: 'a_better' },
    { pair_id: 'p2', a: side('ai'), b: side('human'), label: 'b_better' }
  ])
  return importFile(project, 'pairs', path, options)
}
