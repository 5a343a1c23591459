import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import type { Report } from '../../../src/shared/report'
import { vectors } from '../../unit/stats/vectors'
import { repoRoot, tempDir } from '../../support/tmp'
import { addCalls, addItems, addRun, annotate, demoAfterJudgeRun, syntheticPairsProject } from './fixtures'

// Reports of fixed projects with fixed seeds, compared number for number with reports saved under golden/: any
// change to how a figure or an interval is computed (including the order of a floating-point sum) shows here.
// `ASSAY_WRITE_GOLDEN=1 npx vitest run test/integration/report/golden.test.ts` rewrites the files after a change
// that is meant to move the numbers.

const tmp = tempDir('assay-report-golden-')
afterAll(() => tmp.cleanup())
const goldenDir = join(repoRoot, 'test/integration/report/golden')
const write = process.env.ASSAY_WRITE_GOLDEN === '1'

/** The report without what differs between two builds of the same project: its timestamp and the project's id. */
function withoutTimestamp(report: Report): unknown {
  const { generated_at: _, project, ...rest } = report
  return JSON.parse(JSON.stringify({ ...rest, project: { name: project.name } }))
}

function matchesGolden(name: string, report: Report): void {
  const file = join(goldenDir, `${name}.json`)
  const actual = withoutTimestamp(report)
  if (write) writeFileSync(file, `${JSON.stringify(actual)}\n`)
  expect(existsSync(file), `${file} is missing`).toBe(true)
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')))
}

const cases: Array<{ name: string; build: () => Promise<Report> }> = [
  {
    name: 'demo-after-judge',
    build: async () => {
      const p = await demoAfterJudgeRun(tmp.file('demo.assay'))
      try {
        return projectReport(p.db, { instrument: 'pairwise-preference', seed: 11 })
      } finally {
        p.close()
      }
    }
  },
  {
    name: 'synthetic-pairs',
    build: async () => {
      // The benchmark's project at a small size: three sources, both display orders, failures, four systems.
      const project = await syntheticPairsProject(tmp.file('synthetic.assay'), 240)
      try {
        return projectReport(project.db, { instrument: 'pairwise-preference', seed: 5 })
      } finally {
        project.close()
      }
    }
  },
  {
    name: 'ordinal-cue',
    build: async () => {
      const p = await Project.create(tmp.file('cue.assay'))
      const table = vectors.two_rater_table_abstractors.table
      const cells: Array<[number, number]> = []
      table.forEach((row, i) => row.forEach((count, j) => cells.push(...Array.from({ length: count }, (): [number, number] => [i, j]))))
      const ids = addItems(p, 'research-question', cells.map((_, k) => ({ id: `q${k}`, payload: { question_id: `q${k}`, question: `Question ${k}?` } })))
      const cue = (score: number) => ({ score, input_score: score, alternative_score: score, cue_excerpt: '', rationale: 'r', hidden: 'h' })
      annotate(p, 'cue-rating', cells.map(([human], k) => ({ item: ids.get(`q${k}`) as number, judgement: cue(human) })), { human: 'Rater' })
      annotate(p, 'cue-rating', cells.map(([human], k) => ({ item: ids.get(`q${k}`) as number, judgement: cue(k % 7 === 0 ? 2 - human : human) })), { human: 'Second' })
      const run = addRun(p, { instrument: 'cue-rating', judge: 'cue-a' })
      addCalls(p, run, cells.map(([, judge], k) => ({ item: ids.get(`q${k}`) as number, judgement: cue(judge) })))
      const other = addRun(p, { instrument: 'cue-rating', judge: 'cue-b', trials: 2 })
      addCalls(p, other, cells.flatMap(([human, judge], k) => [0, 1].map((trial) => ({ item: ids.get(`q${k}`) as number, trial, judgement: cue(trial === 0 ? judge : human) }))))
      try {
        return projectReport(p.db, { instrument: 'cue-rating', seed: 3 })
      } finally {
        p.close()
      }
    }
  },
  {
    name: 'rubric-points',
    build: async () => {
      // Fractional points: the mean absolute difference and its interval sum non-integers.
      const p = await Project.create(tmp.file('rubric.assay'))
      const rubric = [{ points: 10, item: 'All of it' }]
      const human = Array.from({ length: 37 }, (_, k) => ((k * 7) % 21) / 2)
      const ids = addItems(p, 'fs-problem', human.map((_, k) => ({ id: `r${k}`, payload: { track: 'research', problem: `P${k}`, answer: 'Points: 10, Item: All of it', rubric, response: 'R' } })))
      annotate(p, 'fs-research-grade', human.map((total, k) => ({ item: ids.get(`r${k}`) as number, judgement: { total } })), { human: 'Grader' })
      for (const [judge, shift] of [['grader-a', 0.3], ['grader-b', -1.1]] as const) {
        const run = addRun(p, { instrument: 'fs-research-grade', judge })
        addCalls(p, run, human.map((total, k) => ({ item: ids.get(`r${k}`) as number, judgement: { total: Math.min(10, Math.max(0, total + shift * ((k % 5) - 2))) } })))
      }
      try {
        return projectReport(p.db, { instrument: 'fs-research-grade', seed: 9 })
      } finally {
        p.close()
      }
    }
  },
  {
    name: 'calibration',
    build: async () => {
      const p = await Project.create(tmp.file('preprints.assay'))
      const n = 41
      const y = Array.from({ length: n }, (_, k) => (k * 5) % 3 === 0)
      const prob = Array.from({ length: n }, (_, k) => ((k * 13) % 17) / 17 + 0.01)
      const ids = addItems(p, 'preprint-pair', y.map((_, k) => ({ id: `pp${k}`, payload: { paper: { title: `Paper ${k}`, abstract: 'A' }, preprint: { title: `Preprint ${k}`, abstract: 'B' } } })))
      annotate(p, 'preprint-same-study', y.map((same, k) => ({ item: ids.get(`pp${k}`) as number, judgement: { same_study: same, confidence: 1, reason: 'DOI' } })), { reference: 'crossref' })
      const run = addRun(p, { instrument: 'preprint-same-study' })
      addCalls(p, run, prob.map((q, k) => ({ item: ids.get(`pp${k}`) as number, judgement: { same_study: q >= 0.5, confidence: q >= 0.5 ? q : 1 - q, reason: 'r' } })))
      try {
        return projectReport(p.db, { instrument: 'preprint-same-study', seed: 21 })
      } finally {
        p.close()
      }
    }
  }
]

describe('reports of fixed projects match the saved golden reports exactly', () => {
  for (const c of cases) {
    it(c.name, async () => matchesGolden(c.name, await c.build()))
  }
})
