import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssayError } from '../../../src/shared/errors'
import { assignmentContext } from '../../../src/main/annotation/blinded'
import { exportPacket, mergePackets } from '../../../src/main/packets'
import { currentAnnotations, type AnnotationRow } from '../../../src/main/store/annotations'
import { insertItems } from '../../../src/main/store/items'
import { openDatabase } from '../../../src/main/store/database'
import { MIGRATIONS } from '../../../src/main/store/migrations'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { annotatorSession, call, ctxFor, MARK, markedPairs, markedProject, SEED, sideText } from './support'

const MIRROR: Record<string, string> = { a_much_better: 'b_much_better', a_better: 'b_better', b_better: 'a_better', b_much_better: 'a_much_better' }

const tmp = tempDir('assay-packets-')
let project: Project

function annotatorRef(name: string): { id: number; name: string } {
  return project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
}

/** Every row of the tables a merge may touch, so "changes nothing" can be checked exactly. */
function projectState(p: Project = project): string {
  const dump = (sql: string) => JSON.stringify(p.db.prepare(sql).all())
  return [
    dump(`SELECT * FROM annotations ORDER BY rowid`),
    dump(`SELECT * FROM assignments ORDER BY id`),
    dump(`SELECT * FROM packets ORDER BY id`),
    dump(`SELECT * FROM drafts ORDER BY annotator_id, item_id`)
  ].join('\n')
}

/** A file's bytes with any journal beside it: for a packet, what would travel to the annotator. */
function packetBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`, `${path}-journal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)))
}

function withFile<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path)
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

/** Opens a packet as `assay serve` would: a session locked to its annotator. */
async function openPacket(path: string) {
  const packet = await Project.open(path)
  const name = packet.meta('packet_annotator')!
  return { packet, ctx: ctxFor(packet, annotatorSession(packet, name)) }
}

async function queue(ctx: ReturnType<typeof ctxFor>, instrument: string): Promise<number[]> {
  return ((await call(ctx, 'queue.list', { instrument })).rows as Array<{ assignmentId: number }>).map((r) => r.assignmentId)
}

