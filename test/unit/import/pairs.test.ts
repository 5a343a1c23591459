import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

const side = (origin: 'human' | 'ai', extra: Record<string, unknown> = {}) => ({ markdown: `# ${origin}\n\nText.`, origin, ...extra })

describe('pairs importer', () => {
  let s: Scratch
  beforeEach(async () => {
    s = await scratch()
  })
  afterEach(() => s.dispose())

  it('imports inline and path proposals, converts origin labels and recounts the balance', async () => {
    s.write('props/p2a.md', '# Proposal\n\nFrom a file.')
    const file = s.write(
      'pairs.jsonl',
      jsonl([
        { pair_id: 'p1', topic: 'ml', a: side('human'), b: side('ai', { generator: 'g', company: 'c', citations: 3 }), label: 'human_better', extra: { kept: true } },
        { pair_id: 'p2', a: { path: 'props/p2a.md', origin: 'ai' }, b: side('human'), label: 'human_much_better', probe: 'formula-error' },
        { pair_id: 'p3', a: side('ai'), b: side('human'), label: 'a_better' },
        { pair_id: 'p4', a: side('ai'), b: side('human') }
      ])
    )
    const r = await importFile(s.project, 'pairs', file, { set: 'ideaeval', split: 'test' })
    expect(r.errors).toEqual([])
    expect(r.imported).toBe(4)
    expect(payloadOf(s.project, 'proposal-pair', 'p1')).toMatchObject({ label: 'a_better', origin_label: 'human_better', $extra: { extra: { kept: true } } })
    const p2 = payloadOf(s.project, 'proposal-pair', 'p2')
    expect(p2).toMatchObject({ label: 'b_much_better', probe: 'formula-error', a: { path: 'props/p2a.md', markdown: '# Proposal\n\nFrom a file.' } })
    expect(r.summary.labels).toMatchObject({
      total: 4,
      unlabelled: 1,
      canonical: { a_much_better: 0, a_better: 2, b_better: 0, b_much_better: 1 },
      byOrigin: { human_much_better: 1, human_better: 1, ai_better: 1, ai_much_better: 0 },
      winners: { human: 2, ai: 1 }
    })
    expect(s.count(`SELECT count(*) AS n FROM items WHERE set_name = 'ideaeval' AND split = 'test'`)).toBe(4)
    expect(s.count(`SELECT count(*) AS n FROM imports WHERE format = 'pairs' AND item_count = 4`)).toBe(1)
  })

  it('refuses an origin label without origins, naming line and field, and writes nothing', async () => {
    const file = s.write(
      'pairs.jsonl',
      jsonl([
        { pair_id: 'ok', a: side('human'), b: side('ai'), label: 'a_better' },
        { pair_id: 'bad', a: { markdown: 'x' }, b: side('ai'), label: 'ai_better' }
      ])
    )
    const r = await importFile(s.project, 'pairs', file)
    expect(r.imported).toBe(0)
    expect(r.errors).toEqual([{ file, line: 2, field: 'a.origin', message: expect.stringContaining('both sides need origin human or ai') }])
    expect(s.count()).toBe(0)
    expect(s.count('SELECT count(*) AS n FROM imports')).toBe(0)
  })

  it('names unknown labels, missing files and schema violations', async () => {
    const file = s.write(
      'pairs.json',
      JSON.stringify(
        [
          { pair_id: 'p1', a: side('human'), b: side('ai'), label: 'tie' },
          { pair_id: 'p2', a: { path: 'missing.md' }, b: side('ai') },
          { pair_id: 'p3', a: side('human', { citations: -1 }), b: side('ai') }
        ],
        null,
        2
      )
    )
    const r = await importFile(s.project, 'pairs', file)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'label'],
      [14, 'a.path'],
      [24, 'a.citations']
    ])
  })

  it('warns when a manifest states a balance its rows do not have', async () => {
    const file = s.write(
      'manifest.json',
      JSON.stringify({
        label_balance: { human: 57, ai: 18 },
        pairs: [
          { pair_id: 'p1', a: side('human'), b: side('ai'), label: 'human_better' },
          { pair_id: 'p2', a: side('human'), b: side('ai'), label: 'ai_better' }
        ]
      })
    )
    const r = await importFile(s.project, 'pairs', file)
    expect(r.imported).toBe(2)
    expect(r.warnings.map((w) => w.field)).toEqual(['label_balance.human', 'label_balance.ai'])
    expect(r.warnings[0]!.message).toContain('states 57 "human" but the rows have 1')
  })

  it('rejects an id already in the project and one repeated in the file', async () => {
    const first = s.write('a.jsonl', jsonl([{ pair_id: 'p1', a: side('human'), b: side('ai') }]))
    expect((await importFile(s.project, 'pairs', first)).imported).toBe(1)
    const second = s.write(
      'b.jsonl',
      jsonl([
        { pair_id: 'p2', a: side('human'), b: side('ai') },
        { pair_id: 'p1', a: side('human'), b: side('ai') },
        { pair_id: 'p2', a: side('human'), b: side('ai') }
      ])
    )
    const r = await importFile(s.project, 'pairs', second)
    expect(r.errors.map((e) => [e.line, e.field, e.message])).toEqual([
      [2, 'pair_id', 'proposal-pair "p1" is already in the project'],
      [3, 'pair_id', 'proposal-pair "p2" appears twice (first on line 1)']
    ])
    expect(s.count()).toBe(1)
  })

  it('writes nothing in a dry run but reports what would be imported', async () => {
    const file = s.write('a.jsonl', jsonl([{ pair_id: 'p1', topic: 'graphs', a: side('human'), b: side('ai') }]))
    const r = await importFile(s.project, 'pairs', file, { dryRun: true })
    expect(r).toMatchObject({ imported: 1, dryRun: true, importId: null, preview: [{ kind: 'proposal-pair', external_id: 'p1', title: 'p1 · graphs' }] })
    expect(s.count()).toBe(0)
  })
})
