import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { call, contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// A team's own data through a column mapping: single texts and pairs, CSV and JSONL, previewed, then written all at
// once, with problems named by the file's own columns, and the pairs' origins never shown to annotators.

let tmp: ReturnType<typeof tempDir>
let path: string
let project: Project

beforeEach(async () => {
  tmp = tempDir()
  path = tmp.file('p.assay')
  project = await Project.create(path)
})
afterEach(() => {
  project.close()
  tmp.cleanup()
})

const count = (sql = 'SELECT count(*) AS n FROM items') => (project.db.prepare(sql).get() as { n: number }).n
const payloads = (kind: string) =>
  (project.db.prepare(`SELECT external_id, payload FROM items WHERE kind = ? ORDER BY id`).all(kind) as Array<{ external_id: string; payload: string }>).map((r) => ({
    id: r.external_id,
    payload: JSON.parse(r.payload) as Record<string, any>
  }))

const TEXTS_CSV = ['paper_id,title,abstract,venue,year', 'p1,Cold atoms,"We trap atoms, then cool them.",PRL,2021', 'p2,Warm ions,Ions are **heated**.,Nature,2022'].join('\n')

describe('the generic import of single texts', () => {
  it('previews a CSV through the mapping, then imports it as idea items with the other columns under $extra', async () => {
    const file = tmp.file('abstracts.csv')
    writeFileSync(file, TEXTS_CSV)
    const ctx = contextFor(project)
    const mapping = { as: 'texts', columns: { id: 'paper_id', text: 'abstract', title: 'title' } }
    const preview = await call(ctx, 'import.preview', { path: file, format: 'generic', mapping })
    expect(preview.errors).toEqual([])
    expect(preview).toMatchObject({ format: 'generic', detected: false, dryRun: true, items: 2 })
    expect(preview.preview).toEqual([
      { kind: 'idea', external_id: 'p1', title: 'Cold atoms' },
      { kind: 'idea', external_id: 'p2', title: 'Warm ions' }
    ])
    expect(preview.mapping).toEqual([
      { field: 'paper_id', to: expect.stringMatching(/^id: /) },
      { field: 'title', to: expect.stringMatching(/^title: /) },
      { field: 'abstract', to: expect.stringMatching(/^text: /) },
      { field: 'venue', to: 'kept unchanged under $extra' },
      { field: 'year', to: 'kept unchanged under $extra' }
    ])
    expect(count()).toBe(0)

    const run = await call(ctx, 'import.run', { path: file, format: 'generic', mapping })
    expect(run).toMatchObject({ items: 2, errors: [] })
    expect(payloads('idea')).toEqual([
      { id: 'p1', payload: { idea: 'We trap atoms, then cool them.', title: 'Cold atoms', $extra: { venue: 'PRL', year: '2021' } } },
      { id: 'p2', payload: { idea: 'Ions are **heated**.', title: 'Warm ions', $extra: { venue: 'Nature', year: '2022' } } }
    ])
  })

  it('imports JSONL from the command line with --as and --map, keeping an origin hidden from annotators', async () => {
    const file = tmp.file('ideas.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify({ key: 'i1', body: 'Measure the drift of a clock in orbit.', who: 'gpt-test', tags: ['time', 'space'] }),
        JSON.stringify({ key: 'i2', body: 'Grow crystals in microgravity.', who: 'human' })
      ].join('\n')
    )
    project.close()
    const dry = await runCli('import', path, 'generic', file, '--as', 'texts', '--map', 'id=key,text=body,origin=who', '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toContain('Would import 2 items')
    const run = await runCli('import', path, 'generic', file, '--as', 'texts', '--map', 'id=key,text=body,origin=who')
    expect(run.code, run.stderr).toBe(0)
    project = await Project.open(path)
    expect(payloads('idea')[0]).toEqual({ id: 'i1', payload: { idea: 'Measure the drift of a clock in orbit.', origin: 'gpt-test', $extra: { tags: ['time', 'space'] } } })

    // idea-review annotates them; the annotator sees the text only.
    const curator = contextFor(project)
    await call(curator, 'assignments.create', { instrument: 'idea-review', annotators: ['Ada'], overlap: 1 })
    await call(curator, 'session.setRole', { role: 'annotator', annotator: 'Ada' })
    const { rows } = await call(curator, 'queue.list', { instrument: 'idea-review' })
    expect(rows).toHaveLength(2)
    for (const r of rows as Array<{ assignmentId: number }>) {
      const shown = JSON.stringify(await call(curator, 'queue.item', { assignmentId: r.assignmentId }))
      expect(shown).not.toContain('gpt-test')
      expect(shown).not.toMatch(/"origin"|"human"/)
    }
  })

  it('refuses the command line without --as and --map, or with them for another format', async () => {
    const file = tmp.file('t.csv')
    writeFileSync(file, TEXTS_CSV)
    expect((await runCli('import', path, 'generic', file)).stderr).toContain('needs --as texts|pairs and --map')
    expect((await runCli('import', path, 'questions', file, '--as', 'texts', '--map', 'id=paper_id')).stderr).toContain('for the generic format')
    expect((await runCli('import', path, 'generic', file, '--as', 'texts', '--map', 'id=paper_id,body=abstract')).stderr).toContain('body: not a role')
    expect((await runCli('import', path, 'generic', file, '--as', 'lists', '--map', 'id=paper_id')).stderr).toContain('--as: expected texts or pairs')
    expect(count()).toBe(0)
  })
})

describe('the generic import of pairs', () => {
  const PAIRS_CSV = [
    'row,left,right,left_by,right_by,verdict,topic,note',
    'q1,"# Plan A\n\nUse lasers.",Use magnets.,human,ai,human_better,Cooling,first',
    'q2,Use sound.,Use light.,AI,Human,a_better,,second'
  ].join('\n')
  const mapping = { as: 'pairs', columns: { id: 'row', a_text: 'left', b_text: 'right', a_origin: 'left_by', b_origin: 'right_by', label: 'verdict', title: 'topic' } }

  it('imports CSV pairs as proposal pairs, labels by origin made canonical, origins kept from annotators', async () => {
    const file = tmp.file('pairs.csv')
    writeFileSync(file, PAIRS_CSV)
    const ctx = contextFor(project)
    const preview = await call(ctx, 'import.preview', { path: file, format: 'generic', mapping })
    expect(preview.errors).toEqual([])
    expect(preview.preview.map((p: { kind: string }) => p.kind)).toEqual(['proposal-pair', 'proposal-pair'])
    expect(count()).toBe(0)
    await call(ctx, 'import.run', { path: file, format: 'generic', mapping })
    const [q1, q2] = payloads('proposal-pair')
    expect(q1).toEqual({
      id: 'q1',
      payload: {
        pair_id: 'q1',
        topic: 'Cooling',
        a: { markdown: '# Plan A\n\nUse lasers.', origin: 'human' },
        b: { markdown: 'Use magnets.', origin: 'ai' },
        label: 'a_better',
        origin_label: 'human_better',
        $extra: { note: 'first' }
      }
    })
    expect(q2!.payload).toMatchObject({ a: { origin: 'ai' }, b: { origin: 'human' }, label: 'a_better' })

    await call(ctx, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada'], overlap: 1 })
    await call(ctx, 'session.setRole', { role: 'annotator', annotator: 'Ada' })
    const { rows } = await call(ctx, 'queue.list', { instrument: 'pairwise-preference' })
    expect(rows).toHaveLength(2)
    for (const r of rows as Array<{ assignmentId: number }>) {
      const item = await call(ctx, 'queue.item', { assignmentId: r.assignmentId })
      const shown = JSON.stringify(item)
      expect(shown).not.toMatch(/"origin"|human|"ai"|\bAI\b|a_better|first|second|"q[12]"/)
      expect(shown).toMatch(/lasers|sound/)
    }
  })

  it('imports JSONL pairs without origins or labels', async () => {
    const file = tmp.file('pairs.jsonl')
    writeFileSync(file, ['{"id": 7, "x": "Text one", "y": "Text two", "score": 1.10}', JSON.stringify({ id: 8, x: 'Three', y: 'Four' })].join('\n'))
    const run = await call(contextFor(project), 'import.run', { path: file, format: 'generic', mapping: { as: 'pairs', columns: { id: 'id', a_text: 'x', b_text: 'y' } } })
    expect(run).toMatchObject({ items: 2, errors: [] })
    expect(payloads('proposal-pair')[0]).toEqual({ id: '7', payload: { pair_id: '7', a: { markdown: 'Text one' }, b: { markdown: 'Text two' }, $extra: { score: { $number: '1.10' } } } })
  })

  it('refuses a row whose origin, label or text is wrong with its line and the file’s column, and writes nothing', async () => {
    const file = tmp.file('bad.csv')
    writeFileSync(file, [PAIRS_CSV, 'q3,Fine.,,human,ai,,,', 'q4,One.,Two.,robot,ai,,,', 'q5,One.,Two.,human,human,ai_better,,', 'q1,Again.,Twice.,,,,,'].join('\n'))
    const report = await call(contextFor(project), 'import.run', { path: file, format: 'generic', mapping })
    expect(report.items).toBe(0)
    expect(report.errors.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([
      [4, 'right'],
      [5, 'left_by'],
      [6, 'verdict'],
      [7, 'row']
    ])
    expect(report.errors[0].message).toContain('missing text B')
    expect(report.errors[1].message).toContain('human or ai')
    expect(report.errors[3].message).toContain('appears twice (first on line 2)')
    expect(count()).toBe(0)
    expect(count('SELECT count(*) AS n FROM imports')).toBe(0)
  })
})

describe('the generic import of an uploaded file', () => {
  it('reads the mapping beside the bytes, as for a path, and names items by their title in lists', async () => {
    const ctx = contextFor(project)
    const bytes = Buffer.from(TEXTS_CSV, 'utf8').toString('base64')
    const mapping = { as: 'texts', columns: { id: 'paper_id', text: 'abstract', title: 'title' } }
    const preview = await call(ctx, 'import.previewUpload', { name: 'mine.csv', bytes, format: 'generic', mapping })
    expect(preview).toMatchObject({ items: 2, errors: [] })
    expect(count()).toBe(0)
    await call(ctx, 'import.runUpload', { name: 'mine.csv', bytes, format: 'generic', mapping })
    const page = await call(ctx, 'items.list', { kind: 'idea' })
    expect(page.rows.map((r: { external_id: string; set_name: string; title: string }) => [r.external_id, r.set_name, r.title])).toEqual([
      ['p1', 'mine', 'Cold atoms'],
      ['p2', 'mine', 'Warm ions']
    ])
    const refused = await dispatch(ctx, 'import.previewUpload', { name: 'mine.csv', bytes, mapping })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('only by the generic format') } })
  })
})

