import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { calibrate } from '../../../src/main/calibrate/service'
import { Project } from '../../../src/main/store/project'
import type { Report } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'
import { demoWithScoreJudge } from '../calibrate/fixture'
import { syntheticPairsProject } from './fixtures'

// Reports of fixed projects with stored recalibrations, compared number for number with saved reports, as in
// golden.test.ts: every figure of the calibration section (and of the fits as sources) is held as well.
// `ASSAY_WRITE_GOLDEN=1 npx vitest run test/integration/report/golden-fits.test.ts` rewrites them.
const tmp = tempDir('assay-report-golden-fits-')
afterAll(() => tmp.cleanup())
const goldenDir = join(repoRoot, 'test/integration/report/golden')
const write = process.env.ASSAY_WRITE_GOLDEN === '1'

/** The report without what differs between two builds: its timestamp, the project's id and when each fit was made. */
function stable(report: Report): unknown {
  const { generated_at: _, project, ...rest } = report
  const calibration = rest.calibration?.map((row) => ({ ...row, fitted_at: 'fixed' }))
  const sources = rest.sources.map((s) => (s.kind === 'calibrated' && 'fitted_at' in s.detail ? { ...s, detail: { ...s.detail, fitted_at: 'fixed' } } : s))
  return JSON.parse(JSON.stringify({ ...rest, sources, ...(calibration ? { calibration } : {}), project: { name: project.name } }))
}

function matchesGolden(name: string, report: Report): void {
  expect(report.calibration?.length).toBeGreaterThan(0)
  const file = join(goldenDir, `${name}.json`)
  const actual = stable(report)
  if (write) writeFileSync(file, `${JSON.stringify(actual)}\n`)
  expect(existsSync(file), `${file} is missing`).toBe(true)
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')))
}

describe('reports with stored recalibrations match the saved golden reports exactly', () => {
  it('threshold, Platt and isotonic fits of a score judge', async () => {
    const path = tmp.file('scores.assay')
    await demoWithScoreJudge(path, tmp.file('labels.jsonl'))
    for (const method of ['threshold', 'platt', 'isotonic']) {
      expect((await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', method)).code).toBe(0)
    }
    const project = await Project.open(path)
    try {
      matchesGolden('fits-scores', projectReport(project.db, { instrument: 'hypothesis-match', seed: 3 }))
    } finally {
      project.close()
    }
  }, 120_000)

  it('both-orders fits of a pairwise run', async () => {
    const project = await syntheticPairsProject(tmp.file('pairs.assay'), 240)
    try {
      calibrate(project, { instrument: 'pairwise-preference', source: 'run:1', method: 'both-orders' })
      matchesGolden('fits-both-orders', projectReport(project.db, { instrument: 'pairwise-preference', seed: 3 }))
    } finally {
      project.close()
    }
  }, 120_000)
})
