import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { EXPERT, judgeOf, SETS } from './fixture'

// A fit made on items without a split, then `assay split` moves some of those items into test: the report must never
// score the fit on the items it learned from, and says the fit is no longer held out.
const tmp = tempDir('assay-resplit-')
const path = tmp.file('demo.assay')

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout)
}

let fitId: number
let fitItems: number[]
let splitOut: string
let fitItemsInTest = -1

beforeAll(async () => {
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  const rows: string[] = []
  Object.entries(SETS).forEach(([set, ids], k) => {
    const scores = (f: (m: number) => number) => ids.map((id, i) => ({ id, match: f(EXPERT[k]![i]!), compatible: EXPERT[k]![i]! >= 2, plausibility: 3, reason: 'r' }))
    rows.push(JSON.stringify({ item: set, instrument: 'hypothesis-match', source: 'Expert H', source_kind: 'human', judgement: { scores: scores((m) => m) } }))
    rows.push(JSON.stringify({ item: set, instrument: 'hypothesis-match', source: 'score-judge', source_kind: 'model', judgement: { scores: scores(judgeOf) } }))
  })
  writeFileSync(tmp.file('labels.jsonl'), `${rows.join('\n')}\n`)
  expect((await runCli('import', path, 'labels', tmp.file('labels.jsonl'))).code).toBe(0)
  // One hypothesis set is kept apart as a held-out test set of its own, so the fit has a unit to be evaluated on (a
  // fit with none is refused); the other five are unsplit and the fit learns from them.
  const held = await Project.open(path)
  held.db.prepare(`UPDATE items SET split = 'test', set_name = 'held-out' WHERE kind = 'hypothesis-set' AND external_id = ?`).run(Object.keys(SETS)[0])
  held.close()
  const out = json(await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'platt', '--fit-split', 'none', '--eval-split', 'test', '--json'))
  fitId = out.fits[0].fit_id
  expect(out.fits[0].n_fit_items).toBe(5)
  const project = await Project.open(path)
  fitItems = (project.db.prepare(`SELECT item_id FROM calibration_fit_items WHERE fit_id = ?`).all(fitId) as { item_id: number }[]).map((r) => r.item_id)
  project.close()
  const split = await runCli('split', path, '--test', '0.5', '--kind', 'hypothesis-set', '--set', 'demo-ageing', '--seed', 'resplit')
  expect(split.code).toBe(0)
  splitOut = split.stdout
}, 120_000)

afterAll(() => tmp.cleanup())

describe('a fit whose items a later split moved', () => {
  it('is named by the split as no longer held out', async () => {
    expect(splitOut).toMatch(new RegExp(`Fit ${fitId} \\(platt, hypothesis-match\\) learned from 5 item\\(s\\) this split moved: it is no longer held out`))
    const project = await Project.open(path)
    const inTest = project.db.prepare(`SELECT count(*) AS n FROM items WHERE split = 'test' AND id IN (${fitItems.join(',')})`).get() as { n: number }
    project.close()
    // The premise: some of the fit's own items are now test items.
    fitItemsInTest = inTest.n
    expect(inTest.n).toBeGreaterThan(0)
  })

  it('is never scored on its own items, and the report says why it has no held-out figures', async () => {
    const report = json(await runCli('report', path, '--instrument', 'hypothesis-match', '--json'))
    const [row] = report.calibration
    expect(row.fit_id).toBe(fitId)
    expect(row.held_out).toBe(false)
    expect(row.n_excluded_eval_items).toBe(fitItemsInTest)
    expect([row.n_eval_items, row.n_eval_units]).toEqual([0, 0])
    expect(row.probability).toBeUndefined()
    expect(row.decision).toBeUndefined()
    expect(row.reasons.held_out).toMatch(/a split made after this fit moved 5 of the 5 items it learned from out of none \(now \d in dev, \d in test\)/)
    expect(row.warnings.join(' ')).toMatch(/Not held out/)
    // As a source of the report, the fit answers no item at all.
    const source = report.sources.find((s: { id: string }) => s.id === `fit:${fitId}`)
    expect(source.n_items).toBe(0)
    expect(source.detail.held_out).toBe(false)
    // Left out for that reason, not as if it had had no calls to make, nor flagged as short of items.
    expect(source.left_out).toEqual({ status: 'empty', reason: expect.stringMatching(/^not held out: a split made after this fit moved items it learned from/) })
    expect(source.too_few_items).toBe(false)
    for (const field of report.fields) {
      for (const c of field.comparisons ?? []) if (c.source === `fit:${fitId}`) expect(c.n).toBe(0)
    }
    // The HTML report says it too, beside the fit.
    const html = tmp.file('report.html')
    expect((await runCli('report', path, '--instrument', 'hypothesis-match', '--html', html)).code).toBe(0)
    expect(readFileSync(html, 'utf8')).toMatch(/held_out: a split made after this fit moved 5 of the 5 items it learned from/)
  })

  it('a fit made on the new split is held out and evaluated on test items only', async () => {
    const out = json(await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'platt', '--json'))
    const [row] = out.fits
    expect(row.held_out).toBe(true)
    expect(row.n_excluded_eval_items).toBe(0)
    // Fitted on the dev sets, evaluated on every test set (the held-out one and those the split made), five units each.
    expect(row.n_fit_items).toBe(5 - fitItemsInTest)
    expect(row.n_eval_items).toBe(fitItemsInTest + 1)
    expect(row.probability.n).toBe(5 * (fitItemsInTest + 1))
  })
})

