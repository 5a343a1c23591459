import { getItemByExternalId } from '../../store/items'
import { asObject, describe, Problems, text } from '../fields'
import { isRecord } from '../read-records'
import { emptyParsed, type ImportContext, type ItemDraft, type ParsedImport, type SourceRecord } from '../types'

/**
 * Hypothesis sets: `set_id, task_id, generator, company, scheme, hypotheses[]`, one per line or in a JSON array;
 * or a manifest `{ "tasks": [...], "sets": [...] }`. The task must already be in the project or come in the same
 * import. Hypotheses without an id get `H1..Hn` by position, so ids are stable for a given file.
 */
export const HYPOTHESIS_ARRAY_KEYS = ['sets', 'hypothesis_sets', 'items', 'data'] as const

export function parseHypotheses(ctx: ImportContext, records: SourceRecord[], root: Record<string, unknown> | null): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const tasks = new TaskCollector(ctx, out, problems)
  if (root && Array.isArray(root.tasks)) root.tasks.forEach((t, i) => tasks.add(t, undefined, `tasks.${i}`))
  for (const rec of records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const setId = text(row, 'set_id')
    if (!setId) {
      problems.error(rec.line, 'set_id', 'missing set_id')
      continue
    }
    const hypotheses = normaliseHypotheses(row.hypotheses, rec.line, 'hypotheses', problems)
    if (!hypotheses) continue
    const taskId = text(row, 'task_id')
    out.items.push({
      kind: 'hypothesis-set',
      externalId: setId,
      payload: { ...row, set_id: setId, ...(taskId ? { task_id: taskId } : {}), hypotheses },
      line: rec.line
    })
  }
  requireTasks(ctx, out.items, tasks.ids, problems)
  out.summary = {
    sets: out.items.filter((i) => i.kind === 'hypothesis-set').length,
    tasks: out.items.filter((i) => i.kind === 'rediscovery-task').length
  }
  return out
}

/**
 * Tasks that come with the sets (a manifest's `tasks`, a run's `task`): imported as rediscovery tasks unless the
 * project or an earlier entry already has them.
 */
export class TaskCollector {
  readonly ids: string[] = []
  constructor(
    private readonly ctx: ImportContext,
    private readonly out: ParsedImport,
    private readonly problems: Problems
  ) {}

  add(raw: unknown, line: number | undefined, field: string): string | undefined {
    if (!isRecord(raw)) {
      this.problems.error(line, field, `expected a task object, found ${describe(raw)}`)
      return undefined
    }
    const taskId = text(raw, 'task_id') ?? text(raw, 'id')
    if (!taskId) {
      this.problems.error(line, `${field}.task_id`, 'missing task_id')
      return undefined
    }
    if (!this.ids.includes(taskId) && !getItemByExternalId(this.ctx.db, 'rediscovery-task', taskId)) {
      const { id: _id, ...rest } = raw
      this.out.items.push({ kind: 'rediscovery-task', externalId: taskId, payload: { ...rest, task_id: taskId }, line: line ?? 1 })
    }
    this.ids.push(taskId)
    return taskId
  }
}

/** Hypotheses as objects with ids; a bare string is taken as the statement. Null (and an error) when unusable. */
export function normaliseHypotheses(raw: unknown, line: number, field: string, problems: Problems): Record<string, unknown>[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.error(line, field, raw === undefined ? 'missing hypotheses' : 'hypotheses must be a non-empty array')
    return null
  }
  const result: Record<string, unknown>[] = []
  let ok = true
  raw.forEach((h, i) => {
    if (typeof h === 'string') result.push({ id: `H${i + 1}`, statement: h })
    else if (isRecord(h)) result.push({ ...h, id: text(h, 'id') ?? `H${i + 1}` })
    else {
      problems.error(line, `${field}.${i}`, `expected a hypothesis object, found ${describe(h)}`)
      ok = false
    }
  })
  const seen = new Set<string>()
  result.forEach((h, i) => {
    const id = String(h.id)
    if (seen.has(id)) {
      problems.error(line, `${field}.${i}.id`, `hypothesis id "${id}" appears twice in the set`)
      ok = false
    }
    seen.add(id)
  })
  return ok ? result : null
}

/** Every set's task must exist in the project or among the tasks of this import. */
export function requireTasks(ctx: ImportContext, items: ReadonlyArray<ItemDraft>, importedTaskIds: ReadonlyArray<string>, problems: Problems): void {
  const inImport = new Set(importedTaskIds)
  for (const item of items) {
    if (item.kind !== 'hypothesis-set') continue
    const taskId = item.payload.task_id
    if (typeof taskId !== 'string' || !taskId) {
      problems.error(item.line, 'task_id', 'missing task_id')
      continue
    }
    if (inImport.has(taskId) || getItemByExternalId(ctx.db, 'rediscovery-task', taskId)) continue
    problems.error(item.line, 'task_id', `task "${taskId}" is not in the project; import the tasks first`)
  }
}
