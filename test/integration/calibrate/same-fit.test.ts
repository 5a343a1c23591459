import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import { projectReport } from '../../../src/main/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, verdictFor, type PairSpec } from '../report/fixtures'

// The report screen's Calibrate action asked for a both-orders fit without a threshold metric, where the command
// line always sent its default: the two specs differed in text, so the screen stored a second copy of each fit.
const tmp = tempDir('assay-same-fit-')
const path = tmp.file('same.assay')
let run: number

beforeAll(async () => {
  const project = await Project.create(path)
  const pairs: PairSpec[] = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, split: i < 6 ? 'dev' : 'test', label: verdictFor(i % 2 ? 'b' : 'a'), labelSource: 'citations' }))
  const ids = addPairs(project, pairs)
  run = addRun(project, { instrument: 'pairwise-preference', judge: 'base', bothOrders: true })
  addCalls(project, run, pairs.flatMap((p, i) => [0, 1].map((order) => ({ item: ids.get(p.id) as number, order, swapped: order === 1, judgement: { verdict: verdictFor(i % 3 ? 'a' : 'b') } }))))
  project.close()
})
afterAll(() => tmp.cleanup())

const storedSpecs = async (): Promise<Array<Record<string, unknown>>> => {
  const project = await Project.open(path)
  try {
    return (project.db.prepare(`SELECT spec FROM calibration_fits ORDER BY id`).all() as Array<{ spec: string }>).map((r) => JSON.parse(r.spec) as Record<string, unknown>)
  } finally {
    project.close()
  }
}

describe('the same fit asked for from the screen and from the command line', () => {
  it('is stored once: a both-orders spec carries no threshold metric, however it was asked for', async () => {
    const cli = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', `run:${run}`, '--method', 'both-orders')
    expect(cli.code, cli.stderr).toBe(0)
    const afterCli = await storedSpecs()
    expect(afterCli).toHaveLength(2)
    for (const spec of afterCli) expect(spec).not.toHaveProperty('metric')
    // What the screen's form sends (the `report.calibrate` operation): no metric.
    const project = await Project.open(path)
    try {
      const screen = calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', fitSplit: 'dev', evalSplit: 'test' })
      expect(screen.already_stored).toEqual(screen.fits.map((f) => f.fit_id))
      expect(screen.already_stored).toHaveLength(2)
    } finally {
      project.close()
    }
    expect(await storedSpecs()).toHaveLength(2)
  })

  it('matches a fit stored by earlier versions, whose spec carried the metric for every method', async () => {
    const project = await Project.open(path)
    try {
      // As the command line stored it before: the threshold's default metric in a both-orders spec.
      project.write((db) => db.prepare(`UPDATE calibration_fits SET spec = json_set(spec, '$.metric', 'balanced_accuracy')`).run())
      const again = calibrate(project, { instrument: 'pairwise-preference', source: `run:${run}`, method: 'both-orders', metric: 'balanced_accuracy', fitSplit: 'dev', evalSplit: 'test' })
      expect(again.already_stored).toHaveLength(2)
    } finally {
      project.close()
    }
    expect(await storedSpecs()).toHaveLength(2)
  })
})

describe('the source filter with fits in the project', () => {
  it('takes a fit by its id, keeps the judge it is made from as read but not chosen, and drops fits not chosen', async () => {
    // The screen's Judges list sends every ticked judge, fits among them: unticking the raw judge used to empty the report.
    const project = await Project.open(path)
    try {
      const fits = (project.db.prepare(`SELECT id FROM calibration_fits ORDER BY id`).all() as Array<{ id: number }>).map((r) => r.id)
      const report = projectReport(project.db, { instrument: 'pairwise-preference', sources: [`fit:${fits[0]}`] })
      const listed = new Map(report.sources.map((s) => [s.id, s]))
      expect(listed.get(`fit:${fits[0]}`)?.left_out).toBeUndefined()
      expect(listed.has(`fit:${fits[1]}`)).toBe(false)
      expect(listed.get(`run:${run}`)?.left_out).toEqual({ status: 'not_chosen', reason: `not among the judges chosen; read only as the raw judge of fit ${fits[0]}` })
      // Compared with nothing, and no card; the chosen fit keeps its card and its recalibration row.
      expect([...new Set(report.summary.map((c) => c.source))]).toEqual([`fit:${fits[0]}`])
      expect(report.pairwise?.rows.some((r) => r.source === `run:${run}`)).toBe(false)
      expect(report.calibration?.map((c) => c.fit_id)).toEqual([fits[0]])
      expect(report.warnings.some((w) => w.code === 'left_out_source')).toBe(false)
      // A typo is still an error, naming the fits among the judges.
      expect(() => projectReport(project.db, { instrument: 'pairwise-preference', sources: ['fit:99'] })).toThrow(/No judge source "fit:99" in this report; judges: run:\d+, fit:\d+, fit:\d+/)
    } finally {
      project.close()
    }
  })
})
