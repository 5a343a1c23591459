import { copyFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssayError } from '../../../src/shared/errors'
import { getInstrument } from '../../../src/shared/instruments'
import { exportPacket, mergePackets } from '../../../src/main/packets'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { annotatorSession, call, ctxFor, markedProject } from './support'

// A packet file is in its holder's hands: a merge holds its answers to the project's own caps and instrument checks,
// and sets every worked check's provenance itself, whatever the packet file says.

const tmp = tempDir('assay-packet-guards-')
let project: Project
let packetPath: string
const ranAt = new Date().toISOString()

function withFile<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path)
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

/** The packet's first pending flaw audit: its local assignment and item, and a quote from the left proposal as shown. */
function pendingFlawAudit(db: Database.Database): { id: number; item: number; quote: string } {
  const row = db.prepare(`SELECT s.id, s.item_id, i.payload FROM assignments s JOIN items i ON i.id = s.item_id WHERE s.instrument_id = 'flaw-audit' AND s.status = 'pending' ORDER BY s.id LIMIT 1`).get() as {
    id: number
    item_id: number
    payload: string
  }
  const markdown = (JSON.parse(row.payload) as { $view: { a: { markdown: string } } }).$view.a.markdown
  return { id: row.id, item: row.item_id, quote: /Approach [ab] \d+: we measure/.exec(markdown)![0] }
}

/** A copy of the packet with one answer written straight into the file, as its holder could. */
function forged(name: string, judgement: (quote: string) => unknown, id: string, instrumentVersion = 1): string {
  const path = tmp.file(name)
  copyFileSync(packetPath, path)
  withFile(path, (db) => {
    const a = pendingFlawAudit(db)
    db.prepare(
      `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, annotator_id, source_kind, source_name, judgement, assignment_id, active_ms, created_at)
       VALUES (?, ?, 'flaw-audit', ?, 1, 'human', 'Ada', ?, ?, 5, ?)`
    ).run(id, a.item, instrumentVersion, JSON.stringify(judgement(a.quote)), a.id, new Date().toISOString())
  })
  return path
}

/** A copy of the packet with one assignment's status and reason written straight into the file. */
function withStatus(name: string, status: string, reason: string | null): { path: string; opaqueId: string } {
  const path = tmp.file(name)
  copyFileSync(packetPath, path)
  const opaqueId = withFile(path, (db) => {
    const row = db
      .prepare(`SELECT s.id, i.external_id FROM assignments s JOIN items i ON i.id = s.item_id WHERE s.status = 'pending' ORDER BY s.id DESC LIMIT 1`)
      .get() as { id: number; external_id: string }
    db.prepare(`UPDATE assignments SET status = ?, status_reason = ? WHERE id = ?`).run(status, reason, row.id)
    return row.external_id
  })
  return { path, opaqueId }
}

const projectStatuses = () => JSON.stringify(project.db.prepare(`SELECT id, status, status_reason FROM assignments ORDER BY id`).all())

const projectAnswers = () => JSON.stringify(project.db.prepare(`SELECT * FROM annotations ORDER BY rowid`).all())

async function refused(paths: string[]): Promise<AssayError> {
  const before = projectAnswers()
  const error = await mergePackets(project, paths).then(
    () => null,
    (e: AssayError) => e
  )
  expect(error).not.toBeNull()
  expect(projectAnswers()).toBe(before)
  return error!
}

const storedCheck = (id: string) =>
  (JSON.parse((project.db.prepare(`SELECT judgement FROM annotations WHERE id = ?`).get(id) as { judgement: string }).judgement) as { flaws: Array<{ check: Record<string, unknown> }> }).flaws[0]!.check

