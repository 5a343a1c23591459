import { fillSelection } from '../../../shared/protocol'
import { asObject, describe, Problems, text } from '../fields'
import { isRecord } from '../read-records'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'
import { requireTasks, TaskCollector } from './hypotheses'

/**
 * Output of a multi-stage hypothesis pipeline (the Omega Point scheme, the plain five-stage chain, or a single
 * request), as hypothesis sets. Accepted shapes:
 *
 * **Run** — one generator on one task; a JSON file, or one per line of a JSONL file:
 * ```
 * { "task_id": "T01",                  // or "task": { "task_id", "background", "question", "finding", "key_points", … }
 *   "generator": "model", "company": "provider",
 *   "scheme": "omega-point" | "multi-stage" | "single",   // default "omega-point"
 *   "set_id": "…",                      // default "<task_id>__<generator>__<scheme>"
 *   "lens": "…", "phenomenon_role": false, "hash": { "name": "…", "version": 1 },   // kept as given
 *   "stages": [ { "stage": 1, "answer": "plain text" }, …,
 *               { "stage": 4, "answer": { "hypotheses": [ … ] } }, { "stage": 5, "answer": { "hypotheses": [ … ] } } ],
 *   "further": [ { "answer": { "hypotheses": [ … ] } } ],   // the "propose new, different ones" requests
 *   "candidates": [ { "id": "C1", "statement": "…", … } ],   // optional: else numbered C1..CN from stage 4, stage 5
 *                                                           // and the further requests, in the order proposed
 *   "selected": ["C3", "C1", …] }        // or { "selected": [...] }, the selection answer
 * ```
 * A stage answer may be the model's raw text; the first JSON object in it is read.
 *
 * **Session export** — `{ "session": {…}, "tasks": [task, …], "runs": [run, …] }`: the tasks are imported as
 * rediscovery tasks (unless already in the project) and each run as a set.
 *
 * The set holds the selected candidates in selection order. If fewer than five are named, the list is filled
 * with candidates in the order they were proposed (the protocol's rule), with a warning; a run without a selection
 * takes all hypotheses of a single request, or the first five candidates otherwise.
 */
export const OMEGA_POINT_ARRAY_KEYS = ['runs']

const SCHEMES = ['omega-point', 'multi-stage', 'single'] as const
type Scheme = (typeof SCHEMES)[number]
const SET_SIZE = 5

export function parseOmegaPoint(ctx: ImportContext, records: SourceRecord[], root: Record<string, unknown> | null): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const tasks = new TaskCollector(ctx, out, problems)
  if (root && Array.isArray(root.tasks)) root.tasks.forEach((t, i) => tasks.add(t, undefined, `tasks.${i}`))
  const filled: string[] = []
  for (const rec of records) {
    const run = asObject(rec, problems)
    if (!run) continue
    let taskId = text(run, 'task_id')
    if (isRecord(run.task)) taskId = tasks.add({ task_id: taskId, ...run.task }, rec.line, 'task') ?? taskId
    if (!taskId) {
      problems.error(rec.line, 'task_id', 'missing task_id (or a task object)')
      continue
    }
    const scheme = (text(run, 'scheme') ?? 'omega-point') as Scheme
    if (!SCHEMES.includes(scheme)) {
      problems.error(rec.line, 'scheme', `unknown scheme "${scheme}"; expected ${SCHEMES.join(', ')}`)
      continue
    }
    const candidates = readCandidates(run, rec.line, problems)
    if (!candidates) continue
    const chosen = chooseSet(run, scheme, candidates, rec.line, problems)
    if (!chosen) continue
    if (chosen.filled) filled.push(String(rec.line))
    const generator = text(run, 'generator')
    const setId = text(run, 'set_id') ?? text(run, 'run_id') ?? [taskId, generator ?? 'generator', scheme].join('__')
    const { task: _task, candidates: _c, ...rest } = run
    out.items.push({
      kind: 'hypothesis-set',
      externalId: setId,
      payload: { ...rest, set_id: setId, task_id: taskId, scheme, hypotheses: chosen.hypotheses, candidates },
      line: rec.line
    })
  }
  requireTasks(ctx, out.items, tasks.ids, problems)
  out.summary = {
    tasks: out.items.filter((i) => i.kind === 'rediscovery-task').length,
    sets: out.items.filter((i) => i.kind === 'hypothesis-set').length,
    setsFilledToFive: filled.length
  }
  return out
}

type Candidate = Record<string, unknown> & { id: string }

