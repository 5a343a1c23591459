import { afterAll, describe, expect, it } from 'vitest'
import { gatherReportInput } from '../../../src/main/report'
import { calibrate } from '../../../src/main/calibrate/service'
import { buildReport } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { demoAfterJudgeRun, syntheticPairsProject } from './fixtures'

// The report reads the answers from the columns made at gathering; an input built by hand gets its columns from the
// report itself. Both routes give the same report, fits included.

const tmp = tempDir('assay-report-frame-')
afterAll(() => tmp.cleanup())

describe('the audit frame', () => {
  it('is made at gathering, and a report from it equals the report of the same input without it', async () => {
    const project = await syntheticPairsProject(tmp.file('synthetic.assay'), 120)
    try {
      calibrate(project, { instrument: 'pairwise-preference', source: 'run:1', method: 'both-orders', rule: 'conservative' })
      const gathered = gatherReportInput(project.db, { instrument: 'pairwise-preference' })
      expect(gathered.frame?.columnsOf(gathered.sources[0]!).length).toBe(gathered.sources[0]!.calls.length)
      const { frame: _, ...byHand } = gathered
      const fromFrame = buildReport(gathered, { generatedAt: 'fixed', seed: 3 })
      expect(fromFrame.calibration?.length ?? 0).toBeGreaterThan(0)
      expect(fromFrame).toEqual(buildReport(byHand, { generatedAt: 'fixed', seed: 3 }))
    } finally {
      project.close()
    }
  })

  it('gives the demo the same report by either route', async () => {
    const project = await demoAfterJudgeRun(tmp.file('demo.assay'))
    try {
      const gathered = gatherReportInput(project.db, { instrument: 'pairwise-preference' })
      const { frame: _, ...byHand } = gathered
      expect(buildReport(gathered, { generatedAt: 'fixed' })).toEqual(buildReport(byHand, { generatedAt: 'fixed' }))
    } finally {
      project.close()
    }
  })
})
