import { afterAll, describe, expect, it } from 'vitest'
import { appendAdjudication } from '../../../src/main/store/adjudications'
import { projectReport } from '../../../src/main/report'
import { Project } from '../../../src/main/store/project'
import { renderReportHtml, type Report } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { addCalls, addItems, addPairs, addRun, annotate, verdictFor } from './fixtures'

// Which units the corrected estimates (PPI, PPI++, Rogan–Gladen) call unlabelled, on projects built with the store:
// 200 leak audits every one labelled by two experts, judged by one model. Units whose criterion has no value (a tie
// under the human majority, no adjudication) were labelled by people: they are never "unlabelled", so with no other
// units the section is absent; once units no person labelled are added, those are the unlabelled ones, the others are
// left out, counted and named, and the estimate warns that its labelled units were not chosen at random.
const tmp = tempDir('assay-estimates-units-')
afterAll(() => tmp.cleanup())

const UNITS = 200
const EXTRA = 40
const judgeSays = (k: number) => k % 3 === 0
const leak = (v: boolean) => ({ leak: v, evidence: '' })

async function project(name: string, expert: (k: number) => [boolean, boolean]): Promise<{ p: Project; ids: number[]; run: number }> {
  const p = await Project.create(tmp.file(`${name}.assay`))
  const tasks = Array.from({ length: UNITS + EXTRA }, (_, k) => ({ id: `t${k}`, payload: { task_id: `t${k}`, background: 'b', question: 'q', finding: 'f' } }))
  const byId = addItems(p, 'rediscovery-task', tasks)
  const ids = tasks.map((t) => byId.get(t.id) as number)
  const labelled = ids.slice(0, UNITS)
  annotate(p, 'leak-audit', labelled.map((item, k) => ({ item, judgement: leak(expert(k)[0]) })), { human: 'Expert A' })
  annotate(p, 'leak-audit', labelled.map((item, k) => ({ item, judgement: leak(expert(k)[1]) })), { human: 'Expert B' })
  const run = addRun(p, { instrument: 'leak-audit', judge: 'leak-judge' })
  addCalls(p, run, labelled.map((item, k) => ({ item, judgement: leak(judgeSays(k)) })))
  return { p, ids, run }
}

const report = (p: Project): Report => projectReport(p.db, { instrument: 'leak-audit', seed: 7 })
const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length