beforeAll(async () => {
  ;({ project } = await markedProject(tmp.file('main.assay'), 6))
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('packet export', () => {
  it("holds only the annotator's assignments, as blinded views in their display order, and no hidden byte", async () => {
    const out = tmp.file('ada-1.assay')
    const result = await exportPacket(project, { annotator: 'Ada', out })
    expect(result).toMatchObject({ annotator: 'Ada', assignments: 12, answers: 0, instruments: { 'pairwise-preference': 6, 'flaw-audit': 6 } })

    // The marker is everywhere in the project, so its absence from the packet is meaningful.
    expect(packetBytes(tmp.file('main.assay')).includes(MARK)).toBe(true)
    const bytes = packetBytes(out)
    expect(bytes.includes(MARK)).toBe(false)
    expect(bytes.includes(SEED)).toBe(false)
    expect(bytes.includes('900000000')).toBe(false)
    // No display mapping travels, neither as a stored mapping nor as a key.
    expect(bytes.includes('swapped')).toBe(false)
    // The views did travel.
    expect(bytes.includes(sideText(3, 'b').approach)).toBe(true)

    const { packet, ctx } = await openPacket(out)
    try {
      expect(packet.isPacket).toBe(true)
      expect(packet.id).toBe(project.id)
      expect(packet.seed).not.toBe(SEED)
      expect(packet.db.prepare(`SELECT count(*) AS n FROM annotators`).get()).toEqual({ n: 1 })
      for (const table of ['model_calls', 'runs', 'judges', 'adjudications', 'exposures', 'imports', 'packets', 'annotations']) {
        expect(packet.db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 })
      }
      // Each packet assignment shows exactly the view Ada sees in the project, under an opaque id.
      const ada = annotatorRef('Ada')
      const opaque = packet.db.prepare(`SELECT external_id FROM items`).all() as Array<{ external_id: string }>
      expect(opaque.every((r) => /^item-[0-9a-f]{12}$/.test(r.external_id))).toBe(true)
      const map = project.db.prepare(`SELECT opaque_id, assignment_id FROM packet_items WHERE packet_id = ?`).all(result.packetId) as Array<{ opaque_id: string; assignment_id: number }>
      expect(map).toHaveLength(12)
      let swapped = 0
      for (const m of map) {
        const main = assignmentContext(project, ada, m.assignment_id)
        const local = packet.db.prepare(`SELECT s.id FROM assignments s JOIN items i ON i.id = s.item_id WHERE i.external_id = ?`).get(m.opaque_id) as { id: number }
        const item = await call(ctx, 'queue.item', { assignmentId: local.id })
        expect(item.view).toEqual(main.blind.view)
        expect(item.instrument).toBe(main.instrument.id)
        if (main.blind.display.swapped) swapped++
      }
      // Under this seed some of Ada's pairs are shown swapped, some not (both directions are exercised below).
      expect(swapped).toBeGreaterThan(0)
      expect(swapped).toBeLessThan(12)
      // Curator operations are refused in the packet.
      await expect(call(ctx, 'items.list', {})).rejects.toMatchObject({ code: 'forbidden' })
    } finally {
      packet.close()
    }
  })

  it('refuses an unknown annotator, an empty selection and an existing file', async () => {
    await expect(exportPacket(project, { annotator: 'Nobody', out: tmp.file('x.assay') })).rejects.toMatchObject({ code: 'not_found' })
    await expect(exportPacket(project, { annotator: 'Ada', instrument: 'cue-rating', out: tmp.file('x.assay') })).rejects.toThrow(/no assignments matching instrument cue-rating/)
    await expect(exportPacket(project, { annotator: 'Ada', out: tmp.file('ada-1.assay') })).rejects.toMatchObject({ code: 'conflict' })
    expect(existsSync(tmp.file('x.assay'))).toBe(false)
  })

  it('never replaces another project, even when told to overwrite', async () => {
    const other = tmp.file('other-project.assay')
    ;(await Project.create(other)).close()
    const before = readFileSync(other)
    await expect(exportPacket(project, { annotator: 'Ada', out: other, overwrite: true })).rejects.toThrow(/SQLite database/)
    await expect(exportPacket(project, { annotator: 'Ada', out: project.path, overwrite: true })).rejects.toThrow(/project/)
    expect(readFileSync(other).equals(before)).toBe(true)
  })
})

describe('annotating in a packet', () => {
  it('checks what the view supports offline: a flaw quote must be in the proposal as shown', async () => {
    const { packet, ctx } = await openPacket(tmp.file('ada-1.assay'))
    try {
      const [first] = await queue(ctx, 'flaw-audit')
      const item = await call(ctx, 'queue.item', { assignmentId: first })
      const leftText = (item.view.a as { markdown: string }).markdown
      const quote = /Approach [ab] \d+: we measure/.exec(leftText)![0]
      await expect(
        call(ctx, 'annotations.submit', { assignmentId: first, judgement: { flaws: [{ side: 'b', type: 'other', severity: 'minor', evidence: quote }] }, activeMs: 5 })
      ).rejects.toMatchObject({ code: 'invalid_answer', message: 'The evidence is not an exact quote of the right proposal (B).' })
      const ok = await call(ctx, 'annotations.submit', {
        assignmentId: first,
        judgement: { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: quote }] },
        activeMs: 5
      })
      expect(ok.supersedes).toBeNull()
    } finally {
      packet.close()
    }
  })
})

