import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { Project } from '../../../src/main/store/project'
import { EventHub } from '../../../src/main/events'
import { writeAnswerLimits } from '../../../src/main/annotation/answer-limits'
import { checkOutputText } from '../../../src/main/checks/verify'
import { exportData } from '../../../src/main/export'
import { projectReport } from '../../../src/main/report'
import { call } from '../../support/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
let project: Project
const hub = new EventHub()

async function annotator(name: string): Promise<ApiContext> {
  const ctx: ApiContext = { project, session: curatorSession(), events: hub }
  await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
  return ctx
}

/** The annotator's flaw-audit assignments, each with a quote from its left proposal. */
async function flawItems(ctx: ApiContext): Promise<Array<{ id: number; quote: string }>> {
  const { rows } = await call(ctx, 'queue.list', { instrument: 'flaw-audit' })
  const out: Array<{ id: number; quote: string }> = []
  for (const r of rows as Array<{ assignmentId: number }>) {
    const item = await call(ctx, 'queue.item', { assignmentId: r.assignmentId })
    out.push({ id: r.assignmentId, quote: (item.view.a as { markdown: string }).markdown.split('\n').find((l: string) => l.length > 20)!.slice(0, 20) })
  }
  return out
}

function storedCheck(annotationId: string): Record<string, unknown> {
  const row = project.db.prepare(`SELECT judgement FROM annotations WHERE id = ?`).get(annotationId) as { judgement: string }
  return (JSON.parse(row.judgement) as { flaws: Array<{ check: Record<string, unknown> }> }).flaws[0]!.check
}

beforeAll(async () => {
  project = await Project.create(tmp.file('g.assay'))
  await loadDemo(project)
  await call({ project, session: curatorSession(), events: hub }, 'assignments.create', { instrument: 'flaw-audit', annotators: ['Guard', 'Rate'], overlap: 1 })
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('submitted worked checks', () => {
  const flaw = (quote: string, check: Record<string, unknown>) => ({ flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: quote, check }] })
  const ranAt = new Date().toISOString()

  it('re-runs the code in main and stores main’s output as verified when it matches', async () => {
    const ctx = await annotator('Guard')
    const [item] = await flawItems(ctx)
    const check = { code: 'console.log(6 * 7)', output: '42', ran_at: ranAt, verification: 'verified' }
    const r = await call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement: flaw(item!.quote, check), activeMs: 5 })
    expect(storedCheck(r.annotationId)).toEqual({ code: 'console.log(6 * 7)', output: '42', ran_at: ranAt, verification: 'verified' })
  })

  it('stores main’s output and flags a mismatch when the client’s output was made up', async () => {
    const ctx = await annotator('Guard')
    const [, item] = await flawItems(ctx)
    const check = { code: 'console.log(6 * 7)', output: 'the formula is wrong by 12%', ran_at: ranAt, verification: 'verified' }
    const r = await call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement: flaw(item!.quote, check), activeMs: 5 })
    expect(storedCheck(r.annotationId)).toMatchObject({ output: '42', verification: 'mismatch', client_output: 'the formula is wrong by 12%' })
  })

  it('keeps the client’s output marked unverified when main’s re-run stops at the time limit', async () => {
    const ctx = await annotator('Guard')
    const [, , item] = await flawItems(ctx)
    const check = { code: 'while (true) {}', output: 'finished', ran_at: ranAt }
    const r = await call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement: flaw(item!.quote, check), activeMs: 5 })
    expect(storedCheck(r.annotationId)).toMatchObject({ output: 'finished', verification: 'unverified' })
  })

  it('says in the labels export’s card and in the audit report how each check’s output came about', () => {
    const out = tmp.file('labels.jsonl')
    const r = exportData(project, 'labels', { out, instrument: 'flaw-audit' })
    const card = readFileSync(r.cardPath, 'utf8')
    expect(card).toContain('## Worked checks')
    expect(card).toMatch(/\| verified \| 1 \|/)
    expect(card).toMatch(/\| mismatch \| 1 \|/)
    expect(card).toMatch(/\| unverified \| 1 \|/)
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { judgement?: { flaws?: Array<{ check?: { verification?: string } }> } })
    const kinds = rows.flatMap((row) => row.judgement?.flaws ?? []).map((f) => f.check?.verification).filter(Boolean).sort()
    expect(kinds).toEqual(['mismatch', 'unverified', 'verified'])
    const report = projectReport(project.db, { instrument: 'flaw-audit' })
    const warning = report.warnings.find((w) => w.code === 'unverified_checks')
    expect(warning?.message).toMatch(/1 verified .* 1 whose re-run differed .* 1 not re-run/)
  })

  it('formats main’s output as the form does', () => {
    expect(checkOutputText({ output: 'a', error: 'boom', timedOut: false })).toBe('a\nError: boom')
  })
})