/** Candidates as given, or numbered C1..CN from the stage-4, stage-5 and further answers in proposal order. */
function readCandidates(run: Record<string, unknown>, line: number, problems: Problems): Candidate[] | null {
  if (Array.isArray(run.candidates)) {
    const result: Candidate[] = []
    for (const [i, c] of run.candidates.entries()) {
      if (!isRecord(c)) {
        problems.error(line, `candidates.${i}`, `expected a hypothesis object, found ${describe(c)}`)
        return null
      }
      result.push({ ...c, id: text(c, 'id') ?? `C${i + 1}` })
    }
    return result
  }
  const proposed: Record<string, unknown>[] = []
  const stages = Array.isArray(run.stages) ? run.stages : []
  for (const [i, s] of stages.entries()) {
    if (!isRecord(s)) {
      problems.error(line, `stages.${i}`, `expected a stage object, found ${describe(s)}`)
      return null
    }
    const stage = Number(s.stage ?? i + 1)
    if (stage < 4) continue
    const answer = jsonAnswer(s.answer)
    if (!answer || !Array.isArray(answer.hypotheses)) {
      problems.error(line, `stages.${i}.answer`, `stage ${stage} answer has no hypotheses array`)
      return null
    }
    for (const h of answer.hypotheses) if (isRecord(h)) proposed.push({ ...h, stage })
  }
  const further = Array.isArray(run.further) ? run.further : Array.isArray(run.extra) ? run.extra : []
  for (const [i, f] of further.entries()) {
    const answer = jsonAnswer(isRecord(f) && 'answer' in f ? f.answer : f)
    if (!answer || !Array.isArray(answer.hypotheses)) {
      problems.error(line, `further.${i}.answer`, 'a further answer has no hypotheses array')
      return null
    }
    for (const h of answer.hypotheses) if (isRecord(h)) proposed.push({ ...h, stage: 'further' })
  }
  // A single request: its one answer is the hypotheses list.
  if (!stages.length && !further.length && Array.isArray(run.hypotheses)) {
    for (const h of run.hypotheses) if (isRecord(h)) proposed.push({ ...h })
  }
  if (!proposed.length) {
    problems.error(line, 'stages', 'no hypotheses found (stages 4-5, further requests, candidates or hypotheses)')
    return null
  }
  return proposed.map((h, i) => ({ ...h, id: `C${i + 1}` }))
}

function chooseSet(
  run: Record<string, unknown>,
  scheme: Scheme,
  candidates: Candidate[],
  line: number,
  problems: Problems
): { hypotheses: Candidate[]; filled: boolean } | null {
  const rawSelection = isRecord(run.selected) ? run.selected.selected : isRecord(run.selection) ? run.selection.selected : run.selected
  if (rawSelection === undefined && scheme === 'single') return { hypotheses: candidates, filled: false }
  if (rawSelection !== undefined && !Array.isArray(rawSelection)) {
    problems.error(line, 'selected', 'selected must be a list of candidate ids ("C1", …)')
    return null
  }
  const answer = (rawSelection ?? []).map((id) => String(id))
  const result = fillSelection(answer, candidates.map((c) => c.id), SET_SIZE)
  if (rawSelection === undefined) problems.warn(line, 'selected', `no selection; the first ${SET_SIZE} candidates in the order proposed are used`)
  else {
    if (result.unknown.length) problems.warn(line, 'selected', `not candidates, ignored: ${result.unknown.join(', ')}`)
    if (result.duplicates.length) problems.warn(line, 'selected', `named twice, counted once: ${result.duplicates.join(', ')}`)
    if (result.overflow.length) problems.warn(line, 'selected', `more than ${SET_SIZE} selected; left out: ${result.overflow.join(', ')}`)
    if (result.filled.length) {
      problems.warn(line, 'selected', `${result.fromAnswer.length} selected; filled with ${result.filled.join(', ')} in the order proposed`)
    }
  }
  const byId = new Map(candidates.map((c) => [c.id, c]))
  return { hypotheses: result.selected.map((id) => byId.get(id)!), filled: result.filled.length > 0 }
}

/** A stage answer as an object: given as JSON, as a JSON string, or as model text with a JSON object inside. */
export function jsonAnswer(answer: unknown): Record<string, unknown> | null {
  if (isRecord(answer)) return answer
  if (typeof answer !== 'string') return null
  try {
    const v = JSON.parse(answer) as unknown
    return isRecord(v) ? v : null
  } catch {
    const start = answer.indexOf('{')
    const end = answer.lastIndexOf('}')
    if (start < 0 || end <= start) return null
    try {
      const v = JSON.parse(answer.slice(start, end + 1)) as unknown
      return isRecord(v) ? v : null
    } catch {
      return null
    }
  }
}
