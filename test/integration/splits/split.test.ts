import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { appendAnnotation } from '../../../src/main/store/annotations'
import { createSplit } from '../../../src/main/splits/stratified-split'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

let tmp: ReturnType<typeof tempDir>
let project: Project

function pairs(n: number, label: string, prefix: string): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'proposal-pair',
    externalId: `${prefix}-${i}`,
    set: 'pairs',
    split: 'none',
    payload: { pair_id: `${prefix}-${i}`, a: { markdown: 'a' }, b: { markdown: 'b' }, label }
  }))
}

beforeEach(async () => {
  tmp = tempDir()
  project = await Project.create(tmp.file('s.assay'))
  project.write((db) => insertItems(db, [...pairs(40, 'a_better', 'x'), ...pairs(20, 'b_better', 'y')]))
})
afterEach(() => {
  project.close()
  tmp.cleanup()
})

const splitOf = (p: Project) =>
  Object.fromEntries((p.db.prepare(`SELECT external_id, split FROM items ORDER BY id`).all() as Array<{ external_id: string; split: string }>).map((r) => [r.external_id, r.split]))

describe('stratified splits', () => {
  it('keeps each label stratum at the requested share and is reproducible from the seed', () => {
    const plan = createSplit(project, { testFraction: 0.25, seed: 's1' })
    expect(plan.strata).toEqual([
      { stratum: 'pairs · proposal-pair · a_better', items: 40, test: 10 },
      { stratum: 'pairs · proposal-pair · b_better', items: 20, test: 5 }
    ])
    expect({ dev: plan.dev, test: plan.test }).toEqual({ dev: 45, test: 15 })
    const first = splitOf(project)
    createSplit(project, { testFraction: 0.25, seed: 's2' })
    const other = splitOf(project)
    expect(other).not.toEqual(first)
    createSplit(project, { testFraction: 0.25, seed: 's1' })
    expect(splitOf(project)).toEqual(first)
  })

  it("stratifies preprint pairs on their reference label, same_study", () => {
    const preprint = (i: number, same: boolean | undefined): NewItem => ({
      kind: 'preprint-pair',
      externalId: `pp-${i}`,
      set: 'preprints',
      split: 'none',
      payload: { paper: { title: 'P', abstract: 'p' }, preprint: { title: 'Q', abstract: 'q' }, ...(same === undefined ? {} : { same_study: same }) }
    })
    project.write((db) => insertItems(db, Array.from({ length: 23 }, (_, i) => preprint(i, i < 13 ? true : i < 20 ? false : undefined))))
    const plan = createSplit(project, { testFraction: 0.5, seed: 'r4', kind: 'preprint-pair' })
    expect(plan.strata.map((s) => [s.stratum, s.items])).toEqual([
      ['preprints · preprint-pair', 3],
      ['preprints · preprint-pair · false', 7],
      ['preprints · preprint-pair · true', 13]
    ])
    const split = splitOf(project)
    const count = (same: boolean | undefined, to: string) => Array.from({ length: 23 }, (_, i) => i).filter((i) => (i < 13 ? true : i < 20 ? false : undefined) === same && split[`pp-${i}`] === to).length
    for (const same of [true, false, undefined]) expect(Math.abs(count(same, 'dev') - count(same, 'test')), String(same)).toBeLessThanOrEqual(1)
  })

  it('is frozen once a split item has an answer', () => {
    createSplit(project, { testFraction: 0.5, seed: 's1' })
    project.write((db) =>
      appendAnnotation(db, { itemId: 1, instrumentId: 'pairwise-preference', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'j', judgement: {} })
    )
    expect(() => createSplit(project, { testFraction: 0.5, seed: 's2' })).toThrow(/frozen/)
  })

  it('is available from the CLI with clear errors', async () => {
    project.close()
    const ok = await runCli('split', tmp.file('s.assay'), '--test', '0.5', '--seed', 'k', '--json')
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ dev: 30, test: 30, seed: 'k' })
    const bad = await runCli('split', tmp.file('s.assay'), '--test', '2')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/between 0 and 1/)
    project = await Project.open(tmp.file('s.assay'))
  })

  it('shares one-item strata between dev and test instead of sending each to test', () => {
    // Ten sets of one pair each: rounding each stratum alone put all ten in test at one half.
    const singles: NewItem[] = Array.from({ length: 10 }, (_, i) => ({ kind: 'proposal-pair', externalId: `one-${i}`, set: `single-${i}`, split: 'none', payload: { pair_id: `one-${i}`, a: { markdown: 'a' }, b: { markdown: 'b' } } }))
    project.write((db) => insertItems(db, singles))
    const plan = createSplit(project, { testFraction: 0.5, seed: 's1', kind: 'proposal-pair' })
    const ones = plan.strata.filter((s) => s.stratum.startsWith('single-'))
    expect(ones.reduce((n, s) => n + s.test, 0)).toBe(5)
    // The larger strata keep their exact shares.
    expect(plan.strata.filter((s) => s.stratum.startsWith('pairs')).map((s) => [s.items, s.test])).toEqual([
      [40, 20],
      [20, 10]
    ])
    expect(plan).toMatchObject({ test: 35, dev: 35, warnings: [] })
  })

  it('warns when items already have judge answers', async () => {
    project.close()
    const path = tmp.file('s.assay')
    const p = await Project.open(path)
    const db = p.db
    db.exec(`INSERT INTO judges (name, provider, model, options) VALUES ('j', 'openai', 'gpt-4.1-mini', '{}')`)
    db.exec(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, selection, seed, both_orders, trials, options, status) VALUES ('pairwise-preference', 1, 'pairwise-ranker', 1, '{}', 's', 0, 1, '{}', 'done')`)
    db.exec(`INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, status) VALUES (1, 1, 0, 0, 'h', '{}', '{}', 'ok'), (1, 2, 0, 0, 'h2', '{}', '{}', 'ok')`)
    p.close()
    const r = await runCli('split', path, '--test', '0.5', '--seed', 'k')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('warning: 2 of these items already have judge answers')
    project = await Project.open(path)
  })
})

describe('fits a new split moves', () => {
  it('names each fit whose items leave the split it was fitted on, with how many left', () => {
    const ids = (project.db.prepare(`SELECT id FROM items ORDER BY id`).all() as { id: number }[]).map((r) => r.id)
    const fit = (split: string, items: number[]) =>
      project.write(() => {
        const id = Number(
          project.db
            .prepare(`INSERT INTO calibration_fits (instrument_id, method, source, spec, parameters, n_fit_units) VALUES ('pairwise-preference', 'threshold', 'run:1', ?, '{}', ?)`)
            .run(JSON.stringify({ fit_split: split }), items.length).lastInsertRowid
        )
        for (const item of items) project.db.prepare(`INSERT INTO calibration_fit_items (fit_id, item_id) VALUES (?, ?)`).run(id, item)
        return id
      })
    const onDev = fit('dev', ids)
    const onTest = fit('test', ids.slice(0, 4))
    const plan = createSplit(project, { testFraction: 0.25, seed: 's1' })
    const split = splitOf(project)
    const externalOf = new Map((project.db.prepare(`SELECT id, external_id FROM items`).all() as { id: number; external_id: string }[]).map((r) => [r.id, r.external_id]))
    const leaving = (fitSplit: string, items: number[]) => items.filter((id) => split[externalOf.get(id)!] !== fitSplit).length
    expect(plan.fitsNoLongerHeldOut).toEqual(
      [
        { id: onDev, instrument: 'pairwise-preference', method: 'threshold', movedItems: leaving('dev', ids) },
        { id: onTest, instrument: 'pairwise-preference', method: 'threshold', movedItems: leaving('test', ids.slice(0, 4)) }
      ].filter((f) => f.movedItems > 0)
    )
    expect(plan.fitsNoLongerHeldOut[0]).toMatchObject({ id: onDev, movedItems: 15 })
  })
})
