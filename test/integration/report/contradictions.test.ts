import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/audit'
import { insertFit } from '../../../src/main/calibrate/fits-store'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, verdictFor, type PairSpec } from './fixtures'

// Reports in which two places once gave one figure two values, or a figure was plainly wrong.
const tmp = tempDir('assay-contradictions-')
afterAll(() => tmp.cleanup())

const side = (i: number): 'a' | 'b' => (i % 2 ? 'b' : 'a')

/** Labelled pairs, half dev and half test, and an original run answering every pair in one order. */
function pairsWithRun(project: Project, n: number): { ids: Map<string, number>; pairs: PairSpec[]; run: number } {
  const pairs: PairSpec[] = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < n / 2 ? 'dev' : 'test' }))
  const ids = addPairs(project, pairs)
  const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
  addCalls(project, run, pairs.map((p, i) => ({ item: ids.get(p.id) as number, judgement: { verdict: verdictFor(i % 3 === 0 ? side(i + 1) : side(i)) } })))
  return { ids, pairs, run }
}

describe('a few-shot fit whose run never answered', () => {
  it('counts the unanswered eval units as missing, never as wrong, and gives no McNemar p', async () => {
    const project = await Project.create(tmp.file('few-shot-pending.assay'))
    const { ids, pairs, run } = pairsWithRun(project, 20)
    const fewShot = addRun(project, { instrument: 'pairwise-preference', judge: 'base' })
    const testPairs = pairs.filter((p) => p.split === 'test')
    // Eight calls still pending after a stop, two failed: the endpoint never answered.
    addCalls(project, fewShot, testPairs.map((p, k) => ({ item: ids.get(p.id) as number, status: k < 8 ? 'pending' : 'failed' })))
    const devItems = pairs.filter((p) => p.split === 'dev').slice(0, 2).map((p) => ids.get(p.id) as number)
    project.write(() =>
      insertFit(
        project.db,
        { method: 'few-shot', instrument: 'pairwise-preference', source: `run:${run}`, criterion: 'label:citations', score_field: 'verdict', target: { field: 'winner', positive: null }, fit_split: 'dev', eval_split: 'test' },
        { kind: 'few-shot', template: 'pairwise-ranker-fewshot@1', base_template: 'pairwise-ranker@1', k: 2, seed: 's', examples: [{ item: 'p0', label: 'a' }, { item: 'p1', label: 'b' }], run_id: fewShot },
        devItems,
        2
      )
    )
    const report = projectReport(project.db, { instrument: 'pairwise-preference', seed: 3 })
    project.close()
    const [row] = report.calibration ?? []
    expect(row?.n_eval_units).toBe(10)
    expect(row?.decision?.after_accuracy).toBeNull()
    expect(row?.decision?.mcnemar_p).toBeNull()
    expect(row?.decision?.n).toBe(0)
    expect(row?.n_unanswered_eval_units).toBe(10)
    expect(row?.warnings.join(' ')).toMatch(/10 of 10 eval unit\(s\) have no answer .* not counted wrong/)
  })
})
