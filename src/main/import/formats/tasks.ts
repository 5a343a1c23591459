import { asObject, Problems, text } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

/**
 * Rediscovery tasks (hypothesis benchmark): `task_id, background, question, subject, finding, key_points,
 * reference_b`. Rows straight from the composition and leak-audit requests may carry `suitable: false` or
 * `leak: true`; the protocol drops such tasks, so they are skipped with a warning rather than imported.
 */
export function parseTasks(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  for (const rec of records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const taskId = text(row, 'task_id')
    if (!taskId) {
      problems.error(rec.line, 'task_id', 'missing task_id')
      continue
    }
    if (row.suitable === false) {
      problems.warn(rec.line, 'suitable', `task ${taskId} was composed as unsuitable; skipped`)
      out.skipped++
      continue
    }
    if (row.leak === true) {
      problems.warn(rec.line, 'leak', `task ${taskId} failed the leak audit; skipped`)
      out.skipped++
      continue
    }
    out.items.push({ kind: 'rediscovery-task', externalId: taskId, payload: { ...row, task_id: taskId }, line: rec.line })
  }
  return out
}
