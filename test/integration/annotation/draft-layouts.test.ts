import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import type { SessionState } from '../../../src/main/api/context'
import { assignmentContext } from '../../../src/main/annotation/blinded'
import { layoutViewer } from '../../../src/main/annotation/layout'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { exportPacket } from '../../../src/main/packets/export'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { seededUnit } from '../../../src/shared/protocol/hash'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// Drafts record the layout they were entered in: after the layout of an item changes (an earlier assignment removed
// shifts the balance, a new order rule), a draft is shown mapped to the layout now on screen, or set aside when it cannot be.

const tmp = tempDir('assay-draft-layouts-')
afterAll(() => tmp.cleanup())

function pair(n: number, set: string): NewItem {
  const text = (side: string) => `# Proposal ${side} ${n}\n\n## Proposed Approach\n\nWe reuse the reference set ${side} for every seed.`
  return {
    kind: 'proposal-pair',
    externalId: `pair-${n}`,
    set,
    split: 'none',
    payload: { pair_id: `pair-${n}`, topic: `Topic ${n}`, a: { markdown: text('one'), origin: 'human' }, b: { markdown: text('two'), origin: 'ai' } }
  }
}

async function call<T = any>(project: Project, session: SessionState | undefined, op: string, input: unknown): Promise<T> {
  const env = await dispatch(contextFor(project, session), op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

function annotator(project: Project, name: string): SessionState {
  const row = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
  return { role: 'annotator', annotator: row, locked: true }
}

function canonicalSwap(project: Project, session: SessionState, assignmentId: number): boolean {
  return assignmentContext(project, session.annotator!, assignmentId).blind.display.swapped === true
}

describe('drafts in the layout they were entered in', () => {
  let project: Project
  let ada: SessionState
  let first: number

  let earlier: number

  beforeAll(async () => {
    project = await Project.create(tmp.file('pairs.assay'))
    project.write((db) => insertItems(db, Array.from({ length: 16 }, (_, i) => pair(i, `set-${i}`))))
    const id = project.write(() => ensureAnnotator(project, 'Ada').id)
    // An earlier pair whose seeded coin matches the draft's pair: assigned first, it decides the later pair's side
    // (every second pair of a stratum is swapped); once removed, the later pair takes its own coin, the other way.
    const coin = (n: number) => seededUnit(project.seed, `${layoutViewer(id)}:pair-${n}`) < 0.5
    const j = Array.from({ length: 15 }, (_, k) => k + 1).find((k) => coin(k) === coin(0))!
    for (const set of [`set-${j}`, 'set-0']) await call(project, undefined, 'assignments.create', { instrument: 'flaw-audit', annotators: ['Ada'], overlap: 1, set })
    ada = annotator(project, 'Ada')
    const rows = project.db.prepare(`SELECT id FROM assignments ORDER BY id`).all() as Array<{ id: number }>
    earlier = rows[0]!.id
    first = rows[1]!.id
  })
  afterAll(() => project.close())

  it('maps a draft to the sides now shown when a removed assignment changes which side is left', async () => {
    const item = await call(project, ada, 'queue.item', { assignmentId: first })
    expect(item.layout).toMatch(/^[0-9a-f]{20}$/)
    const shownLeft = item.view.a.markdown as string
    const flaw = { side: 'a', type: 'unsound-method', severity: 'fatal', evidence: 'reuse the reference set', note: 'left one', evidence_at: null }
    const draft = { flaws: [flaw], comment: 'about the left proposal' }
    await call(project, ada, 'annotations.saveDraft', { assignmentId: first, data: draft, activeMs: 1000, layout: item.layout })
    const swappedBefore = canonicalSwap(project, ada, first)

    // The earlier assignment is removed: the balance now shows this pair the other way round.
    project.write(() => project.db.prepare(`DELETE FROM assignments WHERE id = ?`).run(earlier))
    expect(canonicalSwap(project, ada, first), 'the layout of the first pair changed').toBe(!swappedBefore)

    const again = await call(project, ada, 'queue.item', { assignmentId: first })
    expect(again.layout).not.toBe(item.layout)
    // The proposal that was on the left is now on the right, and the flaw follows it.
    expect(again.view.b.markdown).toBe(shownLeft)
    expect(again.draft.data).toEqual({ flaws: [{ ...flaw, side: 'b' }], comment: 'about the left proposal' })
    expect(again.draftSetAside).toBeNull()

    // A save from a page still showing the old layout is refused, not stored under the new mapping.
    await expect(call(project, ada, 'annotations.saveDraft', { assignmentId: first, data: draft, activeMs: 1000, layout: item.layout })).rejects.toMatchObject({
      code: 'conflict'
    })
    expect((await call(project, ada, 'queue.item', { assignmentId: first })).draft.data.flaws[0].side).toBe('b')
  })

  it('carries a draft into a packet in the layout the packet shows', async () => {
    const now = await call(project, ada, 'queue.item', { assignmentId: first })
    const out = tmp.file('ada-packet.assay')
    await exportPacket(project, { annotator: 'Ada', out })
    const packet = await Project.open(out)
    try {
      const rows = packet.db.prepare(`SELECT i.payload, d.data FROM drafts d JOIN items i ON i.id = d.item_id`).all() as Array<{ payload: string; data: string }>
      expect(rows).toHaveLength(1)
      const view = Object.values(JSON.parse(rows[0]!.payload) as Record<string, { b: { markdown: string } }>)[0]!
      // The packet shows the sides as the project shows them now, and the draft's flaw names the same proposal.
      expect(view.b.markdown).toBe(now.view.b.markdown)
      expect(JSON.parse(rows[0]!.data)).toEqual(now.draft.data)
      expect(JSON.parse(rows[0]!.data).flaws[0].side).toBe('b')
    } finally {
      packet.close()
    }
  })

  it('sets aside a draft that cannot be carried over, says so, and keeps it when a new draft is saved', async () => {
    const item = await call(project, ada, 'queue.item', { assignmentId: first })
    // A flaw begun without a side cannot be placed on either side of another layout.
    const half = { flaws: [{ side: null, type: null, severity: null, evidence: '', note: 'half begun' }], comment: '' }
    await call(project, ada, 'annotations.saveDraft', { assignmentId: first, data: half, activeMs: 500, layout: item.layout })
    // The layout this draft was entered in, as an older rule would have shown it: the other way round.
    const flipped = { ...assignmentContext(project, ada.annotator!, first).blind.display }
    flipped.swapped = !flipped.swapped
    project.write(() => project.db.prepare(`UPDATE drafts SET display = ?`).run(JSON.stringify(flipped)))

    const shown = await call(project, ada, 'queue.item', { assignmentId: first })
    expect(shown.draft).toBeNull()
    // What was written in it is given back to be taken up again; its choices (the side) are not.
    expect(shown.draftSetAside).toEqual({ updatedAt: expect.any(String), texts: [{ label: 'Flaw 1 · Note', text: 'half begun' }] })

    await call(project, ada, 'annotations.saveDraft', { assignmentId: first, data: { flaws: [], comment: 'fresh' }, activeMs: 10, layout: shown.layout })
    const kept = project.db.prepare(`SELECT data, display FROM drafts_set_aside`).all() as Array<{ data: string; display: string }>
    expect(kept.map((k) => JSON.parse(k.data))).toEqual([half])
    expect(JSON.parse(kept[0]!.display)).toEqual(flipped)
    const after = await call(project, ada, 'queue.item', { assignmentId: first })
    expect(after.draft.data).toEqual({ flaws: [], comment: 'fresh' })
    expect(after.draftSetAside).toMatchObject({ updatedAt: expect.any(String), texts: [{ label: 'Flaw 1 · Note', text: 'half begun' }] })
  })
})

describe('hypothesis-set drafts in the order they were entered in', () => {
  let project: Project
  let ada: SessionState
  let assignmentId: number

  beforeAll(async () => {
    project = await Project.create(tmp.file('demo.assay'))
    await loadDemo(project)
    await call(project, undefined, 'assignments.create', { instrument: 'hypothesis-match', annotators: ['Ada'], overlap: 1 })
    ada = annotator(project, 'Ada')
    assignmentId = (project.db.prepare(`SELECT id FROM assignments WHERE instrument_id = 'hypothesis-match' ORDER BY id`).get() as { id: number }).id
  })
  afterAll(() => project.close())

  it('maps each score to the hypothesis it was given to when the display order is not the one it was entered in', async () => {
    const item = await call(project, ada, 'queue.item', { assignmentId })
    const ids = (item.view.hypotheses as Array<{ id: string; text?: string }>).map((h) => h.id)
    expect(ids.length).toBeGreaterThanOrEqual(2)
    const scores = ids.map((id, k) => ({ id, match: k === 0 ? 4 : null, compatible: null, plausibility: null, reason: k === 0 ? 'first shown' : '' }))
    await call(project, ada, 'annotations.saveDraft', { assignmentId, data: { scores }, activeMs: 0, layout: item.layout })

    // Entered under an order with the first two hypotheses the other way round.
    const current = assignmentContext(project, ada.annotator!, assignmentId).blind.display as { order: string[] }
    const older = { ...current, order: [current.order[1]!, current.order[0]!, ...current.order.slice(2)] }
    project.write(() => project.db.prepare(`UPDATE drafts SET display = ?`).run(JSON.stringify(older)))
    const mapped = await call(project, ada, 'queue.item', { assignmentId })
    const byId = new Map((mapped.draft.data.scores as Array<{ id: string; match: number | null; reason: string }>).map((s) => [s.id, s]))
    // What was P1 then is the hypothesis now shown second.
    expect(byId.get(ids[1]!)).toMatchObject({ match: 4, reason: 'first shown' })
    expect(byId.get(ids[0]!)).toMatchObject({ match: null, reason: '' })

    // Entered under an order of other hypotheses: not read against these.
    const other = { ...current, order: current.order.map((id) => `${id}-old`) }
    project.write(() => project.db.prepare(`UPDATE drafts SET display = ?`).run(JSON.stringify(other)))
    const aside = await call(project, ada, 'queue.item', { assignmentId })
    expect(aside.draft).toBeNull()
    expect(aside.draftSetAside).not.toBeNull()
  })
})