beforeAll(async () => {
  ;({ project } = await markedProject(tmp.file('main.assay'), 4))
  packetPath = tmp.file('ada-flaws.assay')
  await exportPacket(project, { annotator: 'Ada', instrument: 'flaw-audit', out: packetPath })
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe("a merge applies the project's caps, never the packet's", () => {
  it('carries the project caps into the packet, and refuses to change a packet’s caps', async () => {
    await runCli('limits', tmp.file('main.assay'), '--text-chars', '30000')
    const out = tmp.file('ada-caps.assay')
    await exportPacket(project, { annotator: 'Ada', instrument: 'flaw-audit', out })
    const shown = await runCli('limits', out, '--json')
    expect(JSON.parse(shown.stdout)).toMatchObject({ text_chars: 30000 })
    const raised = await runCli('limits', out, '--text-chars', '10000000')
    expect(raised.code).toBe(1)
    expect(raised.stderr).toContain("its caps are the project's")
    expect(JSON.parse((await runCli('limits', out, '--json')).stdout)).toMatchObject({ text_chars: 30000 })
  })

  it('refuses an answer over the project caps that the packet’s raised caps let through, naming the answer and field', async () => {
    const path = tmp.file('ada-raised.assay')
    copyFileSync(packetPath, path)
    withFile(path, (db) => db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('answer_limits', ?)`).run(JSON.stringify({ judgement_bytes: 10_000_000, text_chars: 10_000_000, submissions_burst: 30, submissions_per_minute: 120 })))
    // In the packet, with its raised caps, the long note is accepted.
    const packet = await Project.open(path)
    try {
      const ctx = ctxFor(packet, annotatorSession(packet, 'Ada'))
      const a = pendingFlawAudit(packet.db as unknown as Database.Database)
      await call(ctx, 'annotations.submit', {
        assignmentId: a.id,
        judgement: { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: a.quote, note: 'n'.repeat(40_000) }] },
        activeMs: 5
      })
    } finally {
      packet.close()
    }
    const error = await refused([path])
    expect(error.code).toBe('too_large')
    expect(error.message).toMatch(/over this project's caps.*Nothing was merged\./)
    expect(error.details?.map((d) => d.message).join('\n')).toMatch(/field flaws\.0\.note: 40000 characters; at most 30000/)
    // Also through the command line, with the packet merged beside a good one: nothing of either.
    const cli = await runCli('packet', 'merge', tmp.file('main.assay'), packetPath, path)
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain('flaws.0.note')
  })

  it('refuses an answer the instrument does not accept, as submit would', async () => {
    const path = forged('ada-invalid.assay', (quote) => ({ flaws: [{ side: 'a', type: 'not-a-type', severity: 'fatal', evidence: quote }] }), '33333333-3333-4333-8333-333333333333')
    const error = await refused([path])
    expect(error.code).toBe('invalid_answer')
    expect(error.details?.map((d) => d.message).join('\n')).toContain('answer 33333333-3333-4333-8333-333333333333')
  })
})

describe('what a merge takes from a packet as submit would', () => {
  it('stores a new answer under the version of the instrument it was checked against, never the version the packet claims', async () => {
    const id = '66666666-6666-4666-8666-666666666666'
    const path = forged('ada-version.assay', () => ({ flaws: [], no_flaws_found: true }), id, 999)
    expect((await mergePackets(project, [path]))[0]).toMatchObject({ added: 1 })
    const stored = project.db.prepare(`SELECT instrument_version FROM annotations WHERE id = ?`).get(id) as { instrument_version: number }
    expect(stored.instrument_version).toBe(getInstrument('flaw-audit').version)
    const report = await runCli('report', tmp.file('main.assay'), '--instrument', 'flaw-audit')
    expect(report.code).toBe(0)
    expect(report.stdout + report.stderr).not.toMatch(/versions[^\n]*999/)
  })

  it.each([
    ['a flag reason over 2,000 characters', 'flagged', 'R'.repeat(2001), /status_reason: 2001 characters; at most 2000/],
    ['a skip without a reason', 'skipped', null, /status_reason: a skip needs a reason/],
    ['a flag with a blank reason', 'flagged', '   ', /status_reason: a flag needs a reason/]
  ])('refuses the whole packet for %s, naming the packet, the assignment and the field, and writes nothing', async (_what, status, reason, problem) => {
    const { path, opaqueId } = withStatus(`ada-status-${status}-${reason?.length ?? 0}.assay`, status, reason)
    const statuses = projectStatuses()
    // Merged beside a good packet and with a new answer in the same file: none of it is written.
    const answered = forged('ada-good-beside.assay', () => ({ flaws: [], no_flaws_found: true }), '77777777-7777-4777-8777-777777777777')
    withFile(path, (db) => {
      const a = pendingFlawAudit(db)
      db.prepare(
        `INSERT INTO annotations (id, item_id, instrument_id, instrument_version, annotator_id, source_kind, source_name, judgement, assignment_id, active_ms, created_at)
         VALUES ('88888888-8888-4888-8888-888888888888', ?, 'flaw-audit', 3, 1, 'human', 'Ada', '{"flaws":[],"no_flaws_found":true}', ?, 5, ?)`
      ).run(a.item, a.id, new Date().toISOString())
    })
    const error = await refused([answered, path])
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain(path)
    expect(error.message).toContain('Nothing was merged.')
    const detail = error.details?.find((d) => d.message.includes(opaqueId))
    expect(detail).toMatchObject({ file: path })
    expect(detail?.message).toMatch(problem)
    expect(projectStatuses()).toBe(statuses)
  })

  it('keeps a skip or flag reason as queue.setStatus does: trimmed, up to 2,000 characters', async () => {
    // 2,000 characters as given, the most queue.setStatus takes; kept without the spaces around it.
    const reason = 'R'.repeat(1996)
    const { path, opaqueId } = withStatus('ada-status-ok.assay', 'flagged', `  ${reason}  `)
    const assignmentId = (project.db.prepare(`SELECT assignment_id FROM packet_items WHERE opaque_id = ?`).get(opaqueId) as { assignment_id: number }).assignment_id
    expect((await mergePackets(project, [path]))[0]).toMatchObject({ statusesChanged: 1 })
    expect(project.db.prepare(`SELECT status, status_reason FROM assignments WHERE id = ?`).get(assignmentId)).toEqual({ status: 'flagged', status_reason: reason })
  })
})

describe('packet files with long names', () => {
  it('are written under a name of 80 three-byte characters (its temporary name stays within the file system’s limit)', async () => {
    const out = tmp.file(`${'数'.repeat(80)}.assay`)
    const result = await exportPacket(project, { annotator: 'Ada', instrument: 'flaw-audit', out })
    expect(result).toMatchObject({ annotator: 'Ada' })
    expect((await mergePackets(project, [out]))[0]).toMatchObject({ added: 0 })
  })
})

describe('worked checks in a merged packet', () => {
  it('are re-run in the project: a forged `verified` output is stored as a mismatch with main’s output', async () => {
    const id = '44444444-4444-4444-8444-444444444444'
    const path = forged('ada-forged.assay', (quote) => ({
      flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: quote, check: { code: 'console.log(6 * 7)', output: 'the formula is wrong by 12%', ran_at: ranAt, verification: 'verified' } }]
    }), id)
    const [report] = await mergePackets(project, [path])
    expect(report).toMatchObject({ added: 1 })
    expect(storedCheck(id)).toEqual({ code: 'console.log(6 * 7)', output: '42', ran_at: ranAt, verification: 'mismatch', client_output: 'the formula is wrong by 12%' })
    // Merging the same packet again recognises the revision and changes nothing.
    const before = projectAnswers()
    expect((await mergePackets(project, [path]))[0]).toMatchObject({ added: 0, alreadyPresent: 1 })
    expect(projectAnswers()).toBe(before)
  })

  it('keep no provenance the packet claims: a true output is verified by main, a stopped one unverified', async () => {
    const good = '55555555-5555-4555-8555-555555555555'
    const path = forged('ada-true.assay', (quote) => ({
      flaws: [
        { side: 'a', type: 'other', severity: 'minor', evidence: quote, check: { code: 'console.log(6 * 7)', output: '42', ran_at: ranAt, verification: 'mismatch', client_output: 'x', verify_note: 'claimed' } },
        { side: 'a', type: 'other', severity: 'minor', evidence: quote, check: { code: 'while (true) {}', output: 'finished', ran_at: ranAt, verification: 'verified' } }
      ]
    }), good)
    await mergePackets(project, [path])
    const flaws = (JSON.parse((project.db.prepare(`SELECT judgement FROM annotations WHERE id = ?`).get(good) as { judgement: string }).judgement) as { flaws: Array<{ check: Record<string, unknown> }> }).flaws
    expect(flaws[0]!.check).toEqual({ code: 'console.log(6 * 7)', output: '42', ran_at: ranAt, verification: 'verified' })
    expect(flaws[1]!.check).toMatchObject({ output: 'finished', verification: 'unverified' })
  })
})
