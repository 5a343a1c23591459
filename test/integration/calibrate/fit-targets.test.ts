import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { gatherReportInput, projectReport } from '../../../src/main/report'
import { insertFit } from '../../../src/main/store/calibration-fits'
import { fitCalibration, type FitSpec } from '../../../src/shared/calibrate'
import { appendAnnotation } from '../../../src/main/store/annotations'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { calibrationLines } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { demoWithScoreJudge, preprintPairs } from './fixture'

// What a fit is aimed at, and what its "before" is, said where its figures are.
const tmp = tempDir('assay-fit-targets-')
afterAll(() => tmp.cleanup())

/** Sixteen preprint pairs, half of them the same study, split dev/test; an imported judge's answers on all of them. */
async function preprintProject(path: string): Promise<void> {
  const project = await Project.create(path)
  const ids = project.write((db) => insertItems(db, preprintPairs(16)))
  project.write((db) =>
    ids.forEach((itemId, i) => {
      // Right on three pairs in four, sure of itself when right.
      const same = i % 8 === 7 ? !(i % 4 < 2) : i % 4 < 2
      const judgement = { same_study: same, confidence: i % 8 === 7 ? 0.55 : 0.6 + (i % 3) * 0.15, reason: 'r' }
      appendAnnotation(db, { itemId, instrumentId: 'preprint-same-study', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'imp', judgement, origin: 'import' })
      // A contrary judge: wrong where the other is right, and surer the more wrong.
      const contrary = { same_study: !same, confidence: judgement.confidence, reason: 'r' }
      appendAnnotation(db, { itemId, instrumentId: 'preprint-same-study', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'contrary', judgement: contrary, origin: 'import' })
    })
  )
  project.close()
}

/** The project at `path`, open for `fn`, closed after. */
async function withOpen<T>(path: string, fn: (project: Project) => T): Promise<T> {
  const project = await Project.open(path)
  try {
    return fn(project)
  } finally {
    project.close()
  }
}

/** A new project of the pairs, open for `fn`, closed after. */
async function withPreprints<T>(name: string, fn: (project: Project) => T): Promise<T> {
  const path = tmp.file(name)
  await preprintProject(path)
  return withOpen(path, fn)
}

describe('a fit of a confidence in the judge\'s own answer', () => {
  const path = tmp.file('preprints.assay')
  beforeAll(() => preprintProject(path))

  it('is refused against the answer\'s own field, naming the field that is the probability, and nothing is stored', async () => {
    await withOpen(path, (project) => {
      expect(() => calibrate(project, { instrument: 'preprint-same-study', source: 'model:imp', method: 'platt', scoreField: 'confidence' })).toThrow(
        /"confidence" is the judge's confidence in its own "same_study".*--field p_same_study/
      )
      expect((project.db.prepare(`SELECT count(*) AS n FROM calibration_fits`).get() as { n: number }).n).toBe(0)
    })
    const cli = await runCli('calibrate', path, '--instrument', 'preprint-same-study', '--source', 'model:imp', '--method', 'platt', '--field', 'confidence')
    expect(cli.code).toBe(2)
    expect(cli.stderr).toMatch(/--field p_same_study/)
  })

  it('is not the field picked when none is named: the probability of the event is, and its "before" says what it is', async () => {
    await withOpen(path, (project) => {
      const { fits } = calibrate(project, { instrument: 'preprint-same-study', source: 'model:imp', method: 'platt' })
      expect(fits[0]?.score_field).toBe('p_same_study')
      expect(fits[0]?.warnings).toEqual([])
      const brier = calibrationLines(fits[0]!).find((line) => line.startsWith('Brier'))
      expect(brier).toContain('(before: p_same_study as given (a probability))')
    })
  })
})

