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
  project.write(() => insertItems(project.db, [...pairs(40, 'a_better', 'x'), ...pairs(20, 'b_better', 'y')]))
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

  it('is frozen once a split item has an answer', () => {
    createSplit(project, { testFraction: 0.5, seed: 's1' })
    project.write(() =>
      appendAnnotation(project.db, { itemId: 1, instrumentId: 'pairwise-preference', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'j', judgement: {} })
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
})
