import { afterAll, describe, expect, it } from 'vitest'
import { computeReportInWorker, projectReport } from '../../../src/main/report'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, verdictFor, type PairSpec } from './fixtures'

// One assembler: the source flags and the recalibration sections are made inside buildReport with every other
// section, so the report computed in the worker thread is the report computed on the calling thread, and the summary
// and warnings read the flagged sources and the fits.
const tmp = tempDir('assay-one-assembler-')
afterAll(() => tmp.cleanup())

const side = (i: number): 'a' | 'b' => (i % 2 ? 'b' : 'a')

describe('a project with fits and flagged sources', () => {
  it('gives the same report from the worker thread as from the calling thread', async () => {
    const path = tmp.file('fits.assay')
    const project = await Project.create(path)
    const pairs: PairSpec[] = Array.from({ length: 16 }, (_, i) => ({ id: `p${i}`, label: verdictFor(side(i)), labelSource: 'citations', split: i < 8 ? 'dev' : 'test' }))
    const ids = addPairs(project, pairs)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
    addCalls(project, run, pairs.flatMap((p, i) => {
      const item = ids.get(p.id) as number
      return [
        { item, order: 0, swapped: false, judgement: { verdict: verdictFor(i % 3 === 0 ? 'a' : side(i)) } },
        { item, order: 1, swapped: true, judgement: { verdict: verdictFor(i % 4 === 0 ? 'b' : side(i)) } }
      ]
    }))
    calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', rule: 'conservative' })
    const generatedAt = '2026-01-01T00:00:00.000Z'
    const here = projectReport(project.db, { instrument: 'pairwise-preference', generatedAt, seed: 4 })
    project.close()
    const there = await computeReportInWorker({ path, instrument: 'pairwise-preference', report: { generatedAt, seed: 4 } })
    expect(there).toEqual(here)

    // The fit is a section and a source of its own, flagged like any other, with its card and its warning.
    expect(here.calibration?.length).toBe(1)
    const fitSource = here.sources.find((s) => s.kind === 'calibrated')
    expect(fitSource).toMatchObject({ too_few_items: true })
    expect(here.sources.find((s) => s.id === `run:${run}`)).toMatchObject({ too_few_items: true })
    expect(here.summary.some((c) => c.source === fitSource?.id)).toBe(true)
    expect(here.warnings.some((w) => w.code === 'too_few_items' && w.source === fitSource?.id)).toBe(true)
  }, 120_000)
})
