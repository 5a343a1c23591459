import { createHash } from 'node:crypto'
import { asObject, cellNumber, dropEmptyCells, firstText, KeyDeduper, Problems, text } from '../fields'
import { parsePythonLiteral, PythonLiteralError } from '../python-literal'
import { isRecord } from '../read-records'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'
import { payloadsOfKind } from '../../store/items'

/**
 * LiveIdeaBench files, record by record:
 *
 * - **Results rows** (the benchmark's results table, e.g. `view.csv` written by pandas with its index column):
 *   `keywords, idea, idea_model, critic_model, parsed_scores` (also `parsed_score` or `scores`), where the scores
 *   cell is JSON, a Python dict literal (`{'originality': 8, 'feasibility': 6}`, with or without `clarity`), or
 *   `N/A`. Separate `originality`/`feasibility`/`clarity`/`fluency` columns are gathered into `scores` when there is
 *   no scores column. → `idea` items, key `lib-<md5(idea)>`, plus `@<critic>` when a critic is named.
 * - **Similarity records** (the fluency step): `hash_A, hash_B, score` (plus `method`, `fluency_critic_model`,
 *   `reasoning`), where a hash is the MD5 of the idea text, as LiveIdeaBench computes it; or the texts themselves as
 *   `idea_A`/`idea_B`. Hashes are resolved against ideas in the same file or already in the project.
 *   → `idea-pair` items, key `libp-<hashA>-<hashB>`.
 */
const SCORE_COLUMNS = ['parsed_scores', 'parsed_score', 'scores']
const SCORE_FIELDS = ['originality', 'feasibility', 'clarity', 'fluency', 'flexibility']
const NOT_AVAILABLE = new Set(['', 'n/a', 'na', 'nan', 'none', 'null'])

interface IdeaRef {
  idea: string
  keywords: unknown
}

export function parseLiveIdeaBench(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const ideaKeys = new KeyDeduper()
  const pairKeys = new KeyDeduper()
  const ideasByHash = new Map<string, IdeaRef>()
  const pairRows: Array<{ line: number; row: Record<string, unknown> }> = []
  let unscored = 0
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    if (isPairRecord(row)) {
      pairRows.push({ line: rec.line, row })
      continue
    }
    const idea = text(row, 'idea')
    if (!idea) {
      problems.error(rec.line, 'idea', 'missing idea (or hash_A/hash_B for a similarity record)')
      continue
    }
    const scores = readScores(row, rec.line, problems)
    if (scores === false) continue
    if (scores === null) unscored++
    const hash = md5(idea)
    ideasByHash.set(hash, { idea, keywords: row.keywords })
    const critic = text(row, 'critic_model')
    const { key, firstLine } = ideaKeys.key(`lib-${hash}${critic ? `@${critic}` : ''}`, rec.line)
    if (firstLine !== undefined) problems.warn(rec.line, 'idea', `the same idea${critic ? ` and critic` : ''} appears on line ${firstLine}; stored as ${key}`)
    const payload: Record<string, unknown> = { ...row, idea, idea_hash: hash, scores }
    for (const c of SCORE_COLUMNS) if (c !== 'scores') delete payload[c]
    if (scores && !SCORE_COLUMNS.some((c) => c in row)) for (const f of SCORE_FIELDS) delete payload[f]
    out.items.push({ kind: 'idea', externalId: key, payload, line: rec.line })
  }
  if (pairRows.length) addPairs(ctx, pairRows, ideasByHash, pairKeys, out, problems)
  out.summary = { ideas: out.items.filter((i) => i.kind === 'idea').length, unscored, ideaPairs: out.items.filter((i) => i.kind === 'idea-pair').length }
  return out
}

function isPairRecord(row: Record<string, unknown>): boolean {
  return ('hash_A' in row && 'hash_B' in row) || ('idea_A' in row && 'idea_B' in row) || ('idea_a' in row && 'idea_b' in row)
}