describe('answer limits', () => {
  it('refuses a text field over the project’s cap, naming the field, and writes nothing', async () => {
    project.write((db) => writeAnswerLimits(db, { text_chars: 500 }))
    const ctx = await annotator('Guard')
    const [, , , item] = await flawItems(ctx)
    const before = (project.db.prepare(`SELECT count(*) AS n FROM annotations`).get() as { n: number }).n
    const judgement = { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: item!.quote, note: 'x'.repeat(501) }] }
    const err = await call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement, activeMs: 5 }).catch((e) => e)
    expect(err).toMatchObject({ code: 'too_large', details: [{ field: 'flaws.0.note' }] })
    expect(err.message).toContain('flaws.0.note')
    await expect(call(ctx, 'annotations.saveDraft', { assignmentId: item!.id, data: judgement, activeMs: 5 })).rejects.toMatchObject({ code: 'too_large' })
    expect((project.db.prepare(`SELECT count(*) AS n FROM annotations`).get() as { n: number }).n).toBe(before)
  })

  it('refuses a whole answer over the byte cap', async () => {
    project.write((db) => writeAnswerLimits(db, { judgement_bytes: 2000 }))
    const ctx = await annotator('Guard')
    const [, , , item] = await flawItems(ctx)
    const flaws = Array.from({ length: 40 }, () => ({ side: 'a', type: 'other', severity: 'minor', evidence: item!.quote, note: 'n'.repeat(40) }))
    await expect(call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement: { flaws }, activeMs: 5 })).rejects.toMatchObject({
      code: 'too_large',
      details: [{ field: '(answer)' }]
    })
  })

  it('rate-limits submissions per session', async () => {
    project.write((db) => writeAnswerLimits(db, { submissions_burst: 3, submissions_per_minute: 1 }))
    const ctx = await annotator('Rate')
    const [item] = await flawItems(ctx)
    const judgement = { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: item!.quote }] }
    for (let i = 0; i < 3; i++) await call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement, activeMs: 5 })
    await expect(call(ctx, 'annotations.submit', { assignmentId: item!.id, judgement, activeMs: 5 })).rejects.toMatchObject({ code: 'rate_limited' })
    // Another session is not held back by this one.
    const other = await annotator('Rate')
    await call(other, 'annotations.submit', { assignmentId: item!.id, judgement, activeMs: 5 })
  })

  it('names the setting when the stored limits are malformed', async () => {
    project.write(() => project.db.prepare(`UPDATE meta SET value = '{"text_chars": -1}' WHERE key = 'answer_limits'`).run())
    const ctx = await annotator('Guard')
    const [item] = await flawItems(ctx)
    await expect(call(ctx, 'annotations.saveDraft', { assignmentId: item!.id, data: {}, activeMs: 1 })).rejects.toMatchObject({
      code: 'bad_data',
      details: [{ field: 'meta.answer_limits.text_chars' }]
    })
    project.write((db) => writeAnswerLimits(db, {}))
  })
})
