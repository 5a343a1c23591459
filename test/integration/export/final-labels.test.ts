import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adjudicationView, recordAdjudication } from '../../../src/main/adjudication'
import { instrumentPayload } from '../../../src/main/adjudication/final-labels'
import { exportData } from '../../../src/main/export'
import { importFile } from '../../../src/main/import'
import { setMeta } from '../../../src/main/store/meta'
import { Project } from '../../../src/main/store/project'
import { getInstrument } from '../../../src/shared/instruments'

// Seven pairs, side a human and side b AI; only p3 carries a reference label. Three annotators answer in canonical
// order (labels import); a curator adjudicates p1 and p7, and a later answer on p7 leaves its adjudication stale.
const side = (origin: string, n: number) => ({ markdown: `Proposal ${origin} ${n}.`, origin })
const PAIRS = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ pair_id: `p${n}`, a: side('human', n), b: side('ai', n), ...(n === 3 ? { label: 'human_better' } : {}) }))

const ANNOTATORS = ['Dr Ada Lovelace', 'Prof Bo Tanaka', 'Cy Okafor']
const CURATOR = 'Eve Zhang'
/** Canonical verdicts per pair, one per annotator (null: no answer). */
const PLAN: Record<string, Array<string | null>> = {
  p1: ['a_better', 'b_much_better', null], // disagree → adjudicated b_better
  p2: ['a_better', 'a_much_better', 'a_much_better'], // majority a, strength a_much_better (2 of 3)
  p3: ['a_better', 'b_better', null], // tie
  p4: ['abstain', 'a_better', null], // one choice beside an abstention
  p5: ['a_better', 'a_much_better', null], // same side, strengths tie → the milder a_better
  p6: ['abstain', 'abstain', null], // all abstained
  p7: ['a_better', 'b_better', null] // adjudicated a_better, then Cy answers b_much_better → stale → majority b
}

const pairwise = getInstrument('pairwise-preference')
let dir: string
let source: Project

function answerRows(plan: Record<string, Array<string | null>>, minute: number): unknown[] {
  const rows: unknown[] = []
  for (const [pair, verdicts] of Object.entries(plan)) {
    verdicts.forEach((v, k) => {
      if (!v) return
      const judgement = v === 'abstain' ? { verdict: 'abstain', abstain_reason: 'outside my field' } : { verdict: v }
      rows.push({ item: pair, instrument: 'pairwise-preference', source: ANNOTATORS[k], source_kind: 'human', judgement, created_at: `2025-03-0${k + 1}T10:${String(minute).padStart(2, '0')}:00.000Z` })
    })
  }
  return rows
}

function write(name: string, rows: unknown[]): string {
  const path = join(dir, name)
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'))
  return path
}

async function projectWithPairs(name: string): Promise<Project> {
  const p = await Project.create(join(dir, `${name}.assay`))
  p.write((db) => setMeta(db, 'seed', 'final-labels-seed'))
  const r = await importFile(p, 'pairs', write(`${name}-pairs.jsonl`, PAIRS), { set: 'ideaeval', split: 'test' })
  expect(r.errors).toEqual([])
  return p
}

/** Records a canonical verdict through the curator's screen order, as the adjudication screen would. */
function adjudicate(project: Project, pair: string, verdict: string, reason: string): string {
  const row = project.db.prepare(`SELECT id, kind, external_id, payload FROM items WHERE external_id = ?`).get(pair) as {
    id: number
    kind: string
    external_id: string
    payload: string
  }
  const { display } = adjudicationView(project, pairwise, row, instrumentPayload(project.db, row))
  return recordAdjudication(project, { instrument: 'pairwise-preference', itemId: row.id, judgement: pairwise.toDisplay({ verdict }, display), reason, curator: CURATOR }).id
}

function answerId(project: Project, pair: string, who: string): string {
  return (
    project.db
      .prepare(
        `SELECT a.id FROM annotations a JOIN items i ON i.id = a.item_id WHERE i.external_id = ? AND a.source_name = ?
           AND NOT EXISTS (SELECT 1 FROM annotations b WHERE b.supersedes = a.id)`
      )
      .get(pair, who) as { id: string }
  ).id
}

function readJsonl(path: string): Record<string, any>[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>)
}