/** The scores of a results row: an object, null for "not available", false when malformed (reported). */
function readScores(row: Record<string, unknown>, line: number, problems: Problems): Record<string, unknown> | null | false {
  const column = SCORE_COLUMNS.find((c) => c in row)
  if (!column) {
    const separate = SCORE_FIELDS.filter((f) => f in row)
    if (!separate.length) return null
    return Object.fromEntries(separate.map((f) => [f, scoreValue(row[f])]))
  }
  const value = row[column]
  if (isRecord(value)) return value
  if (typeof value !== 'string') {
    problems.error(line, column, 'scores must be a JSON object, a Python dict or N/A')
    return false
  }
  const t = value.trim()
  if (NOT_AVAILABLE.has(t.toLowerCase())) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(t)
  } catch {
    try {
      parsed = parsePythonLiteral(t)
    } catch (e) {
      const why = e instanceof PythonLiteralError ? e.message : String(e)
      problems.error(line, column, `cannot read the scores ${JSON.stringify(t.length > 60 ? `${t.slice(0, 57)}...` : t)}: ${why}`)
      return false
    }
  }
  if (parsed === null) return null
  if (!isRecord(parsed)) {
    problems.error(line, column, 'scores must be a dict of dimension → score')
    return false
  }
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, scoreValue(v)]))
}

/** Numbers stay numbers, "7" becomes 7, "N/A" stays as written (the benchmark drops such rows from its means). */
function scoreValue(v: unknown): unknown {
  return cellNumber(v)
}

function addPairs(
  ctx: ImportContext,
  rows: Array<{ line: number; row: Record<string, unknown> }>,
  ideasByHash: Map<string, IdeaRef>,
  keys: KeyDeduper,
  out: ParsedImport,
  problems: Problems
): void {
  let projectIdeas: Map<string, IdeaRef> | null = null
  const lookup = (hash: string): IdeaRef | undefined => {
    const found = ideasByHash.get(hash)
    if (found) return found
    projectIdeas ??= ideasInProject(ctx)
    return projectIdeas.get(hash)
  }
  for (const { line, row } of rows) {
    const sides: IdeaRef[] = []
    const hashes: string[] = []
    for (const side of ['A', 'B'] as const) {
      const inline = firstText(row, [`idea_${side}`, `idea_${side.toLowerCase()}`])
      if (inline) {
        sides.push({ idea: inline.value, keywords: row.keywords })
        hashes.push(md5(inline.value))
        continue
      }
      const hash = text(row, `hash_${side}`)
      if (!hash) {
        problems.error(line, `hash_${side}`, `missing hash_${side}`)
        continue
      }
      const ref = lookup(hash.toLowerCase())
      if (!ref) {
        problems.error(line, `hash_${side}`, `no idea with MD5 ${hash} in this file or the project; import the results table first`)
        continue
      }
      sides.push(ref)
      hashes.push(hash.toLowerCase())
    }
    if (sides.length !== 2) continue
    const [a, b] = sides as [IdeaRef, IdeaRef]
    const { key, firstLine } = keys.key(`libp-${hashes[0]}-${hashes[1]}`, line)
    if (firstLine !== undefined) problems.warn(line, 'hash_A', `the same pair appears on line ${firstLine}; stored as ${key}`)
    const payload: Record<string, unknown> = {
      ...row,
      idea_a: a.idea,
      idea_b: b.idea,
      hash_a: hashes[0],
      hash_b: hashes[1],
      keywords: row.keywords ?? a.keywords ?? null
    }
    if ('score' in row) payload.score = cellNumber(row.score)
    out.items.push({ kind: 'idea-pair', externalId: key, payload, line })
  }
}

function ideasInProject(ctx: ImportContext): Map<string, IdeaRef> {
  const map = new Map<string, IdeaRef>()
  for (const payload of payloadsOfKind(ctx.db, 'idea')) {
    const p = JSON.parse(payload) as Record<string, unknown>
    if (typeof p.idea !== 'string') continue
    map.set(md5(p.idea), { idea: p.idea, keywords: p.keywords })
  }
  return map
}

/** LiveIdeaBench's `stable_hash`: MD5 of the UTF-8 text, lowercase hex. */
export function md5(s: string): string {
  return createHash('md5').update(s, 'utf8').digest('hex')
}
