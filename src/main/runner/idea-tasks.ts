import { AssayError } from '../../shared/errors'
import { getItemByExternalId, ideasOfRun, insertItems } from '../store/items'
import { outputTokensByItem } from '../store/step-calls'
import type { Db } from '../store/database'
import type { Project } from '../store/project'
import type { ChainSettings, GenerationTask, Scheme, StepOutcome, GenerationTaskRow } from './chain'
import { generatedIdeas } from './idea-chain'
import { itemsWhere, type ItemSelection } from '../store/item-selection'
import type { Judge } from './judges'
import type { OmegaAssignment } from '../../shared/protocol'

// Idea generation works on keywords: those of the idea items in the selection (a LiveIdeaBench results table gives
// one keyword per row), each keyword once, in the order first met. What a keyword's sequence generates is stored as
// new idea items, every candidate with whether the generator chose it, plus the pair of the chosen two, so the
// reviewer (idea-review) and similarity (idea-similarity) judges run on them like on imported ideas.

/** The keyword of an idea item: its `keywords` text, or the first of a list. */
export function keywordOf(payload: Record<string, unknown>): string | null {
  const k = payload.keywords
  if (typeof k === 'string') return k.trim() || null
  if (Array.isArray(k)) {
    const first = k.find((x): x is string => typeof x === 'string' && x.trim() !== '')
    return first?.trim() ?? null
  }
  return null
}

/** One task per distinct keyword of the selected idea items; the calls of a keyword hang on its first idea item. */
export function selectKeywordTasks(db: Db, selection: ItemSelection): GenerationTaskRow[] {
  const rows = itemsWhere<{ id: number; payload: string }>(db, 'id, payload', [`kind = 'idea'`, `json_extract(payload, '$.generation') IS NULL`], [], selection)
  const seen = new Set<string>()
  const tasks: GenerationTaskRow[] = []
  for (const r of rows) {
    const keyword = keywordOf(JSON.parse(r.payload) as Record<string, unknown>)
    if (keyword === null || seen.has(keyword)) continue
    seen.add(keyword)
    tasks.push({ id: r.id, external_id: keyword, payload: JSON.stringify({ keyword }) })
    if (selection.limit && tasks.length >= selection.limit) break
  }
  return tasks
}

/** The task of a keyword row: its id is the keyword (Omega Point's lens and fourth role are hashed from it). */
export function keywordTask(row: GenerationTaskRow): GenerationTask {
  const p = JSON.parse(row.payload) as { keyword?: string }
  const keyword = p.keyword ?? row.external_id
  return { taskId: keyword, keyword, background: '', question: '' }
}

/** Generated tokens per keyword of an Omega Point idea run. */
export function ideaTokenBudgets(db: Db, runId: number): Map<string, number> {
  const rows = outputTokensByItem(db, runId)
  const out = new Map<string, number>()
  for (const r of rows) {
    const keyword = keywordOf(JSON.parse(r.payload) as Record<string, unknown>)
    if (keyword !== null) out.set(keyword, r.tokens)
  }
  return out
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '') || 'x'
}

export interface IdeaFinish {
  project: Project
  runId: number
  judge: Judge
  scheme: Scheme
  outSet: string
  settings: ChainSettings
  row: GenerationTaskRow
  task: GenerationTask
  outcomes: readonly StepOutcome[]
  callIds: number[]
  templates: string[]
  omega: OmegaAssignment | null
}

/** Stores a keyword's finished sequence: each candidate as an idea item, and the chosen two as an idea pair. */
export function storeGeneratedIdeas(f: IdeaFinish): void {
  const db = f.project.db
  const keyword = f.task.keyword ?? f.task.taskId
  const base = `${slug(keyword)}.${slug(f.judge.model)}.${f.scheme}.run${f.runId}`
  if (getItemByExternalId(db, 'idea', `${base}.C1`)) return
  const { candidates, selection } = generatedIdeas(f.settings, f.outcomes)
  if (candidates.length === 0) return
  const provenance = {
    run_id: f.runId,
    scheme: f.scheme,
    keyword,
    task_item_id: f.row.id,
    judge: f.judge.name,
    provider: f.judge.provider,
    templates: f.templates,
    call_ids: f.callIds,
    candidates: candidates.length,
    generated_tokens: f.outcomes.reduce((s, x) => s + x.outputTokens, 0),
    ...(selection ? { selection: { from_answer: selection.fromAnswer, filled: selection.filled, unknown: selection.unknown, duplicates: selection.duplicates, overflow: selection.overflow } } : {}),
    ...(f.omega ? { omega: { hash: f.omega.hash, lens: f.omega.lensKey, fourth_role: f.omega.fourthRole } } : {}),
    ...(f.settings.tokenBudget !== null ? { token_budget: f.settings.tokenBudget } : {})
  }
  const items = candidates.map((c) => ({
    kind: 'idea' as const,
    externalId: `${base}.${c.id}`,
    set: f.outSet,
    split: 'none' as const,
    payload: {
      idea: c.idea,
      keywords: keyword,
      idea_model: f.judge.model,
      generation: { ...provenance, candidate: c.id, selected: c.rank !== null, rank: c.rank }
    }
  }))
  const chosen = candidates.filter((c) => c.rank !== null).sort((a, b) => a.rank! - b.rank!)
  const pair = chosen.length >= 2
    ? [{
        kind: 'idea-pair' as const,
        externalId: `${base}.pair`,
        set: f.outSet,
        split: 'none' as const,
        payload: { idea_a: chosen[0]!.idea, idea_b: chosen[1]!.idea, keywords: keyword, generation: { run_id: f.runId, scheme: f.scheme, a: chosen[0]!.id, b: chosen[1]!.id } }
      }]
    : []
  f.project.write((db) => insertItems(db, [...items, ...pair]))
}

/** The idea items a generation run has created, by external id. */
export function generatedIdeasOf(db: Db, runId: number): { externalId: string; selected: boolean }[] {
  return ideasOfRun(db, runId).map((r) => ({ externalId: r.external_id, selected: r.selected === 1 }))
}

/** Refuses a token-budget run that did not generate the same thing. */
export function checkBudgetTarget(target: string, budgetTarget: string, runId: number): void {
  if (target !== budgetTarget) {
    throw new AssayError('invalid_input', `Run ${runId} generated ${budgetTarget}, not ${target}`, [{ field: 'tokenBudgetRun', message: `needs an omega-point run generating ${target}` }])
  }
}