describe('merge', () => {
  let answered: Map<string, { verdict: string; swapped: boolean }>
  let adaPacketId: string
  let before: string

  beforeAll(async () => {
    before = projectState()
    const { packet, ctx } = await openPacket(tmp.file('ada-1.assay'))
    adaPacketId = packet.meta('packet_id')!
    answered = new Map()
    /** Whether Ada's screen showed the pair of a packet assignment swapped (known only to the project). */
    const swappedIn = (localAssignmentId: number): boolean => {
      const opaque = (packet.db.prepare(`SELECT i.external_id FROM assignments s JOIN items i ON i.id = s.item_id WHERE s.id = ?`).get(localAssignmentId) as { external_id: string }).external_id
      const main = project.db.prepare(`SELECT assignment_id FROM packet_items WHERE packet_id = ? AND opaque_id = ?`).get(adaPacketId, opaque) as { assignment_id: number }
      return assignmentContext(project, annotatorRef('Ada'), main.assignment_id).blind.display.swapped === true
    }
    try {
      const verdicts = ['a_much_better', 'a_better', 'b_better', 'b_much_better', 'a_better', 'b_better']
      const ids = await queue(ctx, 'pairwise-preference')
      for (const [i, id] of ids.entries()) {
        const r = await call(ctx, 'annotations.submit', { assignmentId: id, judgement: { verdict: verdicts[i], analysis: 'mine' }, activeMs: 1000 + i })
        answered.set(r.annotationId, { verdict: verdicts[i]!, swapped: swappedIn(id) })
      }
      // A revision chain: withdraw the last answer, then answer again.
      const last = ids[ids.length - 1]!
      const head = (await call(ctx, 'queue.item', { assignmentId: last })).answer
      await call(ctx, 'annotations.undo', { annotationId: head.id })
      const again = await call(ctx, 'annotations.submit', { assignmentId: last, judgement: { verdict: 'a_much_better' }, activeMs: 7 })
      answered.set(again.annotationId, { verdict: 'a_much_better', swapped: swappedIn(last) })
      // Skip one flaw audit with a reason.
      const flaws = await queue(ctx, 'flaw-audit')
      await call(ctx, 'queue.setStatus', { assignmentId: flaws[1], status: 'skipped', reason: 'outside my field' })
    } finally {
      packet.close()
    }
  })

  it('maps display answers to canonical order, keeps ids, times and revision chains, and marks the origin', async () => {
    expect(projectState()).toBe(before)
    const [report] = await mergePackets(project, [tmp.file('ada-1.assay')])
    // 6 answers + withdrawal + new answer to pairwise, 1 flaw audit.
    expect(report).toMatchObject({ annotator: 'Ada', assignments: 12, added: 9, alreadyPresent: 0, rebased: 0, statusesChanged: 8 })
    const rows = project.db.prepare(`SELECT * FROM annotations WHERE origin = ? ORDER BY created_at, rowid`).all(`packet:${adaPacketId}`) as AnnotationRow[]
    expect(rows).toHaveLength(9)
    const packetRows = withFile(tmp.file('ada-1.assay'), (db) => db.prepare(`SELECT * FROM annotations`).all() as AnnotationRow[])
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(packetRows.map((r) => r.id)))
    for (const r of rows) {
      const original = packetRows.find((p) => p.id === r.id)!
      expect(r.created_at).toBe(original.created_at)
      expect(r.supersedes).toBe(original.supersedes)
      expect(r.retracted).toBe(original.retracted)
      expect(r.active_ms).toBe(original.active_ms)
      expect(r.annotator_id).toBe(annotatorRef('Ada').id)
      const ctx = assignmentContext(project, annotatorRef('Ada'), r.assignment_id!)
      // The display mapping is recomputed in the project and stored with the answer.
      expect(JSON.parse(r.display)).toEqual(ctx.blind.display)
      const given = answered.get(r.id)
      if (given && r.instrument_id === 'pairwise-preference') {
        expect(JSON.parse(r.judgement).verdict).toBe(given.swapped ? MIRROR[given.verdict] : given.verdict)
      }
    }
    expect(rows.filter((r) => r.retracted === 1)).toHaveLength(1)
    const flaw = rows.find((r) => r.instrument_id === 'flaw-audit')!
    const flawCtx = assignmentContext(project, annotatorRef('Ada'), flaw.assignment_id!)
    // The quote was taken from the left proposal: canonical b when the pair was shown swapped.
    expect(JSON.parse(flaw.judgement).flaws[0].side).toBe(flawCtx.blind.display.swapped ? 'b' : 'a')
    const statuses = project.db.prepare(`SELECT status, status_reason, count(*) AS n FROM assignments WHERE annotator_id = ? GROUP BY status, status_reason ORDER BY status`).all(annotatorRef('Ada').id)
    expect(statuses).toEqual([
      { status: 'done', status_reason: null, n: 7 },
      { status: 'pending', status_reason: null, n: 4 },
      { status: 'skipped', status_reason: 'outside my field', n: 1 }
    ])
    const current = currentAnnotations(project.db, 'pairwise-preference').filter((a) => a.annotator_id === annotatorRef('Ada').id)
    expect(current).toHaveLength(6)
  })

  it('changes nothing when the same packet is merged again (also through the CLI)', async () => {
    const state = projectState()
    const [again] = await mergePackets(project, [tmp.file('ada-1.assay')])
    expect(again).toMatchObject({ added: 0, alreadyPresent: 9, rebased: 0, statusesChanged: 0 })
    expect(projectState()).toBe(state)
    project.close()
    const cli = await runCli('packet', 'merge', tmp.file('main.assay'), tmp.file('ada-1.assay'), '--json')
    expect(cli.code).toBe(0)
    expect(JSON.parse(cli.stdout).packets[0]).toMatchObject({ added: 0, alreadyPresent: 9 })
    project = await Project.open(tmp.file('main.assay'))
    expect(projectState()).toBe(state)
  })

  it('appends after a newer revision made in the project meanwhile, so each answer keeps one chain', async () => {
    const ada = ctxFor(project, annotatorSession(project, 'Ada'))
    const out = tmp.file('ada-2.assay')
    const result = await exportPacket(project, { annotator: 'Ada', instrument: 'pairwise-preference', out })
    // The packet carries Ada's own revisions (in display terms) so work continues where it stood.
    expect(result.answers).toBe(8)
    const { packet, ctx } = await openPacket(out)
    const [first] = await queue(ctx, 'pairwise-preference')
    const shown = await call(ctx, 'queue.item', { assignmentId: first })
    expect(shown.answer).not.toBeNull()
    const inPacket = await call(ctx, 'annotations.submit', { assignmentId: first, judgement: { verdict: 'b_much_better' }, activeMs: 3 })
    expect(inPacket.supersedes).toBe(shown.answer.id)
    const opaque = (packet.db.prepare(`SELECT i.external_id FROM assignments s JOIN items i ON i.id = s.item_id WHERE s.id = ?`).get(first) as { external_id: string }).external_id
    packet.close()
    const mainAssignment = (project.db.prepare(`SELECT assignment_id FROM packet_items WHERE opaque_id = ?`).get(opaque) as { assignment_id: number }).assignment_id
    // Meanwhile Ada corrects the same answer in the workbench.
    const inProject = await call(ada, 'annotations.submit', { assignmentId: mainAssignment, judgement: { verdict: 'a_better' }, activeMs: 4 })

    const [report] = await mergePackets(project, [out])
    expect(report).toMatchObject({ added: 1, alreadyPresent: 8, rebased: 1 })
    const chain = project.db.prepare(`SELECT id, supersedes FROM annotations WHERE assignment_id = ?`).all(mainAssignment) as Array<{ id: string; supersedes: string | null }>
    expect(chain.find((r) => r.id === inPacket.annotationId)!.supersedes).toBe(inProject.annotationId)
    expect(currentAnnotations(project.db, 'pairwise-preference').filter((a) => a.assignment_id === mainAssignment).map((a) => a.id)).toEqual([inPacket.annotationId])
  })
})