describe('estimates corrected for judge error count only units no person labelled as unlabelled', () => {
  it('human majority with 56 tied units: absent while every unit is labelled, then ties left out and named', async () => {
    // Units 0–55 tie (one expert says leak, the other not); the rest agree, a leak on every fifth.
    const expert = (k: number): [boolean, boolean] => (k < 56 ? [true, false] : [k % 5 === 0, k % 5 === 0])
    const { p, ids, run } = await project('ties', expert)
    try {
      expect(report(p).estimates).toBeUndefined()

      // 40 tasks only the judge labelled: these alone are unlabelled.
      addCalls(p, run, ids.slice(UNITS).map((item, k) => ({ item, judgement: leak(judgeSays(UNITS + k)) })))
      const estimates = report(p).estimates!
      const row = estimates.rows.find((r) => r.criterion === 'human-majority' && r.source === 'run:1')!
      expect([row.n_labelled, row.n_unlabelled, row.n_left_out]).toEqual([144, 40, 56])
      expect(row.left_out!.reason).toMatch(/tie/)
      expect(row.left_out!.units).toHaveLength(56)
      expect(row.left_out!.units[0]).toBe('t0')
      expect(row.warnings.join(' ')).toMatch(/not a random sample.*56 unit\(s\) are left out.*assumption does not hold/)
      expect(estimates.warnings.join(' ')).toMatch(/run:1 against human-majority/)
      // The HTML report's section carries the count, the reason and the warning.
      const page = renderReportHtml(report(p))
      expect(page).toContain('144 / 40 (56 left out: people labelled them but their labels tie')
      expect(page).toMatch(/⚠ 1 of 1 estimate\(s\) rest on labelled units that were not chosen at random/)
      // PPI from the 144 agreed units and the 40 unlabelled ones, as the formula gives it.
      const Y: number[] = [], F: number[] = []
      for (let k = 56; k < UNITS; k++) {
        Y.push(expert(k)[0] ? 1 : 0)
        F.push(judgeSays(k) ? 1 : 0)
      }
      const U = Array.from({ length: EXTRA }, (_, k) => (judgeSays(UNITS + k) ? 1 : 0))
      expect(row.ppi.value).toBeCloseTo(mean(U) + mean(Y.map((y, i) => y - F[i]!)), 12)
      expect(row.human_only.value).toBeCloseTo(mean(Y), 12)
    } finally {
      p.close()
    }
  })

  it('adjudicated with 140 agreed units: the agreed units are left out, never unlabelled, and the estimate warns', async () => {
    // Units 0–59 disagree and are adjudicated (a leak on every other one); units 60–199 agree.
    const expert = (k: number): [boolean, boolean] => (k < 60 ? [true, false] : [k % 4 === 0, k % 4 === 0])
    const { p, ids, run } = await project('adjudicated', expert)
    try {
      p.write((db) => {
        ids.slice(0, 60).forEach((itemId, k) =>
          appendAdjudication(db, { itemId, instrumentId: 'leak-audit', judgement: leak(k % 2 === 0), reason: 'r', curator: 'C', basedOn: [], supersedes: null })
        )
      })
      expect(report(p).estimates).toBeUndefined()

      addCalls(p, run, ids.slice(UNITS).map((item, k) => ({ item, judgement: leak(judgeSays(UNITS + k)) })))
      const estimates = report(p).estimates!
      const adjudicated = estimates.rows.find((r) => r.criterion === 'adjudicated')!
      expect([adjudicated.n_labelled, adjudicated.n_unlabelled, adjudicated.n_left_out]).toEqual([60, 40, 140])
      expect(adjudicated.left_out!.reason).toMatch(/not adjudicated/)
      expect(adjudicated.left_out!.units).toHaveLength(100)
      expect(adjudicated.warnings.join(' ')).toMatch(/assumption does not hold/)
      // The share is a share: PPI stays the formula on the 60 adjudicated and 40 unlabelled units.
      const Y = Array.from({ length: 60 }, (_, k) => (k % 2 === 0 ? 1 : 0))
      const F = Array.from({ length: 60 }, (_, k) => (judgeSays(k) ? 1 : 0))
      const U = Array.from({ length: EXTRA }, (_, k) => (judgeSays(UNITS + k) ? 1 : 0))
      expect(adjudicated.ppi.value).toBeCloseTo(mean(U) + mean(Y.map((y, i) => y - F[i]!)), 12)
      const majority = estimates.rows.find((r) => r.criterion === 'human-majority')!
      expect([majority.n_labelled, majority.n_unlabelled, majority.n_left_out]).toEqual([140, 40, 60])
      expect(estimates.warnings.join(' ')).toMatch(/2 of 2 estimate\(s\)/)
    } finally {
      p.close()
    }
  })

  it('units people abstained on are left out and named, and a label that came with the item is not a person\'s', async () => {
    // 26 pairs: both experts label 0–15 (0–3 tie), both abstain on 16–19, nobody answers 20–25, which carry the
    // item's own reference label; one judge answers all 26.
    const p = await Project.create(tmp.file('abstained.assay'))
    try {
      const specs = Array.from({ length: 26 }, (_, k) => ({ id: `q${k}`, origins: ['human', 'ai'] as ['human', 'ai'], ...(k >= 20 ? { label: verdictFor('a') } : {}) }))
      const ids = [...addPairs(p, specs).values()]
      const side = (k: number, expert: 0 | 1): 'a' | 'b' => ((k % 3 === 0) !== (k < 4 && expert === 1) ? 'b' : 'a')
      const say = (k: number, expert: 0 | 1) => (k >= 16 ? { verdict: 'abstain', abstain_reason: 'outside my field' } : { verdict: verdictFor(side(k, expert)), analysis: '' })
      for (const [expert, name] of [[0, 'Expert A'], [1, 'Expert B']] as const) {
        annotate(p, 'pairwise-preference', ids.slice(0, 20).map((item, k) => ({ item, judgement: say(k, expert), swapped: false })), { human: name })
      }
      const run = addRun(p, { instrument: 'pairwise-preference', judge: 'pair-judge' })
      addCalls(p, run, ids.map((item, k) => ({ item, judgement: { verdict: verdictFor(k % 2 === 0 ? 'a' : 'b'), analysis: '' } })))
      const estimates = projectReport(p.db, { instrument: 'pairwise-preference', seed: 7 }).estimates!
      const row = estimates.rows.find((r) => r.criterion === 'human-majority' && r.field === 'winner')!
      // 12 agreed; 4 ties and 4 abstentions left out; the 6 pairs only the item's label names are the unlabelled ones.
      expect([row.n_labelled, row.n_unlabelled, row.n_left_out]).toEqual([12, 6, 8])
      expect(row.left_out!.reason).toMatch(/their labels tie, so the human majority gives no value \(4\); people were shown them and abstained, so they gave no label \(4\)/)
      expect(row.left_out!.units).toEqual(['q0', 'q1', 'q2', 'q3', 'q16', 'q17', 'q18', 'q19'])
      expect(row.warnings.join(' ')).toMatch(/8 unit\(s\) are left out.*assumption does not hold/)
    } finally {
      p.close()
    }
  })
})
