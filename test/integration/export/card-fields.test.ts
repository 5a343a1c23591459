import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportData } from '../../../src/main/export'
import { importFile } from '../../../src/main/import'
import { Project } from '../../../src/main/store/project'
import { writeJsonl } from '../../support/pairs'
import { tempDir } from '../../support/tmp'

// The labels card's answers by field count each population apart: an imported model's answers are not pooled with
// people's, so the balance a reader takes for the human labels is theirs alone.
const tmp = tempDir('assay-export-card-fields-')
let card = ''

beforeAll(async () => {
  const project = await Project.create(tmp.file('p.assay'))
  try {
    const paper = (title: string) => ({ title, authors: 'A. Author', abstract: `${title}: what was found.` })
    writeJsonl(tmp.file('preprints.jsonl'), ['q1', 'q2', 'q3', 'q4'].map((id, i) => ({ pair_id: id, paper: paper(`Paper ${i}`), preprint: paper(`Preprint ${i}`), same_study: i < 2 })))
    expect((await importFile(project, 'preprints', tmp.file('preprints.jsonl'), { set: 'preprints' })).errors).toEqual([])
    const answer = (item: string, source: string, kind: string, same: boolean) => ({ item, instrument: 'preprint-same-study', source, source_kind: kind, judgement: { same_study: same, confidence: 0.8, reason: '' } })
    writeJsonl(tmp.file('labels.jsonl'), [
      answer('q1', 'Dr Ada', 'human', true),
      answer('q2', 'Dr Ada', 'human', false),
      answer('q3', 'Dr Ada', 'human', false),
      ...['q1', 'q2', 'q3', 'q4'].map((q) => answer(q, 'imp', 'model', true))
    ])
    expect((await importFile(project, 'labels', tmp.file('labels.jsonl'))).errors).toEqual([])
    card = readFileSync(exportData(project, 'labels', { out: tmp.file('out.jsonl'), force: true }).cardPath, 'utf8')
  } finally {
    project.close()
  }
})
afterAll(() => tmp.cleanup())

describe('the labels card\'s answers by field', () => {
  it('counts people\'s answers and a model\'s apart', () => {
    expect(card).toContain('- Same study (nominal), by people (3 observations): false: 2, true: 1. Majority share 66.7%.')
    expect(card).toContain('- Same study (nominal), by models (4 observations): false: 0, true: 4. Majority share 100%.')
    expect(card).not.toMatch(/Same study \(nominal, 7 observations\)/)
  })
})
