import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exportData } from '../../../src/main/export'
import { importFile } from '../../../src/main/import'
import { Project } from '../../../src/main/store/project'
import { writeJsonl } from '../../support/pairs'
import { tempDir } from '../../support/tmp'

// A preprint pair's reference answer is its `same_study`, as the report's "Reference label" criterion reads it.
const paper = (title: string) => ({ title, authors: 'A. Author', abstract: `${title}: what was found.` })
const PREPRINTS = [
  { pair_id: 'q1', paper: paper('Ageing in worms'), preprint: paper('Ageing in worms (preprint)'), same_study: true },
  { pair_id: 'q2', paper: paper('Ageing in flies'), preprint: paper('Ageing in flies (preprint)'), same_study: true },
  { pair_id: 'q3', paper: paper('Ageing in mice'), preprint: paper('Sleep in mice'), same_study: false },
  { pair_id: 'q4', paper: paper('Ageing in yeast'), preprint: paper('Ageing in yeast (preprint)') }
]
const answer = (item: string, sameStudy: boolean) => ({
  item,
  instrument: 'preprint-same-study',
  source: 'Dr Ada',
  source_kind: 'human',
  judgement: { same_study: sameStudy, confidence: 0.8, reason: '' }
})

let tmp: ReturnType<typeof tempDir>
let project: Project

beforeEach(async () => {
  tmp = tempDir('assay-export-preprints-')
  project = await Project.create(tmp.file('p.assay'))
  writeJsonl(tmp.file('preprints.jsonl'), PREPRINTS)
  expect((await importFile(project, 'preprints', tmp.file('preprints.jsonl'), { set: 'preprints' })).errors).toEqual([])
  writeJsonl(tmp.file('labels.jsonl'), [answer('q1', true), answer('q2', false), answer('q3', false), answer('q4', true)])
  expect((await importFile(project, 'labels', tmp.file('labels.jsonl'))).errors).toEqual([])
  const db = project.db
  const judge = db.prepare(`INSERT INTO judges (name, provider, model) VALUES ('judge-x', 'openai', 'model-x')`).run().lastInsertRowid
  const run = db
    .prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, status) VALUES ('preprint-same-study', ?, 'preprint-check', 1, '1', 'done')`)
    .run(judge).lastInsertRowid
  const call = db.prepare(
    `INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, judgement, status) VALUES (?, (SELECT id FROM items WHERE external_id = ?), 0, 0, ?, '{}', '{}', ?, 'ok')`
  )
  for (const [item, same] of [['q1', true], ['q3', true], ['q4', false]] as const) call.run(run, item, `h-${item}`, JSON.stringify({ same_study: same, confidence: 0.7, reason: '' }))
})
afterEach(() => {
  project.close()
  tmp.cleanup()
})

const jsonl = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)

describe("a preprint pair's reference label in exports", () => {
  it('is its same_study in every labels row, answers and final labels alike, and in the CSV', () => {
    const out = tmp.file('labels.jsonl')
    const { cardPath } = exportData(project, 'labels', { out, force: true })
    const rows = jsonl(out)
    const labelOf = (item: string, kind: string) => rows.find((r) => r.item === item && (r.source_kind === 'final') === (kind === 'final'))?.canonical_label
    expect(['q1', 'q2', 'q3', 'q4'].map((q) => [labelOf(q, 'answer'), labelOf(q, 'final')])).toEqual([
      [true, true],
      [true, true],
      [false, false],
      [null, null]
    ])
    const card = readFileSync(cardPath, 'utf8')
    expect(card).not.toContain('carry no reference label')
    expect(card).toContain('3 of 4 exported items have a reference label (source: unspecified 3).')
    expect(card).toContain("a preprint pair's `same_study`")
    expect(card).toContain('| true | 2 | 66.7% |')
    expect(card).toContain('| false | 1 | 33.3% |')
    expect(card).toContain('- `same_study`: true 2, false 1. Majority-label baseline (always "true"): 2 of 3 = 66.7%; random: 50%.')

    const csvOut = tmp.file('labels.csv')
    exportData(project, 'labels', { out: csvOut, force: true })
    const csv = Papa.parse<Record<string, string>>(readFileSync(csvOut, 'utf8'), { header: true, skipEmptyLines: true })
    expect(csv.data.map((r) => [r.item, r.source_kind, r.canonical_label])).toEqual([
      ['q1', 'human', 'true'],
      ['q1', 'final', 'true'],
      ['q2', 'human', 'true'],
      ['q2', 'final', 'true'],
      ['q3', 'human', 'false'],
      ['q3', 'final', 'false'],
      ['q4', 'human', ''],
      ['q4', 'final', '']
    ])
  })

  it('is its same_study in every judgements row, and the card says so', () => {
    const out = tmp.file('judgements.jsonl')
    const { cardPath } = exportData(project, 'judgements', { out, force: true })
    expect(jsonl(out).map((r) => [r.item, r.canonical_label])).toEqual([
      ['q1', true],
      ['q3', false],
      ['q4', null]
    ])
    const card = readFileSync(cardPath, 'utf8')
    expect(card).toContain('2 of 3 exported items have a reference label (source: unspecified 2).')
    expect(card).toContain('- `same_study`: true 1, false 1. Majority-label baseline (always "true"): 1 of 2 = 50%; random: 50%.')
  })
})
