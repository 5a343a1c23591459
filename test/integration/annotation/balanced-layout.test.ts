import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { assignmentContext } from '../../../src/main/annotation/blinded'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { exportPacket, VIEW_KEY } from '../../../src/main/packets'
import { EventHub } from '../../../src/main/events'
import { Project } from '../../../src/main/store/project'
import { getInstrument } from '../../../src/shared/instruments'
import { tempDir } from '../../support/tmp'

// Left/right of proposal pairs, per annotator: balanced, stable, shared between the two pair instruments.

const tmp = tempDir()
let project: Project
const hub = new EventHub()
const NAMES = Array.from({ length: 40 }, (_, i) => `Annotator ${String(i + 1).padStart(2, '0')}`)

async function call<T = any>(op: string, input: unknown): Promise<T> {
  const env = await dispatch({ project, session: curatorSession(), events: hub } satisfies ApiContext, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

interface Shown {
  itemId: number
  swapped: boolean
  rule: unknown
  humanLeft: boolean | null
}

/** What main shows one annotator for each of their assignments of an instrument. */
function layoutOf(name: string, instrument: string): Shown[] {
  const annotator = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
  const rows = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND instrument_id = ? ORDER BY id`).all(annotator.id, instrument) as Array<{ id: number }>
  return rows.map(({ id }) => {
    const ctx = assignmentContext(project, annotator, id)
    const swapped = ctx.blind.display.swapped === true
    const pair = ctx.payload as { a: { origin?: string }; b: { origin?: string } }
    const humanIsA = pair.a.origin === 'human'
    const humanIsB = pair.b.origin === 'human'
    return { itemId: ctx.assignment.item_id, swapped, rule: ctx.blind.display.rule, humanLeft: humanIsA || humanIsB ? humanIsA !== swapped : null }
  })
}

function expectBalanced(shown: ReadonlyArray<Shown>, who: string) {
  const n = shown.length
  const swapped = shown.filter((s) => s.swapped).length
  expect([Math.floor(n / 2), Math.ceil(n / 2)], `${who}: ${swapped} of ${n} swapped`).toContain(swapped)
  const withHuman = shown.filter((s) => s.humanLeft !== null)
  const left = withHuman.filter((s) => s.humanLeft).length
  expect(Math.abs(left - withHuman.length / 2), `${who}: human left in ${left} of ${withHuman.length}`).toBeLessThanOrEqual(1)
}

beforeAll(async () => {
  project = await Project.create(tmp.file('layout.assay'))
  await loadDemo(project)
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('side layout per annotator', () => {
  it('balances every one of 40 annotators over the demo pairs, one layout for preference and flaw audit', async () => {
    await call('assignments.create', { instrument: 'pairwise-preference', annotators: NAMES, overlap: NAMES.length })
    await call('assignments.create', { instrument: 'flaw-audit', annotators: NAMES, overlap: NAMES.length })
    const swapsPerItem = new Map<number, number>()
    for (const name of NAMES) {
      const pref = layoutOf(name, 'pairwise-preference')
      const flaws = layoutOf(name, 'flaw-audit')
      expect(pref.length).toBeGreaterThanOrEqual(12)
      expect(pref.every((s) => s.rule === 'balanced-per-annotator')).toBe(true)
      expectBalanced(pref, `${name} preference`)
      expectBalanced(flaws, `${name} flaw audit`)
      const prefByItem = new Map(pref.map((s) => [s.itemId, s.swapped]))
      for (const s of flaws) expect(prefByItem.get(s.itemId), `${name} item ${s.itemId}`).toBe(s.swapped)
      for (const s of pref) swapsPerItem.set(s.itemId, (swapsPerItem.get(s.itemId) ?? 0) + (s.swapped ? 1 : 0))
    }
    // Seeded per person: every pair is seen both ways round across the 40 people, not one layout for everyone.
    for (const [itemId, swaps] of swapsPerItem) expect(swaps, `item ${itemId}`).toBeGreaterThan(8)
    for (const [itemId, swaps] of swapsPerItem) expect(swaps, `item ${itemId}`).toBeLessThan(32)
  })

  it('balances partial queues too, and adding pairs later keeps the layout of the earlier ones', async () => {
    const names = NAMES.map((n) => `${n} (part)`)
    await call('assignments.create', { instrument: 'pairwise-preference', annotators: names, overlap: 7 })
    const before = new Map(names.map((n) => [n, layoutOf(n, 'pairwise-preference')]))
    for (const [name, shown] of before) expectBalanced(shown, name)
    await call('assignments.create', { instrument: 'flaw-audit', annotators: names, overlap: 23 })
    for (const name of names) {
      const after = new Map(layoutOf(name, 'pairwise-preference').map((s) => [s.itemId, s.swapped]))
      for (const s of before.get(name)!) expect(after.get(s.itemId)).toBe(s.swapped)
    }
  })

  it('puts the same layout into an annotator packet', async () => {
    const name = NAMES[0]!
    const out = tmp.file('packet.assay')
    await exportPacket(project, { annotator: name, out, instrument: 'pairwise-preference' })
    const annotator = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
    const ids = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND instrument_id = 'pairwise-preference'`).all(annotator.id) as Array<{ id: number }>
    const leftInMain = ids.map(({ id }) => (assignmentContext(project, annotator, id).blind.view.a as { markdown: string }).markdown).sort()
    const packet = new Database(out, { readonly: true, fileMustExist: true })
    try {
      const rows = packet.prepare(`SELECT payload FROM items`).all() as Array<{ payload: string }>
      const leftInPacket = rows.map((r) => (JSON.parse(r.payload)[VIEW_KEY].a as { markdown: string }).markdown).sort()
      expect(leftInPacket).toEqual(leftInMain)
    } finally {
      packet.close()
    }
  })

  it('depends on the annotator id, not the name: a rename does not reshuffle', async () => {
    const name = NAMES[3]!
    const before = layoutOf(name, 'pairwise-preference')
    project.db.prepare(`UPDATE annotators SET name = ? WHERE name = ?`).run('Renamed person', name)
    const after = layoutOf('Renamed person', 'pairwise-preference')
    expect(after).toEqual(before)
  })

  it('keeps the IdeaEval hash rule for judges, and records it', () => {
    const row = project.db.prepare(`SELECT payload, external_id FROM items WHERE kind = 'proposal-pair' LIMIT 1`).get() as { payload: string; external_id: string }
    const { display } = getInstrument('pairwise-preference').blind(JSON.parse(row.payload), { seed: project.seed, viewer: '', externalId: row.external_id })
    expect(display.rule).toBe('ideaeval-hash')
  })
})
