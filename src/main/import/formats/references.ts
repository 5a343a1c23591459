import { isRecord } from '../read-records'
import { asObject, dropEmptyCells, firstText, Problems, text, textList } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

/** Keys under which a JSON file may hold its rows. */
export const REFERENCE_ARRAY_KEYS = ['pairs', 'references', 'items', 'data']

/**
 * Two readers' references of one paper, for the reference comparison (`reference-comparison`): reader A's and
 * reader B's finding and key points, as two task compositions by different models wrote them. A row is
 * `{pair_id | task_id, abstract?, reference_a: {finding, key_points}, reference_b: {...}}` or a flat CSV row
 * `pair_id, finding_a, key_points_a, finding_b, key_points_b` (key points as a JSON list or separated by
 * semicolons). Who composed each (`model_a`, `model_b`…) is kept, and not shown.
 */
export function parseReferences(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    const id = firstText(row, ['pair_id', 'task_id', 'paper_id'])
    if (!id) problems.error(rec.line, 'pair_id', 'missing pair_id (or task_id)')
    const a = reference(row, 'a', rec.line, problems)
    const b = reference(row, 'b', rec.line, problems)
    if (!id || !a || !b) continue
    const rest = Object.fromEntries(
      Object.entries(row).filter(([k]) => !['pair_id', 'reference_a', 'reference_b', 'finding_a', 'finding_b', 'key_points_a', 'key_points_b'].includes(k))
    )
    const taskId = text(row, 'task_id')
    out.items.push({ kind: 'reference-pair', externalId: id.value, payload: { ...rest, ...(taskId ? { task_id: taskId } : {}), reference_a: a, reference_b: b }, line: rec.line })
  }
  out.summary = { pairs: out.items.length }
  return out
}

function reference(row: Record<string, unknown>, side: 'a' | 'b', line: number, problems: Problems): { finding: string; key_points: string[] } | null {
  const nested = row[`reference_${side}`]
  const from = isRecord(nested) ? dropEmptyCells(nested) : { finding: row[`finding_${side}`], key_points: row[`key_points_${side}`] }
  const where = isRecord(nested) ? `reference_${side}.` : ''
  if (nested !== undefined && !isRecord(nested)) {
    problems.error(line, `reference_${side}`, `reference_${side} must be an object with finding and key_points`)
    return null
  }
  const finding = text(from, 'finding')
  const points = textList(from, 'key_points')
  let ok = true
  if (!finding) {
    problems.error(line, where ? `${where}finding` : `finding_${side}`, `missing reader ${side.toUpperCase()}'s finding`)
    ok = false
  }
  if (points === null) {
    problems.error(line, where ? `${where}key_points` : `key_points_${side}`, 'key points must be a list of texts (or texts separated by semicolons)')
    ok = false
  }
  return ok ? { ...(isRecord(nested) ? from : {}), finding: finding!, key_points: points ?? [] } : null
}
