import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildProgram } from '../../../src/main/cli/program'
import { runProgram, type CliIO } from '../../../src/main/cli/run'
import { exportData } from '../../../src/main/export'
import { Project } from '../../../src/main/store/project'
import { importLabelledPairs } from '../../support/pairs'

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: CliIO = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) }
  const code = await runProgram(buildProgram(io), args, io)
  return { code, out, err }
}

describe('judgements export and the export command', () => {
  let dir: string
  let file: string

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assay-export-j-'))
    file = join(dir, 'p.assay')
    const project = await Project.create(file)
    await importLabelledPairs(project, dir, { split: 'test' })
    // A finished run as the runner leaves it: two ok calls, one unparseable, one failed, one still pending.
    const db = project.db
    const judge = db.prepare(`INSERT INTO judges (name, provider, model, company) VALUES ('judge-x', 'openai', 'model-x', 'example-lab')`).run().lastInsertRowid
    const run = db
      .prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, status) VALUES ('pairwise-preference', ?, 'pairwise-ranker', 1, '42', 'done')`)
      .run(judge).lastInsertRowid
    const call = db.prepare(
      `INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, raw_answer, judgement, status, input_tokens, output_tokens, cost_usd, latency_ms, attempts)
       VALUES (?, (SELECT id FROM items WHERE external_id = ?), ?, 0, ?, ?, '{}', ?, ?, ?, 100, 20, 0.001, 900, 1)`
    )
    call.run(run, 'p1', 0, 'h1', '{"swapped":true}', 'A > B', JSON.stringify({ verdict: 'a_better' }), 'ok')
    call.run(run, 'p2', 0, 'h2', '{"swapped":false}', 'A < B', JSON.stringify({ verdict: 'b_better', comment: 'x' }), 'ok')
    call.run(run, 'p1', 1, 'h3', '{}', 'I think both are fine', null, 'unparseable')
    call.run(run, 'p2', 1, 'h4', '{}', null, null, 'failed')
    call.run(run, 'p2', 2, 'h5', '{}', null, null, 'pending')
    project.close()
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it("counts each run apart on the card, and an abstention as one, as the report's sources table does", async () => {
    const project = await Project.open(file)
    try {
      // A second run of the same judge that abstained on one pair and answered the other.
      const db = project.db
      const judge = (db.prepare(`SELECT id FROM judges WHERE name = 'judge-x'`).get() as { id: number }).id
      const second = db.prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, status) VALUES ('pairwise-preference', ?, 'pairwise-ranker', 1, '43', 'done')`).run(judge).lastInsertRowid
      const call = db.prepare(`INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, judgement, status) VALUES (?, (SELECT id FROM items WHERE external_id = ?), 0, 0, ?, '{}', '{}', ?, 'ok')`)
      call.run(second, 'p1', 'k1', JSON.stringify({ verdict: 'abstain' }))
      call.run(second, 'p2', 'k2', JSON.stringify({ verdict: 'b_better' }))
      exportData(project, 'judgements', { out: join(dir, 'two-runs.jsonl') })
      const card = readFileSync(join(dir, 'two-runs.card.md'), 'utf8')
      expect(card).toContain('| run | instrument | calls | ok | abstained | unparseable | failed |')
      expect(card).toContain('| judge-x · run 1 | pairwise-preference | 4 | 2 | 0 | 1 | 1 |')
      expect(card).toContain(`| judge-x · run ${second} | pairwise-preference | 2 | 1 | 1 | 0 | 0 |`)
      // The answers by field count the abstention the table counts, and the row says it is one.
      expect(card).toContain('- Abstained (nominal), by models (4 observations): false: 3, true: 1.')
      const rows = readFileSync(join(dir, 'two-runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { run: number; status: string })
      expect(rows.filter((r) => r.run === Number(second)).map((r) => r.status).sort()).toEqual(['abstained', 'ok'])
    } finally {
      project.close()
    }
  })

  it('exports finished model calls with their parsed judgement, run and judge', async () => {
    const project = await Project.open(file)
    try {
      const out = join(dir, 'judgements.jsonl')
      expect(exportData(project, 'judgements', { out })).toMatchObject({ rows: 4, items: 2, format: 'jsonl' })
      const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      expect(rows.map((r) => [r.item, r.trial, r.status])).toEqual([
        ['p1', 0, 'ok'],
        ['p1', 1, 'unparseable'],
        ['p2', 0, 'ok'],
        ['p2', 1, 'failed']
      ])
      expect(rows[0]).toMatchObject({
        instrument: 'pairwise-preference',
        template: 'pairwise-ranker@1',
        judge: 'judge-x',
        provider: 'openai',
        model: 'model-x',
        company: 'example-lab',
        judgement: { verdict: 'a_better' },
        display: { swapped: true },
        raw_answer: 'A > B',
        canonical_label: 'a_better',
        cached: false
      })
      const card = readFileSync(join(dir, 'judgements.card.md'), 'utf8')
      expect(card).toContain('| judge-x · run 1 | pairwise-preference | 4 | 2 | 0 | 1 | 1 |')
      expect(card).toContain('Majority-label baseline (always "a"): 1 of 2 = 50%; random: 50%.')
      const csvOut = join(dir, 'judgements.csv')
      // Same card name as the JSONL export above: replacing it is explicit.
      exportData(project, 'judgements', { out: csvOut, force: true })
      const csv = Papa.parse<Record<string, string>>(readFileSync(csvOut, 'utf8'), { header: true, skipEmptyLines: true })
      expect(csv.meta.fields?.slice(0, 7)).toEqual(['item', 'instrument', 'judge', 'run', 'trial', 'order_index', 'status'])
      expect(csv.data.map((r) => r['judgement.verdict'])).toEqual(['a_better', '', 'b_better', ''])
      expect(csv.data[2]!['judgement.comment']).toBe('x')
    } finally {
      project.close()
    }
  })

  it('runs from the command line, with usage errors exiting 2', async () => {
    const out = join(dir, 'labels.csv')
    const r = await cli(['export', file, 'judgements', '--out', out, '--format', 'jsonl', '--split', 'test', '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ what: 'judgements', format: 'jsonl', rows: 4, items: 2, cardPath: join(dir, 'labels.card.md') })
    const labels = await cli(['export', file, 'labels', '--out', join(dir, 'empty.jsonl')])
    expect(labels.code).toBe(0)
    expect(labels.out).toContain('Exported 0 answers on 0 items')
    expect((await cli(['export', file, 'everything', '--out', out])).code).toBe(2)
    expect((await cli(['export', file, 'labels'])).code).toBe(2)
    expect((await cli(['export', file, 'labels', '--out', out, '--format', 'xml'])).code).toBe(2)
    expect((await cli(['export', file, 'labels', '--out', out, '--instrument', 'vibes'])).code).toBe(2)
    expect((await cli(['export', join(dir, 'missing.assay'), 'labels', '--out', out])).code).toBe(1)
  })
})