describe('merge refusals (nothing partial)', () => {
  async function refusedWithoutChange(paths: string[], pattern: RegExp): Promise<void> {
    const state = projectState()
    const error = await mergePackets(project, paths).then(
      () => null,
      (e: AssayError) => e
    )
    // The message says what was refused; the details name each problem (the CLI prints both).
    expect([error?.message, ...(error?.details ?? []).map((d) => d.message)].join('\n')).toMatch(pattern)
    expect(projectState()).toBe(state)
  }

  async function benPacket(name: string): Promise<string> {
    const out = tmp.file(name)
    await exportPacket(project, { annotator: 'Ben', out })
    const { packet, ctx } = await openPacket(out)
    for (const id of await queue(ctx, 'pairwise-preference')) await call(ctx, 'annotations.submit', { assignmentId: id, judgement: { verdict: 'a_better' }, activeMs: 1 })
    packet.close()
    return out
  }

  it('refuses a packet of another project', async () => {
    const other = await Project.create(tmp.file('other.assay'))
    other.write((db) => insertItems(db, markedPairs(2, 'OTHER')))
    await call(ctxFor(other), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada'], overlap: 1 })
    await exportPacket(other, { annotator: 'Ada', out: tmp.file('other-ada.assay') })
    other.close()
    await refusedWithoutChange([tmp.file('other-ada.assay')], /belongs to another project .* Nothing was merged\./)
    const cli = await runCli('packet', 'merge', tmp.file('main.assay'), tmp.file('other-ada.assay'))
    // (The in-process CLI opens the project file a second time; it refuses the same way.)
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain('belongs to another project')
  })

  it('refuses a packet whose assignments were altered: removed, added, moved, or a view edited', async () => {
    const good = await benPacket('ben.assay')
    const variant = (name: string, edit: (db: Database.Database) => void): string => {
      const path = tmp.file(name)
      copyFileSync(good, path)
      withFile(path, edit)
      return path
    }
    const removed = variant('ben-removed.assay', (db) => {
      db.exec(`DROP TRIGGER annotations_no_delete`)
      const victim = (db.prepare(`SELECT id FROM assignments ORDER BY id LIMIT 1`).get() as { id: number }).id
      db.prepare(`DELETE FROM annotations WHERE assignment_id = ?`).run(victim)
      db.prepare(`DELETE FROM assignments WHERE id = ?`).run(victim)
    })
    await refusedWithoutChange([removed], /assignments differ from the ones exported; the packet was altered/)
    const added = variant('ben-added.assay', (db) => {
      const item = Number(db.prepare(`INSERT INTO items (kind, external_id, payload, created_at) VALUES ('proposal-pair', 'item-000000000000', '{"$view":{"topic":null,"a":{"markdown":"x"},"b":{"markdown":"y"}}}', 'now')`).run().lastInsertRowid)
      db.prepare(`INSERT INTO assignments (annotator_id, item_id, instrument_id, position) VALUES (1, ?, 'pairwise-preference', 99)`).run(item)
    })
    await refusedWithoutChange([added], /assignment item-000000000000 was not in the packet as exported/)
    const moved = variant('ben-moved.assay', (db) => db.exec(`UPDATE assignments SET instrument_id = 'flaw-audit' WHERE id = (SELECT min(id) FROM assignments)`))
    await refusedWithoutChange([moved], /was moved to instrument flaw-audit/)
    // Exchanging the two proposals of a view would silently invert every answer to it.
    const edited = variant('ben-edited.assay', (db) => {
      const row = db.prepare(`SELECT id, payload FROM items ORDER BY id LIMIT 1`).get() as { id: number; payload: string }
      const payload = JSON.parse(row.payload)
      ;[payload.$view.a, payload.$view.b] = [payload.$view.b, payload.$view.a]
      db.prepare(`UPDATE items SET payload = ? WHERE id = ?`).run(JSON.stringify(payload), row.id)
    })
    await refusedWithoutChange([edited], /was edited/)
    // A good packet merged together with a bad one: neither is merged.
    await refusedWithoutChange([good, edited], /was edited/)
    expect(project.db.prepare(`SELECT count(*) AS n FROM annotations a JOIN annotators p ON p.id = a.annotator_id WHERE p.name = 'Ben'`).get()).toEqual({ n: 0 })
    const [ok] = await mergePackets(project, [good])
    expect(ok).toMatchObject({ annotator: 'Ben', added: 6 })
  })

  it('refuses answers that are not the annotator’s, do not pass the checks on the real item, or were changed after a merge', async () => {
    const out = tmp.file('ada-3.assay')
    await exportPacket(project, { annotator: 'Ada', instrument: 'flaw-audit', out })
    const variant = (name: string, edit: (db: Database.Database) => void): string => {
      const path = tmp.file(name)
      copyFileSync(out, path)
      withFile(path, edit)
      return path
    }
    const foreign = variant('ada-foreign.assay', (db) => {
      const other = Number(db.prepare(`INSERT INTO annotators (name, pseudonym) VALUES ('Mallory', 'A99')`).run().lastInsertRowid)
      const s = db.prepare(`SELECT id, item_id FROM assignments WHERE status = 'pending' ORDER BY id LIMIT 1`).get() as { id: number; item_id: number }
      db.prepare(
        `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, annotator_id, source_kind, source_name, judgement, assignment_id) VALUES ('11111111-1111-4111-8111-111111111111', ?, 'flaw-audit', 1, ?, 'human', 'Mallory', '{"flaws":[]}', ?)`
      ).run(s.item_id, other, s.id)
    })
    await refusedWithoutChange([foreign], /answer 11111111-1111-4111-8111-111111111111 is not Ada's/)
    const badQuote = variant('ada-bad-quote.assay', (db) => {
      const s = db.prepare(`SELECT id, item_id FROM assignments WHERE status = 'pending' ORDER BY id LIMIT 1`).get() as { id: number; item_id: number }
      db.prepare(
        `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, annotator_id, source_kind, source_name, judgement, assignment_id) VALUES ('22222222-2222-4222-8222-222222222222', ?, 'flaw-audit', 1, 1, 'human', 'Ada', ?, ?)`
      ).run(s.item_id, JSON.stringify({ flaws: [{ side: 'a', type: 'other', severity: 'fatal', evidence: 'words in neither proposal' }] }), s.id)
    })
    await refusedWithoutChange([badQuote], /do not pass the checks .*not an exact quote/s)
    // The flaw audit merged before (same id) now says something else.
    const rewritten = variant('ada-rewritten.assay', (db) => {
      db.exec(`DROP TRIGGER annotations_no_update`)
      db.prepare(`UPDATE annotations SET judgement = '{"flaws":[],"no_flaws_found":true}'`).run()
    })
    await refusedWithoutChange([rewritten], /differs from the answer with the same id in this project/)
  })

  it('refuses answers with forged times: not a date, in the future, before the packet, negative or huge active time', async () => {
    const good = await benPacket('ben-times.assay')
    const variant = (name: string, sql: string): string => {
      const path = tmp.file(name)
      copyFileSync(good, path)
      withFile(path, (db) => {
        db.exec(`DROP TRIGGER annotations_no_update`)
        db.exec(sql)
      })
      return path
    }
    // The newest answer: earlier ones of Ben's may be carried revisions the project already holds.
    const newest = `WHERE rowid = (SELECT max(rowid) FROM annotations)`
    await refusedWithoutChange([variant('ben-nodate.assay', `UPDATE annotations SET created_at = 'not-a-date' ${newest}`)], /created_at "not-a-date" is not an ISO 8601 time/)
    await refusedWithoutChange([variant('ben-2099.assay', `UPDATE annotations SET created_at = '2099-01-01T00:00:00.000Z' ${newest}`)], /created_at 2099-01-01T00:00:00.000Z is in the future/)
    await refusedWithoutChange([variant('ben-1999.assay', `UPDATE annotations SET created_at = '1999-01-01T00:00:00.000Z' ${newest}`)], /is before the packet was made/)
    await refusedWithoutChange([variant('ben-negative.assay', `UPDATE annotations SET active_ms = -5 ${newest}`)], /active_ms -5 must be a whole number/)
    await refusedWithoutChange([variant('ben-huge.assay', `UPDATE annotations SET active_ms = 9000000000000 ${newest}`)], /active_ms 9000000000000 must be a whole number/)
  })

  it('names the packet file when it is damaged', async () => {
    const broken = tmp.file('ada-broken.assay')
    copyFileSync(tmp.file('ada-3.assay'), broken)
    withFile(broken, (db) => db.prepare(`UPDATE items SET payload = '{"$view": [' WHERE id = (SELECT min(id) FROM items)`).run())
    await refusedWithoutChange([broken], new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: item .* the packet file is damaged`))
    const junk = tmp.file('junk-packet.assay')
    writeFileSync(junk, Buffer.alloc(8192, 0x41))
    await refusedWithoutChange([junk], new RegExp(junk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  })

  it('refuses a packet the project did not make, and a file that is not a packet', async () => {
    const forged = tmp.file('forged.assay')
    copyFileSync(tmp.file('ada-3.assay'), forged)
    withFile(forged, (db) => db.prepare(`UPDATE meta SET value = 'f0f0f0f0-0000-4000-8000-000000000000' WHERE key = 'packet_id'`).run())
    await refusedWithoutChange([forged], /packet f0f0f0f0-0000-4000-8000-000000000000 was not made from this project file/)
    await refusedWithoutChange([tmp.file('other.assay')], /is not an annotator packet/)
    await refusedWithoutChange([tmp.file('missing.assay')], /No project file/)
  })
})

describe('packets of an older schema', () => {
  it('are upgraded on a temporary copy for merging; the packet file itself is left as it was', async () => {
    const old = tmp.file('ada-old-schema.assay')
    // A real schema-1 file holding the packet's data: whatever later migrations add is simply not there.
    ;(await openDatabase(old, { create: true, migrations: MIGRATIONS.slice(0, 1) })).close()
    withFile(old, (db) => {
      db.prepare(`ATTACH DATABASE ? AS packet`).run(tmp.file('ada-1.assay'))
      const tables = db.prepare(`SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]
      for (const { name } of tables) {
        const columns = (db.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).all(name) as { name: string }[]).map((c) => `"${c.name}"`).join(', ')
        db.exec(`INSERT INTO main."${name}" (${columns}) SELECT ${columns} FROM packet."${name}"`)
      }
      db.exec('DETACH DATABASE packet')
      db.pragma('wal_checkpoint(TRUNCATE)')
    })
    const bytes = readFileSync(old)
    const state = projectState()
    const [report] = await mergePackets(project, [old])
    expect(report).toMatchObject({ annotator: 'Ada', added: 0, alreadyPresent: 9 })
    expect(projectState()).toBe(state)
    expect(readFileSync(old).equals(bytes)).toBe(true)
  })
})
