import { asObject, Problems, text } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

/**
 * Research questions for cue rating: `question_id, question, background, reference_answer`. The cue-rating
 * request names questions by their task (`Task [TASK ID]`), so a row with only `task_id` uses it as its id.
 */
export function parseQuestions(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  for (const rec of records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const questionId = text(row, 'question_id') ?? text(row, 'task_id')
    if (!questionId) {
      problems.error(rec.line, 'question_id', 'missing question_id')
      continue
    }
    out.items.push({ kind: 'research-question', externalId: questionId, payload: { ...row, question_id: questionId }, line: rec.line })
  }
  return out
}
