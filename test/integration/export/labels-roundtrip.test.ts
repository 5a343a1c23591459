import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exportData } from '../../../src/main/export'
import { importFile } from '../../../src/main/import'
import { logExposure } from '../../../src/main/store/exposures'
import { Project } from '../../../src/main/store/project'

const side = (origin: string) => ({ markdown: `A ${origin} proposal.`, origin })
const PAIRS = [
  { pair_id: 'p1', a: side('human'), b: side('ai'), label: 'human_better' },
  { pair_id: 'p2', a: side('ai'), b: side('human'), label: 'human_much_better' },
  { pair_id: 'p3', a: side('ai'), b: side('human'), label: 'ai_better' },
  { pair_id: 'p4', a: side('human'), b: side('ai') }
]
const TASK = { task_id: 'T1', background: 'Known context.', question: 'Why?', finding: 'F.' }
const SET = { set_id: 'S1', task_id: 'T1', hypotheses: [{ id: 'H1', statement: 'x' }, { id: 'H2', statement: 'y' }] }
const forecast = (id: string, p: number | null, recommend: boolean) => ({
  id,
  p_experimental_support: p,
  recommend_for_testing: recommend,
  support_from_background: [],
  assumptions: ['one, with a comma'],
  contradictions: [],
  reason: '0.5',
  test: { intervention: 'knock-out', measurement: 'lifespan', controls: 'wild type', supports_if: 'longer', refutes_if: '' }
})
const LABELS = [
  { item: 'p1', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'a_better' } },
  { item: 'p1', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'a_much_better', comment: 'revised: "clearer", 2nd look' } },
  { item: 'p2', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'abstain', abstain_reason: 'true' } },
  { item: 'p3', instrument: 'pairwise-preference', source: 'Prof Bo', source_kind: 'human', judgement: { verdict: 'b_better' }, active_ms: 5400 },
  { item: 'p3', instrument: 'pairwise-preference', source: 'judge-x', source_kind: 'model', judgement: { verdict: 'a_better' } },
  { item: 'S1', instrument: 'hypothesis-match', source: 'Prof Bo', source_kind: 'human', judgement: { scores: [
    { id: 'H1', match: 3, compatible: true, plausibility: 4, reason: '' },
    { id: 'H2', match: 0, compatible: false, plausibility: 1, reason: 'unrelated' }
  ] } },
  { item: 'S1', instrument: 'forecast-detailed', source: 'judge-x', source_kind: 'model', judgement: { protocol: 'experimental-support-v1', forecasts: [forecast('H1', 0.7, true), forecast('H2', null, false)] } }
]

interface Answer {
  key: string
  judgement: unknown
  version: number
  created_at: string
  active_ms: number | null
  source_kind: string
}

function currentAnswers(project: Project): Answer[] {
  const rows = project.db
    .prepare(
      `SELECT i.external_id, a.instrument_id, a.source_name, a.source_kind, a.judgement, a.instrument_version, a.created_at, a.active_ms
       FROM annotations a JOIN items i ON i.id = a.item_id
       WHERE NOT EXISTS (SELECT 1 FROM annotations b WHERE b.supersedes = a.id)
       ORDER BY i.external_id, a.instrument_id, a.source_name`
    )
    .all() as Record<string, any>[]
  return rows.map((r) => ({
    key: `${r.external_id}|${r.instrument_id}|${r.source_name}`,
    judgement: JSON.parse(r.judgement),
    version: r.instrument_version,
    created_at: r.created_at,
    active_ms: r.active_ms,
    source_kind: r.source_kind
  }))
}

