import { randomBytes } from 'node:crypto'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession, type ApiContext, type SessionState } from '../../../src/main/api/context'
import { EventHub } from '../../../src/main/events'
import { appendAnnotation } from '../../../src/main/store/annotations'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { setMeta } from '../../../src/main/store/meta'
import { Project } from '../../../src/main/store/project'
import { getInstrument } from '../../../src/shared/instruments'

// A curator project whose every hidden place holds a unique marker: item fields annotators must not see, external
// ids and set names, another annotator's answers, reference labels, judge outputs, adjudications, the project's name
// and seed. A packet that contains any marker byte leaks.

export const MARK = `HIDDEN-MARKER-${randomBytes(6).toString('hex')}`
export const SEED = `SEEDMARK${randomBytes(4).toString('hex')}`

export function proposalMarkdown(title: string, intro: string, approach: string): string {
  return [`# ${title}`, '', '## Introduction', '', intro, '', '## Proposed Approach', '', approach, '', '## Experiments', '', 'Results: TBD.'].join('\n')
}

/** Text each side of pair n shows, so tests can tell the sides apart in a view. */
export function sideText(n: number, side: 'a' | 'b'): { intro: string; approach: string } {
  return { intro: `Introduction of proposal ${side.toUpperCase()} in pair ${n}.`, approach: `Approach ${side} ${n}: we measure the effect twice.` }
}

export function markedPairs(count: number, tag = MARK): NewItem[] {
  return Array.from({ length: count }, (_, n) => {
    const side = (s: 'a' | 'b') => ({
      markdown: proposalMarkdown(`${tag} title ${s} ${n}`, sideText(n, s).intro, sideText(n, s).approach),
      title: `${tag}-title-${s}-${n}`,
      origin: s === 'a' ? `${tag}-origin-human` : `${tag}-origin-ai`,
      generator: `${tag}-generator-${n}`,
      company: `${tag}-company`,
      citations: 900_000_000 + n
    })
    return {
      kind: 'proposal-pair' as const,
      externalId: `${tag}-pair-${n}`,
      set: `${tag}-set`,
      split: 'test' as const,
      payload: {
        pair_id: `${tag}-pair-${n}`,
        topic: `Topic ${n}`,
        cohort: `${tag}-cohort`,
        cutoff_date: `${tag}-cutoff`,
        label: 'a_better',
        label_source: `${tag}-label-source`,
        probe: `${tag}-probe`,
        a: side('a'),
        b: side('b')
      }
    }
  })
}

export function annotatorSession(project: Project, name: string): SessionState {
  const a = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(name) as { id: number; name: string }
  return { role: 'annotator', annotator: { id: a.id, name: a.name }, locked: true }
}

export function ctxFor(project: Project, session: SessionState = curatorSession()): ApiContext {
  return { project, session, events: new EventHub() }
}

export async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

/**
 * A seed carrying SEED under which the annotator sees some pairs swapped and some not, so tests exercise both
 * directions of the mapping back to canonical order whatever random marker this run drew.
 */
export function seedShowingBothOrders(items: ReadonlyArray<NewItem>, annotator: string): string {
  const pairwise = getInstrument('pairwise-preference')
  for (let n = 0; ; n++) {
    const seed = `${SEED}x${n}`
    const swaps = items.map((it) => pairwise.blind(it.payload as never, { seed, viewer: `annotator:${annotator}`, externalId: it.externalId }).display.swapped)
    if (swaps.includes(true) && swaps.includes(false)) return seed
  }
}

export interface MarkedProject {
  project: Project
  pairs: number
}

/**
 * The project: `pairs` marked pairs, each assigned for pairwise preference to Ada and Ben (overlap 2), flaw audits
 * of every pair for Ada, and Cy, whose answers (with the marker in their notes) packets must never carry. A judge run
 * with the marker in prompt, raw answer and judgement; reference labels and an adjudication with the marker.
 */
export async function markedProject(path: string, pairs = 4): Promise<MarkedProject> {
  const project = await Project.create(path)
  const items = markedPairs(pairs)
  project.write((db) => {
    setMeta(db, 'seed', seedShowingBothOrders(items, 'Ada'))
    setMeta(db, 'name', `${MARK}-project-name`)
    insertItems(db, items)
  })
  const curator = ctxFor(project)
  await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 2 })
  await call(curator, 'assignments.create', { instrument: 'flaw-audit', annotators: ['Ada'], overlap: 1 })
  await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Cy'], overlap: 1 })

  // Cy answers everything in the workbench, with the marker in the notes.
  const cy = ctxFor(project, annotatorSession(project, 'Cy'))
  for (const row of (await call(cy, 'queue.list', { instrument: 'pairwise-preference' })).rows as Array<{ assignmentId: number }>) {
    await call(cy, 'annotations.submit', { assignmentId: row.assignmentId, judgement: { verdict: 'b_better', analysis: `${MARK}-other-annotator` }, activeMs: 1000 })
  }

  project.write((db) => {
    const items = db.prepare(`SELECT id FROM items ORDER BY id`).all() as Array<{ id: number }>
    const judge = Number(db.prepare(`INSERT INTO judges (name, provider, model, company) VALUES (?, 'openai', ?, ?)`).run(`${MARK}-judge`, `${MARK}-model`, `${MARK}-judge-company`).lastInsertRowid)
    const run = Number(
      db.prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, status) VALUES ('pairwise-preference', ?, 'pairwise-ranker', 1, ?, 'done')`).run(judge, SEED).lastInsertRowid
    )
    for (const item of items) {
      db.prepare(
        `INSERT INTO model_calls (run_id, item_id, request_hash, display, prompt, raw_answer, judgement, status) VALUES (?, ?, ?, '{"swapped":true}', ?, ?, ?, 'ok')`
      ).run(run, item.id, `${MARK}-hash-${item.id}`, JSON.stringify({ user: `${MARK}-prompt` }), `${MARK}-raw-answer`, JSON.stringify({ verdict: 'a_better', analysis: `${MARK}-judge-output` }))
      appendAnnotation(db, {
        itemId: item.id,
        instrumentId: 'pairwise-preference',
        instrumentVersion: 1,
        annotatorId: null,
        sourceKind: 'reference',
        sourceName: `${MARK}-reference`,
        judgement: { verdict: 'a_better', analysis: `${MARK}-reference-label` },
        origin: 'import'
      })
      db.prepare(`INSERT INTO exposures (item_id, kind, actor, detail) VALUES (?, 'label_viewed', 'curator', ?)`).run(item.id, `${MARK}-exposure`)
    }
    db.prepare(`INSERT INTO adjudications (id, item_id, instrument_id, judgement, reason, curator) VALUES (?, ?, 'pairwise-preference', ?, ?, ?)`).run(
      `${MARK}-adjudication`,
      items[0]!.id,
      JSON.stringify({ verdict: 'a_better' }),
      `${MARK}-reason`,
      `${MARK}-curator`
    )
  })
  return { project, pairs }
}