describe('an isotonic fit on the preprint check', () => {
  const path = tmp.file('isotonic.assay')
  beforeAll(() => preprintProject(path))

  it('refuses a confidence as a number to bring onto people\'s confidences', async () => {
    await withOpen(path, (project) => {
      expect(() => calibrate(project, { instrument: 'preprint-same-study', source: 'model:imp', method: 'isotonic', scoreField: 'confidence' })).toThrow(
        /confidence in its own "same_study".*cannot be fitted to them; "p_same_study" is the probability of same_study/
      )
    })
  })

  it('fits a probability of the event to the event, scored by Brier as the report scores it, not to people\'s probabilities', async () => {
    await withOpen(path, (project) => {
      const { fits } = calibrate(project, { instrument: 'preprint-same-study', source: 'model:imp', method: 'isotonic', scoreField: 'p_same_study' })
      expect(fits[0]?.target_field).toBe('same_study')
      expect(fits[0]?.probability?.before.brier).toBeTypeOf('number')
      expect(fits[0]?.scale).toBeUndefined()
    })
  })
})

describe('a Platt fit with a negative slope', () => {
  it('warns that it turns the judge\'s scores around', () =>
    withPreprints('contrary.assay', (project) => {
      const { fits } = calibrate(project, { instrument: 'preprint-same-study', source: 'model:contrary', method: 'platt' })
      const a = (fits[0]?.parameters as { a: number }).a
      expect(a).toBeLessThan(0)
      expect(fits[0]?.warnings).toContainEqual(expect.stringMatching(/slope is negative .* turns the judge's scores around/))
      // The report's warnings, read beside the fit's card, say so too.
      const warnings = projectReport(project.db, { instrument: 'preprint-same-study', seed: 3 }).warnings
      expect(warnings).toContainEqual(expect.objectContaining({ code: 'fit_warning', source: fits[0]!.source, message: expect.stringMatching(/slope is negative/) }))
      const right = calibrate(project, { instrument: 'preprint-same-study', source: 'model:imp', method: 'platt' })
      expect(right.fits[0]?.warnings.some((w) => w.includes('slope is negative'))).toBe(false)
    }))
})

describe('a stored fit of a confidence to its answer\'s field (made before such fits were refused)', () => {
  it('keeps its figures in the report with a warning that they are not the field table\'s', () =>
    withPreprints('stored.assay', (project) => {
      const input = gatherReportInput(project.db, { instrument: 'preprint-same-study' })
      const spec: FitSpec = { method: 'platt', instrument: 'preprint-same-study', source: 'model:imp', criterion: 'label', score_field: 'confidence', target: { field: 'same_study', positive: null }, fit_split: 'dev', eval_split: 'test' }
      const result = fitCalibration(input, spec)
      project.write((db) => insertFit(db, spec, result.parameters, result.fitItems, result.nFitUnits))
      const row = projectReport(project.db, { instrument: 'preprint-same-study', seed: 3 }).calibration?.[0]
      expect(row?.probability).toBeDefined()
      expect(row?.warnings).toContainEqual(expect.stringMatching(/confidence in its own "same_study".*not those of the field table/))
    }))
})

describe('a fit aimed at an event of a scale (score >= k)', () => {
  const path = tmp.file('scores.assay')
  beforeAll(() => demoWithScoreJudge(path, tmp.file('labels.jsonl')))

  it('is scored as whether the event holds, before and after, rather than left without a figure', async () => {
    await withOpen(path, (project) => {
      const { fits } = calibrate(project, { instrument: 'hypothesis-match', source: 'score-judge', method: 'threshold', scoreField: 'match', targetField: 'match', positive: '>=3' })
      const row = fits[0]!
      expect(row.reasons.eval).toBeUndefined()
      expect(row.decision?.n).toBe(row.n_eval_units)
      expect(row.decision?.before).toMatch(/has match >= 3/)
      // The judge says one more than the expert: it is wrong on the event exactly where the expert says 2.
      const units = row.decision!
      expect(units.both_correct + units.only_before + units.only_after + units.both_wrong).toBe(units.n)
      expect(calibrationLines(row)[0]).toMatch(/^accuracy .* on \d+ units \(before: whether the raw judge's own "match" has match >= 3/)
    })
    expect((await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'threshold', '--field', 'match', '--target', 'match', '--positive', '>=3')).stdout).toMatch(/aimed at match >= 3 of/)
  })
})
