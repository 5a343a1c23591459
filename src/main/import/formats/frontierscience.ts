import { createHash } from 'node:crypto'
import { basename } from 'node:path'
import { asObject, dropEmptyCells, KeyDeduper, Problems, text } from '../fields'
import { looksLikeRubric, parseRubric, RUBRIC_TOTAL } from '../rubric'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

type Track = 'olympiad' | 'research'

/**
 * FrontierScience problems: the public JSONL (`problem, answer, subject, task_group_id`) or a CSV with a
 * track/category column. The track is the row's `track` (or `category`), else the file name (`olympiad`,
 * `research`), else detected: an answer made of `Points: <n>, Item: <text>` blocks is a research rubric.
 * Research rubrics are parsed into `{points, item}`; one that cannot be parsed is an error, a total other than
 * 10 a warning. `task_group_id` is not unique: a repeat gets a stable key `fs-<track>-<id>#2` and a warning.
 */
export function parseFrontierScience(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const fileTrack = trackFromName(basename(ctx.path))
  const keys = new KeyDeduper()
  const counts: Record<Track, number> = { olympiad: 0, research: 0 }
  const subjects: Record<string, number> = {}
  const itemCounts: number[] = []
  let duplicates = 0
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    const problem = text(row, 'problem')
    const answer = text(row, 'answer')
    if (!problem) problems.error(rec.line, 'problem', 'missing problem')
    if (!answer) problems.error(rec.line, 'answer', 'missing answer')
    if (!problem || !answer) continue
    const track = rowTrack(row, fileTrack, answer, rec.line, problems)
    if (!track) continue
    const payload: Record<string, unknown> = { ...row, track, problem, answer }
    if (track === 'research') {
      const rubric = parseRubric(answer)
      if (!rubric) {
        problems.error(rec.line, 'answer', 'a research answer must be a rubric of "Points: <number>, Item: <text>" blocks; none found')
        continue
      }
      if (Math.abs(rubric.total - RUBRIC_TOTAL) > 1e-9) {
        problems.warn(rec.line, 'answer', `rubric totals ${rubric.total} points, not ${RUBRIC_TOTAL}`)
      }
      payload.rubric = rubric.items
      itemCounts.push(rubric.items.length)
    }
    const groupId = text(row, 'task_group_id')
    if (groupId) payload.task_group_id = groupId
    const base = `fs-${track}-${groupId ?? `p${sha256(problem).slice(0, 12)}`}`
    const { key, firstLine } = keys.key(base, rec.line)
    if (firstLine !== undefined) {
      duplicates++
      problems.warn(rec.line, 'task_group_id', `task_group_id "${groupId ?? ''}" repeats line ${firstLine}; stored as ${key}`)
    }
    counts[track]++
    const subject = text(row, 'subject')
    if (subject) subjects[subject] = (subjects[subject] ?? 0) + 1
    out.items.push({ kind: 'fs-problem', externalId: key, payload, line: rec.line })
  }
  out.summary = {
    tracks: counts,
    subjects,
    duplicateIds: duplicates,
    ...(itemCounts.length ? { rubricItems: { min: Math.min(...itemCounts), max: Math.max(...itemCounts) } } : {})
  }
  return out
}

export function trackFromName(name: string): Track | null {
  const lower = name.toLowerCase()
  const olympiad = lower.includes('olympiad')
  const research = lower.includes('research')
  if (olympiad === research) return null
  return olympiad ? 'olympiad' : 'research'
}

function rowTrack(row: Record<string, unknown>, fileTrack: Track | null, answer: string, line: number, problems: Problems): Track | null {
  const column = text(row, 'track') !== undefined ? 'track' : text(row, 'category') !== undefined ? 'category' : null
  if (column) {
    const value = text(row, column)!
    const track = trackFromName(value)
    if (!track) {
      problems.error(line, column, `unknown track "${value}"; expected olympiad or research`)
      return null
    }
    return track
  }
  if (fileTrack) return fileTrack
  return looksLikeRubric(answer) ? 'research' : 'olympiad'
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}
