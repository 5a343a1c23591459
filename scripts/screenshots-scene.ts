import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dispatch } from '../src/main/api/dispatch'
import { curatorSession, type ApiContext } from '../src/main/api/context'
import { loadDemo } from '../src/main/demo/load-demo'
import { EventHub } from '../src/main/events'
import { Project } from '../src/main/store/project'

// The demo project as a reviewer first sees it in use: two experts half-way through the pairwise queue and
// disagreeing, one flaw audit under way with a wrong formula quoted as evidence. Screenshots and the browser
// layout and accessibility walks start from it.

export const SCENE_ANNOTATORS = ['Dr. Ada Moreau', 'Dr. Ben Okafor'] as const
/** The demo pair whose side B states a wrong allocation formula, and the formula as written there. */
export const FORMULA_ITEM = 'demo-formula'
const FORMULA_MARKER = '$$n_k^{\\star} ='
/** Instruments besides pairwise preference and flaw audit that the demo has items for. */
export const SCENE_EXTRA_INSTRUMENTS = ['hypothesis-match', 'leak-audit', 'cue-rating', 'fs-research-grade'] as const

async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw new Error(`${op}: ${env.error.message}`)
  return env.value as T
}

/** The display formula of the demo's flawed proposal, exactly as its Markdown has it. */
export function wrongFormula(repoRoot: string): string {
  const md = readFileSync(join(repoRoot, 'resources', 'demo', 'proposals', `${FORMULA_ITEM}_b.md`), 'utf8')
  const start = md.indexOf(FORMULA_MARKER)
  const end = md.indexOf('$$', start + 2)
  if (start < 0 || end < 0) throw new Error(`the demo proposal ${FORMULA_ITEM}_b.md no longer holds the formula`)
  return md.slice(start, end + 2)
}

/**
 * Creates `path` with the demo, assigns the pairwise and flaw-audit queues, and records answers: Ben answers every
 * pair and finds no flaw anywhere, Ada answers every other pair (so open items and disagreements both exist), and
 * Ada's flaw audit of the formula pair is a draft quoting the wrong formula.
 */
export async function prepareDemoScene(path: string, repoRoot: string): Promise<void> {
  const project = await Project.create(path)
  try {
    await loadDemo(project)
    const hub = new EventHub()
    const curator: ApiContext = { project, session: curatorSession(), events: hub }
    const [ada, ben] = SCENE_ANNOTATORS
    await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: [ada, ben], overlap: 2 })
    await call(curator, 'assignments.create', { instrument: 'flaw-audit', annotators: [ada, ben], overlap: 2 })
    // Every other form the demo can fill, so each annotation screen can be looked at.
    for (const instrument of SCENE_EXTRA_INSTRUMENTS) await call(curator, 'assignments.create', { instrument, annotators: [ada], overlap: 1 })

    const as = async (name: string): Promise<ApiContext> => {
      const ctx: ApiContext = { project, session: curatorSession(), events: hub }
      await call(ctx, 'session.setRole', { role: 'annotator', annotator: name })
      return ctx
    }
    const benCtx = await as(ben)
    for (const r of (await call(benCtx, 'queue.list', { instrument: 'pairwise-preference' })).rows) {
      await call(benCtx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { verdict: 'b_better' }, activeMs: 90_000 })
    }
    // Ben finds no flaw anywhere, where a demonstration expert found some: disagreements to adjudicate.
    for (const r of (await call(benCtx, 'queue.list', { instrument: 'flaw-audit' })).rows) {
      await call(benCtx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { flaws: [], no_flaws_found: true }, activeMs: 60_000 })
    }
    const adaCtx = await as(ada)
    const rows = (await call(adaCtx, 'queue.list', { instrument: 'pairwise-preference' })).rows as Array<{ assignmentId: number }>
    for (const [i, r] of rows.entries()) {
      if (i % 2 === 1) await call(adaCtx, 'annotations.submit', { assignmentId: r.assignmentId, judgement: { verdict: 'a_better' }, activeMs: 120_000 })
    }

    // Ada's flaw audit of the formula pair: a draft, on the side where her screen shows proposal B.
    const formula = wrongFormula(repoRoot)
    const flawRows = (await call(adaCtx, 'queue.list', { instrument: 'flaw-audit' })).rows as Array<{ assignmentId: number }>
    for (const r of flawRows) {
      const item = await call(adaCtx, 'queue.item', { assignmentId: r.assignmentId })
      const view = item.view as { a: { markdown: string }; b: { markdown: string } }
      const side = view.a.markdown.includes(formula) ? 'a' : view.b.markdown.includes(formula) ? 'b' : null
      if (!side) continue
      const flaw = {
        side,
        type: 'unsound_method',
        severity: 'fatal',
        evidence: formula,
        note: 'The objective is linear in n_k, so the optimum is a corner solution, not this proportional split.'
      }
      await call(adaCtx, 'annotations.saveDraft', { assignmentId: r.assignmentId, data: { flaws: [flaw], comment: '' }, activeMs: 240_000 })
    }
  } finally {
    project.close()
  }
}
