import { getTemplate, type AnswerFormat } from '../../shared/templates'
import { getItemByExternalId, insertItems, itemPayloadFinder, responsesOfRun } from '../store/items'
import type { Project } from '../store/project'
import type { Db } from '../store/database'
import type { ChainSettings, GenerationTask, StepKind, StepOutcome, StepPlan, GenerationTaskRow } from './chain'
import { itemsWhere, type ItemSelection } from '../store/item-selection'
import type { Judge } from './judges'

// The answering step of FrontierScience: a model answers each selected problem (fs-answer: the problem alone, as the
// source gave it), once per trial, each trial a request of its own. Every answer becomes a new fs-problem item with
// the problem, its reference answer or rubric, and the response, ready for the graders; who answered is kept with
// it and, like any responder, not shown to them.

export interface ResponseTask extends GenerationTask {
  problem: string
  trial: number
}

interface ResponseRowPayload {
  key: string
  trial: number
  problem: string
}

/** One task per selected problem that has no response yet, and per trial; the limit counts problems. */
export function selectResponseTasks(db: Db, selection: ItemSelection, trials: number): GenerationTaskRow[] {
  const rows = itemsWhere<{ id: number; external_id: string; payload: string }>(db, 'id, external_id, payload', [`kind = 'fs-problem'`, `json_extract(payload, '$.response') IS NULL`], [], selection, selection.limit)
  const out: GenerationTaskRow[] = []
  for (const r of rows) {
    const problem = (JSON.parse(r.payload) as { problem?: unknown }).problem
    if (typeof problem !== 'string' || !problem.trim()) continue
    for (let trial = 0; trial < trials; trial++) {
      const payload: ResponseRowPayload = { key: r.external_id, trial, problem }
      out.push({ id: r.id, external_id: r.external_id, payload: JSON.stringify(payload) })
    }
  }
  return out
}

export function responseTask(row: GenerationTaskRow): ResponseTask {
  const p = JSON.parse(row.payload) as ResponseRowPayload
  return { taskId: p.key, background: '', question: '', problem: p.problem, trial: p.trial }
}

/** The one request of a trial (the call's trial number tells the trials of a problem apart). */
export function nextResponseStep(settings: ChainSettings, task: GenerationTask, done: readonly StepOutcome[]): StepPlan | null {
  if (done.length > 0) return null
  const t = task as ResponseTask
  return { index: 0, kind: 'single', stage: null, template: getTemplate(settings.templates, 'fs-answer', 1), values: { problem: t.problem }, format: 'text' }
}

export function readResponseAnswer(_kind: StepKind, _format: AnswerFormat, text: string): { ok: true; response: string } | { ok: false; error: string } {
  return text.trim() ? { ok: true, response: text } : { ok: false, error: 'the answer is empty' }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '') || 'model'
}

/** Stores one trial's response as a gradable problem, beside the problem it answers. */
export function storeResponse(f: { project: Project; runId: number; judge: Judge; outSet: string; row: GenerationTaskRow; task: GenerationTask; response: string; callIds: number[] }): void {
  const db = f.project.db
  const t = f.task as ResponseTask
  const externalId = `${t.taskId}.${slug(f.judge.model)}.run${f.runId}.t${t.trial + 1}`
  if (getItemByExternalId(db, 'fs-problem', externalId)) return
  const source = itemPayloadFinder(db)(f.row.id)
  const problem = source !== undefined ? (JSON.parse(source) as Record<string, unknown>) : {}
  const payload = {
    ...problem,
    response: f.response,
    responder: f.judge.model,
    answering: { run_id: f.runId, judge: f.judge.name, model: f.judge.model, problem_item_id: f.row.id, problem: t.taskId, trial: t.trial + 1, call_ids: f.callIds, template: 'fs-answer@1' }
  }
  f.project.write((db) => insertItems(db, [{ kind: 'fs-problem', externalId, set: f.outSet, split: 'none', payload }]))
}

/** The responses an answering run has stored, by external id. */
export function responsesOf(db: Db, runId: number): string[] {
  return responsesOfRun(db, runId)
}