describe('probes made from the items a fit learned from', () => {
  it('are listed with the fit and never counted as its held-out evidence', async () => {
    const probePath = tmp.file('probes.assay')
    expect((await runCli('new', probePath, '--demo')).code).toBe(0)
    expect((await runCli('probe', 'make', probePath, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', '2', '--side', 'a', '--seed', 'resplit')).code).toBe(0)
    const project = await Project.open(probePath)
    const db = project.db
    const probes = db.prepare(`SELECT item_id, original_item_id FROM probes ORDER BY item_id`).all() as Array<{ item_id: number; original_item_id: number }>
    expect(probes).toHaveLength(2)
    const [first, second] = probes as [(typeof probes)[0], (typeof probes)[0]]
    // One probe per original (side a only): the second probe has nothing to do with the fit.
    expect(first.original_item_id).not.toBe(second.original_item_id)
    // A fit learned from the first probe's original (dev); the probe itself sits in test.
    db.prepare(`UPDATE items SET split = 'dev' WHERE id = ?`).run(first.original_item_id)
    db.prepare(`UPDATE items SET split = 'test' WHERE id IN (?, ?)`).run(first.item_id, second.item_id)
    const { insertFit, listFits } = await import('../../../src/main/store/calibration-fits')
    const spec = {
      method: 'threshold' as const,
      instrument: 'pairwise-preference',
      source: 'model:j',
      criterion: 'label',
      score_field: 'confidence',
      target: { field: 'winner', positive: 'a' },
      fit_split: 'dev' as const,
      eval_split: 'test' as const
    }
    const id = project.write((db) => insertFit(db, spec, { kind: 'threshold', threshold: 0.5, metric: 'accuracy', fit_value: 1, candidates: 1 }, [first.original_item_id], 1))
    const [fit] = listFits(db, 'pairwise-preference').filter((f) => f.id === id)
    expect(fit!.relatedItems).toEqual([first.item_id])
    expect(fit!.fitItemSplits).toEqual({ dev: 1 })
    project.close()

    // The section never scores the fit on the probe: only the other probe is evidence.
    const { calibrationSection } = await import('../../../src/shared/calibrate')
    const items = [first.original_item_id, first.item_id, second.item_id].map((itemId) => ({
      id: itemId,
      externalId: `i${itemId}`,
      set: 's',
      split: (itemId === first.original_item_id ? 'dev' : 'test') as 'dev' | 'test',
      exposures: []
    }))
    const call = (itemId: number, values: Record<string, number | string>) => ({ itemId, trial: 0, order: 0, status: 'ok' as const, observations: [{ unit: 'u', values }] })
    const input = {
      project: { name: 'p', id: 'p' },
      instrument: {
        id: 'pairwise-preference',
        title: 'P',
        itemKind: 'proposal-pair',
        versions: [1],
        fields: [
          { name: 'confidence', label: 'c', level: 'probability' as const },
          { name: 'winner', label: 'w', level: 'nominal' as const, categories: ['a', 'b'] }
        ]
      },
      split: 'all' as const,
      items,
      sources: [
        { id: 'label', kind: 'item_label' as const, name: 'label', detail: {}, calls: items.map((i) => call(i.id, { winner: 'a' })) },
        { id: 'model:j', kind: 'model_import' as const, name: 'j', detail: {}, calls: items.map((i) => call(i.id, { confidence: 0.9, winner: 'b' })) }
      ],
      flawAudits: []
    }
    const [row] = calibrationSection(input, [fit!], { level: 0.95, resamples: 50, seed: 1, eceBins: 10 })
    expect(row!.held_out).toBe(true)
    expect(row!.n_excluded_eval_items).toBe(1)
    expect([row!.n_eval_items, row!.n_eval_units]).toEqual([1, 1])
    expect(row!.warnings.join(' ')).toMatch(/1 test item\(s\) are left out: the fit learned from them or from the items they were made from/)
  })
})