describe('a mapping that does not fit the file', () => {
  it('names a missing column and the header line, and lists the columns there are', async () => {
    const file = tmp.file('t.csv')
    writeFileSync(file, TEXTS_CSV)
    const report = await call(contextFor(project), 'import.preview', { path: file, format: 'generic', mapping: { as: 'texts', columns: { id: 'paper_id', text: 'summary' } } })
    expect(report.errors).toEqual([
      { file, line: 1, field: 'summary', message: expect.stringContaining('"summary" (for text) is not in the header (line 1); its columns are "paper_id", "title", "abstract", "venue", "year"') }
    ])
    // The file's columns are still offered, for the import screen's mapping form.
    expect(report.mapping.map((m: { field: string }) => m.field)).toEqual(['paper_id', 'title', 'abstract', 'venue', 'year'])
  })

  it('refuses a shape without its required roles, a role of the other shape, and one column for two roles', async () => {
    const file = tmp.file('t.csv')
    writeFileSync(file, TEXTS_CSV)
    const ctx = contextFor(project)
    const noMapping = await call(ctx, 'import.preview', { path: file, format: 'generic' })
    expect(noMapping.errors).toEqual([expect.objectContaining({ field: 'mapping', message: expect.stringContaining('needs a column mapping') })])
    expect(noMapping.mapping.map((m: { to: string }) => m.to)).toEqual(Array(5).fill('kept unchanged under $extra'))
    const wrong = await call(ctx, 'import.preview', { path: file, format: 'generic', mapping: { as: 'pairs', columns: { id: 'paper_id', a_text: 'abstract', b_text: 'abstract', text: 'title' } } })
    expect(wrong.errors.map((e: { field: string }) => e.field)).toEqual(['mapping.b_text', 'mapping.text'])
    const missing = await call(ctx, 'import.preview', { path: file, format: 'generic', mapping: { as: 'texts', columns: { id: 'paper_id' } } })
    expect(missing.errors.map((e: { field: string }) => e.field)).toEqual(['mapping.text'])
    const other = await dispatch(ctx, 'import.preview', { path: file, format: 'questions', mapping: { as: 'texts', columns: { id: 'paper_id', text: 'abstract' } } })
    expect(other).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('refuses a JSONL row missing a mapped value with its line and field, and writes nothing', async () => {
    const file = tmp.file('t.jsonl')
    writeFileSync(file, [JSON.stringify({ k: 'a', t: 'Text' }), JSON.stringify({ k: 'b' }), JSON.stringify({ t: 'No id' }), JSON.stringify({ k: 'd', t: { nested: true } })].join('\n'))
    const report = await call(contextFor(project), 'import.run', { path: file, format: 'generic', mapping: { as: 'texts', columns: { id: 'k', text: 't' } } })
    expect(report.errors.map((e: { line: number; field: string; message: string }) => [e.line, e.field, e.message])).toEqual([
      [2, 't', 'missing the text (column "t")'],
      [3, 'k', 'missing an id (column "k")'],
      [4, 't', 'the text must be text, found a object']
    ])
    expect(count()).toBe(0)
  })

  it('is never detected: auto leaves a file of unknown columns to be named', async () => {
    const file = tmp.file('t.csv')
    writeFileSync(file, TEXTS_CSV)
    project.close()
    const r = await runCli('import', path, 'auto', file)
    project = await Project.open(path)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('cannot tell the format')
  })
})
