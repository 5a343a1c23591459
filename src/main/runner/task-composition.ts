import { createHash } from 'node:crypto'
import { z } from 'zod'
import { parseJsonObject } from '../../shared/parse'
import { getTemplate, type AnswerFormat } from '../../shared/templates'
import { composedTasksOfRun, getItemByExternalId, insertItems } from '../store/items'
import type { Db } from '../store/database'
import type { Project } from '../store/project'
import type { ChainSettings, GenerationTask, StepKind, StepOutcome, StepPlan, GenerationTaskRow } from './chain'
import { itemsWhere, type ItemSelection } from '../store/item-selection'
import type { Judge } from './judges'

// Composing hypothesis-rediscovery tasks from papers (001, "Composing a task from an abstract"): one request per
// paper (task-composition); an answer that finds the paper suitable becomes a new rediscovery task, with the finding
// and key points as its reference, ready for generation runs. The papers are the selected papers (the `abstracts`
// import) and the published side of the selected preprint pairs (which the preprint check compares), each paper once.

export const compositionAnswer = z.looseObject({
  suitable: z.boolean(),
  reason: z.string().default(''),
  background: z.string().default(''),
  question: z.string().default(''),
  subject: z.string().default(''),
  finding: z.string().default(''),
  key_points: z.array(z.string()).default([])
})
export type CompositionAnswer = z.infer<typeof compositionAnswer>

export interface PaperTask extends GenerationTask {
  title: string
  journal: string
  abstract: string
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

/** One task per distinct paper of the selected papers and preprint pairs; the calls hang on the first item naming it. */
export function selectPaperTasks(db: Db, selection: ItemSelection): GenerationTaskRow[] {
  const rows = itemsWhere<{ id: number; kind: string; payload: string }>(db, 'id, kind, payload', [`kind IN ('preprint-pair', 'paper')`], [], selection)
  const seen = new Set<string>()
  const out: GenerationTaskRow[] = []
  for (const r of rows) {
    const payload = JSON.parse(r.payload) as Record<string, unknown> & { paper?: Record<string, unknown> }
    const paper = r.kind === 'paper' ? payload : (payload.paper ?? {})
    const abstract = str(paper.abstract).trim()
    if (!abstract) continue
    const title = str(paper.title)
    const key = createHash('sha256').update(`${title}\u0000${abstract}`, 'utf8').digest('hex').slice(0, 16)
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ id: r.id, external_id: `paper-${key}`, payload: JSON.stringify({ key: `paper-${key}`, title, journal: str(paper.journal), abstract }) })
    if (selection.limit && out.length >= selection.limit) break
  }
  return out
}

export function paperTask(row: GenerationTaskRow): PaperTask {
  const p = JSON.parse(row.payload) as { key: string; title: string; journal: string; abstract: string }
  return { taskId: p.key, background: '', question: '', title: p.title, journal: p.journal, abstract: p.abstract }
}

/** The one request of a paper. */
export function nextCompositionStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  if (done.length > 0) return null
  const t = task as PaperTask
  return { index: 0, kind: 'single', stage: null, template: getTemplate(settings.templates, 'task-composition', 1), values: { paper_title: t.title, journal: t.journal, abstract: t.abstract }, format: 'json' }
}

export function readCompositionAnswer(_kind: StepKind, _format: AnswerFormat, text: string): { ok: true; composition: CompositionAnswer } | { ok: false; error: string } {
  const json = parseJsonObject(text, { prefer: 'last' })
  if (!json.ok) return { ok: false, error: json.error }
  const a = compositionAnswer.safeParse(json.value)
  if (!a.success) return { ok: false, error: 'the answer has no "suitable" true or false' }
  if (a.data.suitable && (!a.data.background.trim() || !a.data.question.trim() || !a.data.finding.trim())) {
    return { ok: false, error: 'a suitable paper needs a background, a question and a finding' }
  }
  return { ok: true, composition: a.data }
}

/** Stores a suitable paper's task as a rediscovery task; an unsuitable one stays in its call, with the reason. */
export function storeComposedTask(f: { project: Project; runId: number; judge: Judge; outSet: string; row: GenerationTaskRow; task: GenerationTask; composition: CompositionAnswer; callIds: number[] }): void {
  if (!f.composition.suitable) return
  const db = f.project.db
  const slug = f.judge.model.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '') || 'model'
  const taskId = `${f.task.taskId}.${slug}.run${f.runId}`
  if (getItemByExternalId(db, 'rediscovery-task', taskId)) return
  const c = f.composition
  const payload = {
    task_id: taskId,
    background: c.background,
    question: c.question,
    subject: c.subject,
    finding: c.finding,
    key_points: c.key_points,
    composition: { run_id: f.runId, judge: f.judge.name, model: f.judge.model, paper_item_id: f.row.id, paper_title: (f.task as PaperTask).title, reason: c.reason, call_ids: f.callIds, template: 'task-composition@1' }
  }
  f.project.write((db) => insertItems(db, [{ kind: 'rediscovery-task', externalId: taskId, set: f.outSet, split: 'none', payload }]))
}

/** The rediscovery tasks a composition run has created. */
export function composedTasksOf(db: Db, runId: number): string[] {
  return composedTasksOfRun(db, runId)
}