describe('labels export', () => {
  let dir: string
  let source: Project

  async function projectWithItems(name: string): Promise<Project> {
    const p = await Project.create(join(dir, `${name}.assay`))
    const write = (file: string, rows: unknown[]) => {
      const path = join(dir, file)
      writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'))
      return path
    }
    expect((await importFile(p, 'pairs', write('pairs.jsonl', PAIRS.slice(0, 2)), { set: 'ideaeval', split: 'test' })).errors).toEqual([])
    expect((await importFile(p, 'pairs', write('pairs-dev.jsonl', PAIRS.slice(2)), { set: 'ideaeval', split: 'dev' })).errors).toEqual([])
    await importFile(p, 'tasks', write('tasks.jsonl', [TASK]), { set: 'ageing' })
    await importFile(p, 'hypotheses', write('sets.jsonl', [SET]), { set: 'ageing' })
    return p
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assay-export-'))
    source = await projectWithItems('source')
    const labels = join(dir, 'labels.jsonl')
    writeFileSync(labels, LABELS.map((r) => JSON.stringify(r)).join('\n'))
    const r = await importFile(source, 'labels', labels)
    expect(r.errors).toEqual([])
    expect(r.labels).toBe(7)
  })
  afterEach(() => {
    source.close()
    rmSync(dir, { recursive: true, force: true })
  })

  for (const format of ['jsonl', 'csv'] as const) {
    it(`round-trips through ${format}: importing the export into a new project gives the same answers`, async () => {
      const out = join(dir, `labels-out.${format}`)
      const result = exportData(source, 'labels', { out })
      // Final labels: p1, p2 and p3 (pairwise-preference) and S1 (hypothesis-match) have human answers.
      expect(result).toMatchObject({ format, rows: 6, finals: 4, items: 4 })
      const target = await projectWithItems(`target-${format}`)
      try {
        const back = await importFile(target, 'labels', out)
        expect(back.errors).toEqual([])
        expect(back.labels).toBe(6)
        // Each majority is recomputed from the imported answers and found the same.
        expect(back.summary).toMatchObject({ majoritiesChecked: 4, majoritiesDiffering: 0, adjudications: 0 })
        expect(back.warnings).toEqual([])
        expect(currentAnswers(target)).toEqual(currentAnswers(source))
      } finally {
        target.close()
      }
    })
  }

  it('writes only the latest revision, with provenance', () => {
    const out = join(dir, 'export.jsonl')
    exportData(source, 'labels', { out })
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const p1 = rows.filter((r) => r.item === 'p1' && r.source_kind !== 'final')
    expect(p1).toHaveLength(1)
    expect(p1[0]).toMatchObject({
      item_kind: 'proposal-pair',
      set: 'ideaeval',
      split: 'test',
      instrument_version: 1,
      source: 'Dr Ada',
      source_kind: 'human',
      revision: 2,
      origin: 'import',
      canonical_label: 'a_better',
      judgement: { verdict: 'a_much_better' }
    })
    expect(rows.find((r) => r.item === 'p3' && r.source === 'Prof Bo').active_ms).toBe(5400)
    // One human answer is its own majority; the model's answer on p3 takes no part.
    const finals = rows.filter((r) => r.source_kind === 'final')
    expect(finals.map((r) => [r.item, r.instrument, r.majority, r.judgement?.verdict ?? null, r.n_answers, r.n_agreeing])).toEqual([
      ['p1', 'pairwise-preference', 'decided', 'a_much_better', 1, 1],
      ['p2', 'pairwise-preference', 'all_abstained', null, 1, null],
      ['p3', 'pairwise-preference', 'decided', 'b_better', 1, 1],
      ['S1', 'hypothesis-match', 'decided', null, 1, 1]
    ])
    // Other instruments: the most frequent value of each nominal or ordinal field, per unit.
    expect(finals[3].majority_values).toEqual({
      'S1:H1': { match: 3, matched: true, compatible: true, plausibility: 4 },
      'S1:H2': { match: 0, matched: false, compatible: false, plausibility: 1 }
    })
    expect(rows.findIndex((r) => r.item === 'p1' && r.source_kind === 'final')).toBe(rows.findIndex((r) => r.item === 'p1') + 1)
  })

  it('pseudonymises annotators in the file and the card', () => {
    const out = join(dir, 'labels.csv')
    const result = exportData(source, 'labels', { out, pseudonymise: true })
    const text = readFileSync(out, 'utf8') + readFileSync(result.cardPath, 'utf8')
    expect(text).not.toContain('Dr Ada')
    expect(text).not.toContain('Prof Bo')
    expect(text).toContain(',A01,human,')
    expect(text).toContain('judge-x')
  })

  it('filters by split and set', () => {
    const out = join(dir, 'test.jsonl')
    expect(exportData(source, 'labels', { out, split: 'test' })).toMatchObject({ rows: 2, items: 2 })
    expect(exportData(source, 'labels', { out, set: 'ageing', force: true })).toMatchObject({ rows: 2, items: 1 })
    expect(exportData(source, 'labels', { out, instrument: 'hypothesis-match', force: true })).toMatchObject({ rows: 1, items: 1 })
  })

  it('writes a card with counts, balance, majority baseline, split and exposures from the rows, then logs the export', () => {
    const p2 = (source.db.prepare(`SELECT id FROM items WHERE external_id = 'p2'`).get() as { id: number }).id
    source.write((db) => logExposure(db, p2, 'prompt_revision', 'curator', 'judge prompt v2'))
    const result = exportData(source, 'labels', { out: join(dir, 'export.jsonl') })
    expect(result.cardPath).toBe(join(dir, 'export.card.md'))
    const card = readFileSync(result.cardPath, 'utf8')
    expect(card).toContain('4 items, 6 answers, 4 final labels.')
    expect(card).toContain('| hypothesis-match | 1 | 0 | 1 | 0 | 0 | 0 |')
    expect(card).toContain('| pairwise-preference | 3 | 0 | 2 | 0 | 1 | 0 |')
    expect(card).toContain('| pairwise-preference | 3 | 4 | 2 | 1 | 1 |')
    expect(card).toContain('| test | 2 | 2 |')
    expect(card).toContain('| dev | 1 | 2 |')
    expect(card).toContain('| none | 1 | 2 |')
    // p1 a_better, p2 b_much_better, p3 a_better (ai over human): sides a 2, b 1; origins human 2, ai 1.
    expect(card).toContain('3 of 4 exported items have a reference label')
    expect(card).toContain('Majority-label baseline (always "a"): 2 of 3 = 66.7%; random: 50%.')
    expect(card).toContain('human 2, ai 1. Majority-label baseline (always "human better"): 2 of 3 = 66.7%')
    expect(card).toContain('1 of 4 exported items were exposed before this export (prompt revision 1).')
    expect(card).toContain('- p2 (test): prompt_revision')
    const exported = source.db.prepare(`SELECT i.external_id FROM exposures e JOIN items i ON i.id = e.item_id WHERE e.kind = 'exported' ORDER BY i.external_id`).all()
    expect(exported).toEqual([{ external_id: 'p1' }, { external_id: 'p2' }])
  })
})
