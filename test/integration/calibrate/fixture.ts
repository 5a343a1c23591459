import { writeFileSync } from 'node:fs'
import { expect } from 'vitest'
import { Project } from '../../../src/main/store/project'
import type { NewItem } from '../../../src/main/store/items'
import { runCli } from '../../support/cli'

/** The demo's hypothesis sets and the ids of their hypotheses, in file order. */
export const SETS: Record<string, string[]> = {
  'demo-task-01.model-x.single': ['C1', 'C2', 'C3', 'C4', 'C5'],
  'demo-task-01.model-y.multi-stage': ['C4', 'C11', 'C2', 'C9', 'C14'],
  'demo-task-02.model-x.omega-point': ['C3', 'C12', 'C7', 'C1', 'C16'],
  'demo-task-02.model-y.single': ['C1', 'C2', 'C3', 'C4', 'C5'],
  'demo-task-03.model-x.multi-stage': ['C2', 'C8', 'C5', 'C13', 'C10'],
  'demo-task-03.model-y.omega-point': ['C6', 'C1', 'C14', 'C9', 'C3']
}
/** The expert's match per position in each set; the judge says one more, capped at 5 (an inflating judge). */
export const EXPERT = [[5, 4, 2, 1, 0], [4, 1, 3, 0, 2], [3, 0, 1, 4, 2], [2, 5, 0, 3, 1], [1, 3, 4, 2, 0], [0, 2, 5, 1, 3]]
export const judgeOf = (m: number) => Math.min(5, m + 1)

/**
 * The demo with its hypothesis sets split dev/test, an expert's match scores on every set but one dev set, and a score
 * judge's on all six (imported as answers made elsewhere). Returns the set the expert left unlabelled.
 */
export async function demoWithScoreJudge(path: string, labelsFile: string): Promise<string> {
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  expect((await runCli('split', path, '--test', '0.5', '--kind', 'hypothesis-set', '--seed', 'calibrate')).code).toBe(0)
  const project = await Project.open(path)
  const splitOf = new Map((project.db.prepare(`SELECT external_id, split FROM items WHERE kind = 'hypothesis-set'`).all() as Array<{ external_id: string; split: string }>).map((r) => [r.external_id, r.split]))
  project.close()
  const unlabelledSet = Object.keys(SETS).find((s) => splitOf.get(s) === 'dev') as string
  const rows: string[] = []
  Object.entries(SETS).forEach(([set, ids], k) => {
    const scores = (f: (m: number) => number) => ids.map((id, i) => ({ id, match: f(EXPERT[k]![i]!), compatible: EXPERT[k]![i]! >= 2, plausibility: 3, reason: 'r' }))
    if (set !== unlabelledSet) rows.push(JSON.stringify({ item: set, instrument: 'hypothesis-match', source: 'Expert H', source_kind: 'human', judgement: { scores: scores((m) => m) } }))
    rows.push(JSON.stringify({ item: set, instrument: 'hypothesis-match', source: 'score-judge', source_kind: 'model', judgement: { scores: scores(judgeOf) } }))
  })
  writeFileSync(labelsFile, `${rows.join('\n')}\n`)
  expect((await runCli('import', path, 'labels', labelsFile)).code).toBe(0)
  return unlabelledSet
}

/** `n` preprint pairs, even ones on dev and odd ones on test, the first two of every four the same study. */
export function preprintPairs(n: number): NewItem[] {
  const paper = (id: string) => ({ id, title: `Title ${id}`, abstract: `Abstract ${id}.` })
  return Array.from({ length: n }, (_, i) => ({
    kind: 'preprint-pair',
    externalId: `pp-${i}`,
    set: 'preprints',
    split: i % 2 === 0 ? 'dev' : 'test',
    payload: { paper: paper(`paper-${i}`), preprint: paper(`pre-${i}`), same_study: i % 4 < 2 }
  }))
}