/** Current answers with their ids: a round trip keeps ids, so adjudications keep resting on them. */
function answers(project: Project): unknown[] {
  return project.db
    .prepare(
      `SELECT a.id, i.external_id, a.source_name, a.judgement, a.created_at FROM annotations a JOIN items i ON i.id = a.item_id
       WHERE NOT EXISTS (SELECT 1 FROM annotations b WHERE b.supersedes = a.id) ORDER BY a.id`
    )
    .all()
}

function adjudications(project: Project): unknown[] {
  return project.db
    .prepare(
      `SELECT a.id, i.external_id, a.instrument_id, a.judgement, a.reason, a.curator, a.based_on, a.created_at FROM adjudications a
       JOIN items i ON i.id = a.item_id ORDER BY a.id`
    )
    .all()
}

let p1Adjudication: string
let p7Adjudication: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-final-'))
  source = await projectWithPairs('source')
  const first = await importFile(source, 'labels', write('answers.jsonl', answerRows(PLAN, 0)))
  expect(first.errors).toEqual([])
  p1Adjudication = adjudicate(source, 'p1', 'b_better', 'B has the sounder design')
  p7Adjudication = adjudicate(source, 'p7', 'a_better', 'A states its controls')
  const late = await importFile(source, 'labels', write('late.jsonl', answerRows({ p7: [null, null, 'b_much_better'] }, 30)))
  expect(late.errors).toEqual([])
})
afterAll(() => {
  source.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('final labels in the labels export', () => {
  it('writes each item’s final label after its answers: adjudicated where an adjudication stands, else the human majority', () => {
    const out = join(dir, 'labels.jsonl')
    const result = exportData(source, 'labels', { out })
    expect(result).toMatchObject({ rows: 16, finals: 7, items: 7 })
    const records = readJsonl(out)
    // p1: Ada, Bo, then the final label.
    expect(records.slice(0, 3).map((r) => [r.item, r.source_kind])).toEqual([
      ['p1', 'human'],
      ['p1', 'human'],
      ['p1', 'final']
    ])
    const finals = new Map(records.filter((r) => r.source_kind === 'final').map((r) => [r.item, r]))
    expect(finals.get('p1')).toEqual({
      item: 'p1',
      item_kind: 'proposal-pair',
      set: 'ideaeval',
      split: 'test',
      instrument: 'pairwise-preference',
      source: 'adjudication',
      source_kind: 'final',
      final_from: 'adjudication',
      majority: null,
      judgement: { verdict: 'b_better' },
      majority_values: null,
      n_answers: 2,
      n_agreeing: 1,
      n_abstained: 0,
      based_on: [answerId(source, 'p1', ANNOTATORS[0]!), answerId(source, 'p1', ANNOTATORS[1]!)],
      adjudication_id: p1Adjudication,
      curator: CURATOR,
      reason: 'B has the sounder design',
      supersedes: null,
      stale_adjudication_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      canonical_label: null
    })
    const summary = (item: string) => {
      const f = finals.get(item)!
      return [f.final_from, f.majority, f.judgement?.verdict ?? null, f.n_answers, f.n_agreeing, f.n_abstained]
    }
    expect(summary('p2')).toEqual(['majority', 'decided', 'a_much_better', 3, 3, 0])
    expect(summary('p3')).toEqual(['majority', 'tie', null, 2, null, 0])
    expect(summary('p4')).toEqual(['majority', 'decided', 'a_better', 2, 1, 1])
    expect(summary('p5')).toEqual(['majority', 'decided', 'a_better', 2, 2, 0])
    expect(summary('p6')).toEqual(['majority', 'all_abstained', null, 2, null, 2])
    expect(summary('p7')).toEqual(['majority', 'decided', 'b_better', 3, 2, 0])
    expect(finals.get('p7')).toMatchObject({ stale_adjudication_id: p7Adjudication, adjudication_id: null, curator: null, reason: null, created_at: '2025-03-03T10:30:00.000Z' })
    expect(finals.get('p2')!.based_on).toEqual(ANNOTATORS.map((a) => answerId(source, 'p2', a)))
    expect(finals.get('p3')!.canonical_label).toBe('a_better')
  })

  it('counts final labels on the card and uses them where an item has no reference label, saying so', () => {
    const result = exportData(source, 'labels', { out: join(dir, 'card.jsonl') })
    const card = readFileSync(result.cardPath, 'utf8')
    expect(card).toContain('7 items, 16 answers, 7 final labels.')
    expect(card).toContain('| instrument | items | adjudicated | majority | majority tied | all abstained | no majority |')
    expect(card).toContain('| pairwise-preference | 7 | 1 | 4 | 1 | 1 | 0 |')
    // p5's strengths split evenly: the card says which strength is written, and that the report's verdict has none there.
    expect(card).toContain('or the milder "_better" where their strengths split evenly')
    expect(card).toContain("the report's verdict field leaves such a pair without a human-majority value")
    expect(card).toContain('- 1 adjudication no longer rests on the current answers')
    // p3 by its reference label (a_better); p1 adjudicated b_better; p2, p4, p5, p7 by majority; p6 has none.
    expect(card).toContain('1 of 7 exported items have a reference label (source: unspecified 1).')
    expect(card).toContain('5 more use their final pairwise-preference label instead (1 adjudicated, 4 human majority)')
    expect(card).toContain('| a_better | 3 | 50% | 1 | 0 | 2 |')
    expect(card).toContain('| a_much_better | 1 | 16.7% | 0 | 0 | 1 |')
    expect(card).toContain('| b_better | 2 | 33.3% | 0 | 1 | 1 |')
    expect(card).toContain('Majority-label baseline (always "a"): 4 of 6 = 66.7%; random: 50%.')
    expect(card).toContain('human 4, ai 2. Majority-label baseline (always "human better"): 4 of 6 = 66.7%')
  })

  it('never writes an annotator or curator name when pseudonymised, in JSONL, CSV or the card', () => {
    for (const name of ['pseudo.jsonl', 'pseudo.csv']) {
      // The CSV shares the JSONL's card name: replacing it is explicit.
      const result = exportData(source, 'labels', { out: join(dir, name), pseudonymise: true, force: true })
      const text = readFileSync(result.path, 'utf8') + readFileSync(result.cardPath, 'utf8')
      for (const who of [...ANNOTATORS, CURATOR]) {
        for (const part of who.split(' ').filter((w) => w.length > 3)) expect(text).not.toContain(part)
      }
      expect(text).toContain('C01')
      expect(text).toContain('A03')
    }
    const finals = readJsonl(join(dir, 'pseudo.jsonl')).filter((r) => r.source_kind === 'final' && r.final_from === 'adjudication')
    expect(finals.map((f) => f.curator)).toEqual(['C01'])
  })
})

describe('round trip of final labels', () => {
  for (const format of ['jsonl', 'csv'] as const) {
    it(`through ${format}: a new project gets the same answers, the same adjudications and the same final labels; a re-import adds nothing`, async () => {
      const out = join(dir, `round.${format}`)
      exportData(source, 'labels', { out, force: true })
      const target = await projectWithPairs(`target-${format}`)
      try {
        const back = await importFile(target, 'labels', out)
        expect(back.errors).toEqual([])
        expect(back.warnings).toEqual([])
        expect(back.labels).toBe(16)
        expect(back.summary).toMatchObject({ adjudications: 1, adjudicationsUnchanged: 0, majoritiesChecked: 6, majoritiesDiffering: 0 })
        expect(answers(target)).toEqual(answers(source))
        // The adjudication that stands travels with its id, curator, reason, basis and time; the stale one stays home.
        expect(adjudications(target)).toEqual(adjudications(source).filter((a: any) => a.id === p1Adjudication))

        // p7's majority names the stale adjudication at home only; every other final label is the same.
        const finalRecords = (p: Project, name: string) => {
          const file = join(dir, `finals-${name}-${format}.jsonl`)
          exportData(p, 'labels', { out: file })
          return readJsonl(file).filter((r) => r.source_kind === 'final')
        }
        const here = finalRecords(source, 'source')
        const there = finalRecords(target, 'target')
        expect(there.filter((r) => r.item !== 'p7')).toEqual(here.filter((r) => r.item !== 'p7'))
        expect(there.find((r) => r.item === 'p7')).toEqual({ ...here.find((r) => r.item === 'p7'), stale_adjudication_id: null })

        const twice = await importFile(target, 'labels', out)
        expect(twice.errors).toEqual([])
        expect(twice.labels).toBe(0)
        expect(twice.summary).toMatchObject({ unchanged: 16, adjudications: 0, adjudicationsUnchanged: 1, majoritiesDiffering: 0 })
        expect(answers(target)).toEqual(answers(source))
        expect(adjudications(target)).toHaveLength(1)
      } finally {
        target.close()
      }
    })
  }
})
