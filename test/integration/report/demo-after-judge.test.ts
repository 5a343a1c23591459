import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { EventHub } from '../../../src/main/events'
import { Project } from '../../../src/main/store/project'
import { demoProject, KEYS } from '../runner/helpers'
import { assignmentContext } from '../../../src/main/annotation/blinded'

// The whole loop on the bundled demo: two experts annotate blind, a judge answers the same pairs in both orders
// (through the real SDK against the loopback fake), and the report puts them side by side.
const tmp = tempDir()
let fake: FakeProviders
const path = tmp.file('demo.assay')
const saved = { ...process.env }

async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw new Error(`${op}: ${env.error.message}`)
  return env.value as T
}

beforeAll(async () => {
  // A judge that prefers whichever proposal is shown first: position bias the report must expose.
  fake = await startFakeProviders({
    apiKeys: { openai: KEYS.openai },
    responder: () => '```json\n{"analysis":"first looks stronger","verdict":"A_better","fatal_flaws":[]}\n```'
  })
  const project = await demoProject(path)
  const hub = new EventHub()
  const curator: ApiContext = { project, session: curatorSession(), events: hub }
  await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 2 })
  const labels = new Map(
    (project.db.prepare(`SELECT id, json_extract(payload, '$.label') AS label FROM items WHERE kind = 'proposal-pair'`).all() as Array<{ id: number; label: string }>).map((r) => [r.id, r.label])
  )
  for (const name of ['Ada', 'Ben']) {
    const ctx: ApiContext = { project, session: curatorSession(), events: hub }
    await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
    const { rows } = await call(ctx, 'queue.list', { instrument: 'pairwise-preference' })
    for (const [k, r] of (rows as Array<{ assignmentId: number }>).entries()) {
      const item = project.db.prepare(`SELECT item_id FROM assignments WHERE id = ?`).get(r.assignmentId) as { item_id: number }
      const label = labels.get(item.item_id)!
      // Ben disagrees with the expert label on every fourth pair he sees; answers go in display terms, so the
      // canonical label is mapped through the annotator's own view.
      const flip = name === 'Ben' && k % 4 === 0
      const canonicalWinner = label.startsWith('a_') !== flip ? 'a' : 'b'
      const me = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
      const swapped = assignmentContext(project, me, r.assignmentId).blind.display.swapped === true
      const displayWinner = swapped ? (canonicalWinner === 'a' ? 'b' : 'a') : canonicalWinner
      await call(ctx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { verdict: `${displayWinner}_better` }, activeMs: 1000 })
    }
  }
  project.close()
  process.env.OPENAI_API_KEY = KEYS.openai
  const run = await runCli(
    'judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--both-orders', '--seed', 'demo'
  )
  expect(run.stderr + run.stdout).not.toContain(KEYS.openai)
  expect(run.code).toBe(0)
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

describe('the audit of the demo after a judge run', () => {
  it('reports accuracy with both denominators and intervals beside the majority and random baselines', async () => {
    const r = await runCli('report', path, '--instrument', 'pairwise-preference', '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    const judge = report.pairwise.rows.find((x: { source: string; criterion: string }) => x.source.startsWith('run:') && x.criterion.startsWith('label'))
    expect(judge).toBeDefined()
    expect(judge.n_in_scope).toBe(24)
    expect(judge.n_judged).toBe(24)
    expect(judge.accuracy).toBeCloseTo(judge.correct / 24, 12)
    expect(judge.majority_baseline).toBeCloseTo(8 / 12, 12)
    expect(judge.random_baseline).toBe(0.5)
    expect(judge.ci.accuracy.ci_low).toBeLessThan(judge.accuracy)
    expect(judge.ci.accuracy_bootstrap.resamples).toBeGreaterThanOrEqual(2000)
    // "A is better" whatever is shown: half the calls agree with each label, and it is below the majority baseline.
    expect(judge.accuracy).toBe(0.5)
    expect(judge.below_majority_baseline).toBe(true)
    expect(report.warnings.map((w: { code?: string; message?: string }) => JSON.stringify(w)).join(' ')).toMatch(/majority/i)
  })

  it('exposes the position bias of a judge that always picks the first proposal', async () => {
    const report = JSON.parse((await runCli('report', path, '--instrument', 'pairwise-preference', '--json')).stdout)
    const pos = report.pairwise.position.find((p: { source: string }) => p.source.startsWith('run:'))
    expect(pos.first_position_preference).toBe(1)
    expect(pos.position_consistency).toBe(0)
  })

  it('puts human–human agreement beside judge–human agreement', async () => {
    const report = JSON.parse((await runCli('report', path, '--instrument', 'pairwise-preference', '--json')).stdout)
    expect(report.ceiling).toBeTruthy()
    expect(JSON.stringify(report.ceiling)).toMatch(/annotator:A0[12]/)
    const ids = report.sources.map((s: { id: string }) => s.id)
    expect(ids).toEqual(expect.arrayContaining(['human-majority', 'annotator:A01', 'annotator:A02']))
  })

  it('writes a self-contained HTML report with its plots', async () => {
    const html = tmp.file('report.html')
    expect((await runCli('report', path, '--instrument', 'pairwise-preference', '--html', html)).code).toBe(0)
    const text = readFileSync(html, 'utf8')
    expect((text.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(3)
    expect(text).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/)
  })

  it('leaves the project file readable and the key out of it', async () => {
    const project = await Project.open(path)
    expect(project.db.pragma('integrity_check', { simple: true })).toBe('ok')
    project.close()
    expect(readFileSync(path).includes(Buffer.from(KEYS.openai))).toBe(false)
  })
})
