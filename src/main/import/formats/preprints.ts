import { isRecord } from '../read-records'
import { asObject, describe, dropEmptyCells, firstText, Problems, text, yesNo } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

/** Keys under which a JSON file may hold its rows. */
export const PREPRINT_ARRAY_KEYS = ['pairs', 'papers', 'items', 'data']

const ID_KEYS = ['id', 'paper_id', 'preprint_id', 'doi', 'pmid', 'arxiv_id']
const PAPER_FIELDS = ['title', 'authors', 'abstract']

/**
 * Published papers with their candidate preprint records, for the preprint check (`preprint-same-study`) and for
 * composing rediscovery tasks from the papers. A row is one of:
 * - `{pair_id?, paper: {...}, preprint: {...}, same_study?}`: one paper and one candidate;
 * - `{paper: {...}, candidates: [{..., same_study?}, ...]}`: one paper and every candidate found for it;
 * - a flat CSV row: `paper_id, paper_title, paper_authors, paper_abstract, paper_journal, preprint_id,
 *   preprint_title, preprint_authors, preprint_abstract, same_study` (any other `paper_`/`preprint_` column stays
 *   with its record).
 * Each record has a `title`, `authors` (text, or a list) and an `abstract`. `same_study` (true/false, yes/no, 1/0)
 * is the reference answer the check's probabilities are scored on; it is withheld like any label. A pair is named
 * by `pair_id`, else by the paper's and the preprint's ids (`id`, `doi`, `pmid`…) joined by `~`.
 */
export function parsePreprints(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const papers = new Set<string>()
  const balance = { same_study: 0, different_study: 0, unlabelled: 0 }
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    const flat = !('paper' in row) && Object.keys(row).some((k) => k.startsWith('paper_') && k !== 'paper_id')
    const paper = flat ? prefixed(row, 'paper_') : record(row.paper, 'paper', rec.line, problems)
    if (!paper) continue
    if (!checkRecord(paper, 'paper', rec.line, problems)) continue
    const paperId = firstText(paper, ID_KEYS)?.value ?? text(row, 'paper_id')
    const candidates = candidatesOf(row, flat, rec.line, problems)
    if (!candidates) continue
    const rest = Object.fromEntries(Object.entries(row).filter(([k]) => !isRecordKey(k, flat)))
    candidates.forEach((cand, i) => {
      const field = row.candidates !== undefined ? `candidates[${i}]` : 'preprint'
      if (!checkRecord(cand, field, rec.line, problems)) return
      const own = { ...cand }
      const label = own.same_study !== undefined ? yesNo(own, 'same_study') : yesNo(row, 'same_study')
      if (label === null) {
        problems.error(rec.line, own.same_study !== undefined ? `${field}.same_study` : 'same_study', 'same_study must be true or false (yes/no, 1/0)')
        return
      }
      delete own.same_study
      const preprintId = firstText(cand, ID_KEYS)?.value ?? text(row, 'preprint_id')
      const pairId = (candidates.length === 1 ? text(row, 'pair_id') : undefined) ?? text(cand, 'pair_id') ?? (paperId ? `${paperId}~${preprintId ?? i + 1}` : undefined)
      if (!pairId) {
        problems.error(rec.line, 'pair_id', 'missing pair_id (or an id of the paper: id, doi, pmid, paper_id)')
        return
      }
      delete own.pair_id
      papers.add(paperId ?? `${paper.title}\u0000${paper.abstract}`)
      if (label === undefined) balance.unlabelled++
      else if (label) balance.same_study++
      else balance.different_study++
      const payload: Record<string, unknown> = { ...withoutPairKeys(rest), paper, preprint: own }
      if (label !== undefined) payload.same_study = label
      out.items.push({ kind: 'preprint-pair', externalId: pairId, payload, line: rec.line })
    })
  }
  out.summary = { papers: papers.size, pairs: out.items.length, ...balance }
  return out
}

function isRecordKey(key: string, flat: boolean): boolean {
  if (flat) return key.startsWith('paper_') || key.startsWith('preprint_')
  return key === 'paper' || key === 'preprint' || key === 'candidates'
}

function withoutPairKeys(row: Record<string, unknown>): Record<string, unknown> {
  const { pair_id: _pair, same_study: _label, ...rest } = row
  return rest
}

/** The columns that start with `prefix`, without it: a flat CSV row's paper or preprint. */
function prefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v
  return out
}

function record(v: unknown, field: string, line: number, problems: Problems): Record<string, unknown> | null {
  if (isRecord(v)) return { ...v }
  problems.error(line, field, v === undefined ? `missing ${field} (an object with title, authors, abstract)` : `${field} must be an object with title, authors, abstract, found ${describe(v)}`)
  return null
}

function checkRecord(r: Record<string, unknown>, field: string, line: number, problems: Problems): boolean {
  let ok = true
  for (const key of PAPER_FIELDS) {
    const v = r[key]
    if (key === 'authors') {
      if (v !== undefined && v !== null && typeof v !== 'string' && !(Array.isArray(v) && v.every((a) => typeof a === 'string'))) {
        problems.error(line, `${field}.authors`, 'authors must be a text or a list of names')
        ok = false
      }
      continue
    }
    if (typeof v !== 'string' || !v.trim()) {
      problems.error(line, `${field}.${key}`, `missing ${key} of the ${field.startsWith('paper') ? 'paper' : 'preprint'}`)
      ok = false
    }
  }
  return ok
}

function candidatesOf(row: Record<string, unknown>, flat: boolean, line: number, problems: Problems): Record<string, unknown>[] | null {
  if (flat) return [prefixed(row, 'preprint_')]
  if (row.candidates !== undefined) {
    if (!Array.isArray(row.candidates) || row.candidates.length === 0) {
      problems.error(line, 'candidates', 'candidates must be a non-empty list of preprint records')
      return null
    }
    const out: Record<string, unknown>[] = []
    row.candidates.forEach((c, i) => {
      if (isRecord(c)) out.push({ ...c })
      else problems.error(line, `candidates[${i}]`, `expected a preprint record, found ${describe(c)}`)
    })
    return out.length === row.candidates.length ? out : null
  }
  const preprint = record(row.preprint, 'preprint', line, problems)
  return preprint ? [preprint] : null
}
