import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, verdictFor, type PairSpec } from '../report/fixtures'

// A fit with nothing to be evaluated on used to be stored and shown as a judge of the report with no figures.
const tmp = tempDir('assay-empty-fits-')
const path = tmp.file('empty.assay')
let run: number

beforeAll(async () => {
  const project = await Project.create(path)
  // Only the dev pairs are labelled: the test split has nothing to evaluate a fit on.
  const pairs: PairSpec[] = Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, split: i < 4 ? 'dev' : 'test', ...(i < 4 ? { label: verdictFor(i % 2 ? 'b' : 'a'), labelSource: 'citations' } : {}) }))
  const ids = addPairs(project, pairs)
  run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
  addCalls(project, run, pairs.flatMap((p) => [0, 1].map((order) => ({ item: ids.get(p.id) as number, order, swapped: order === 1, judgement: { verdict: verdictFor('a') } }))))
  project.close()
})
afterAll(() => tmp.cleanup())

const storedFits = async () => {
  const project = await Project.open(path)
  try {
    return (project.db.prepare(`SELECT count(*) AS n FROM calibration_fits`).get() as { n: number }).n
  } finally {
    project.close()
  }
}

describe('a fit with nothing to evaluate', () => {
  it('is refused by assay calibrate with a message, and nothing is stored', async () => {
    const r = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders')
    expect(r.code).not.toBe(0)
    // Named as the form and the tables name them, with the ids the command line takes.
    expect(r.stderr).toMatch(/Nothing to evaluate: no test pair answered by base · run \d+ \(run:\d+\) .* labelled by Reference label \(citations\) \(label:citations\); nothing was stored/)
    expect(await storedFits()).toBe(0)
  })

  it('is refused the same way by the report screen’s Calibrate action (the operation it calls)', async () => {
    const project = await Project.open(path)
    try {
      expect(() => calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', fitSplit: 'dev', evalSplit: 'test' })).toThrow(/Nothing to evaluate/)
    } finally {
      project.close()
    }
    expect(await storedFits()).toBe(0)
  })

  it('names the judge and the label as the form does when there is no numeric score to fit', async () => {
    const r = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'threshold', '--field', 'verdict', '--target', 'winner', '--positive', 'a')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/No dev unit has both a numeric "verdict" from base · run \d+ \(run:\d+\) and a "winner" from Reference label \(citations\) \(label:citations\)/)
    expect(await storedFits()).toBe(0)
  })
})
