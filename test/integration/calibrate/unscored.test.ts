import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { projectReport } from '../../../src/main/report'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { evaluatedOn } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addRun } from '../report/fixtures'
import { preprintPairs } from './fixture'

// A Platt fit maps the judge's probability, so a pair the judge answered unreadably has nothing to map: the fit's
// section compared 16 units while the judge's card, counting the unreadable answers as wrong, read 18. Neither said so.
const tmp = tempDir('assay-unscored-')
const path = tmp.file('unscored.assay')
let run: number

beforeAll(async () => {
  const project = await Project.create(path)
  const ids = project.write((db) => insertItems(db, preprintPairs(20)))
  run = addRun(project, { instrument: 'preprint-same-study', judge: 'base' })
  addCalls(
    project,
    run,
    ids.map((item, i) => {
      const same = i % 5 === 4 ? !(i % 4 < 2) : i % 4 < 2
      // Two test pairs (1 and 3) answered unreadably, one (5) failed.
      if (i === 1 || i === 3) return { item, status: 'unparseable' as const }
      if (i === 5) return { item, status: 'failed' as const }
      return { item, judgement: { same_study: same, confidence: 0.7, p_same_study: same ? 0.6 + (i % 3) * 0.1 : 0.4 - (i % 3) * 0.1, reason: 'r' } }
    })
  )
  project.close()
})
afterAll(() => tmp.cleanup())

describe('a score-based fit whose raw judge left eval units without a score', () => {
  it('says how many it left out and why, beside the units it compared', async () => {
    const project = await Project.open(path)
    try {
      const [fit] = calibrate(project, { instrument: 'preprint-same-study', source: `run:${run}`, method: 'platt', scoreField: 'p_same_study', fitSplit: 'dev', evalSplit: 'test' }).fits
      expect(fit?.n_eval_units).toBe(7)
      expect(fit?.n_unscored_eval_units).toBe(3)
      expect(fit?.unscored_by_status).toEqual({ unparseable: 2, failed: 1 })
      expect(evaluatedOn(fit!)).toBe(
        'test: 7 items, 7 units; 3 more without a score from the raw judge (2 unparseable, 1 failed), left out of before and after (the field tables count an unreadable answer as wrong)'
      )
      // The field table, as the judge's card cites it, counts the unreadable answers as judged (and wrong), not the
      // failed call: 9 judged on test, where the fit compares 7.
      const report = projectReport(project.db, { instrument: 'preprint-same-study', split: 'test' })
      const row = report.fields.find((f) => f.name === 'same_study')!.comparisons.find((c) => c.source === `run:${run}` && c.criterion === 'label')!
      expect(row.n_unparseable).toBe(2)
      expect(row.n_judged).toBe(fit!.n_eval_units + fit!.unscored_by_status!.unparseable!)
    } finally {
      project.close()
    }
  })
})
