import { citationPairPasses } from '../../../shared/protocol'
import { asObject, cellNumber, dropEmptyCells, Problems, text } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'
import { readReferencedText } from '../referenced-file'

/**
 * The citation pair builder (IdeaEval): papers `paper_id, cohort, citations, markdown | path, topic` (CSV or JSON)
 * become candidate pairs within each cohort, kept when |ca − cb| ≥ 4 and |ln(1+ca) − ln(1+cb)| ≥ 0.5, and labelled
 * by citation order (`label_source: "citations"`): the more cited side is better. Sides are in file order (the
 * earlier paper is `a`), so the label is not tied to a side; the display order is randomised later anyway.
 * Pair id: `<cohort>__<paper a>__<paper b>`.
 */
interface Paper {
  id: string
  cohort: string
  citations: number
  line: number
  row: Record<string, unknown>
  markdown: string
}

export function parseCitationPairs(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const cohorts = new Map<string, Paper[]>()
  const seen = new Map<string, number>()
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    const id = text(row, 'paper_id')
    const cohort = text(row, 'cohort')
    const citations = cellNumber(row.citations)
    let ok = true
    if (!id) {
      problems.error(rec.line, 'paper_id', 'missing paper_id')
      ok = false
    }
    if (!cohort) {
      problems.error(rec.line, 'cohort', 'missing cohort')
      ok = false
    }
    if (typeof citations !== 'number' || !Number.isInteger(citations) || citations < 0) {
      problems.error(rec.line, 'citations', `citations must be a whole number ≥ 0, found ${JSON.stringify(row.citations ?? null)}`)
      ok = false
    }
    if (id && seen.has(id)) {
      problems.error(rec.line, 'paper_id', `paper "${id}" appears twice (first on line ${seen.get(id)})`)
      ok = false
    }
    if (id && !seen.has(id)) seen.set(id, rec.line)
    const markdown = paperMarkdown(ctx, row, rec.line, problems)
    if (!ok || markdown === null) continue
    const paper: Paper = { id: id!, cohort: cohort!, citations: citations as number, line: rec.line, row, markdown }
    const list = cohorts.get(paper.cohort) ?? []
    list.push(paper)
    cohorts.set(paper.cohort, list)
  }

  let candidates = 0
  const perCohort: Record<string, { papers: number; candidates: number; kept: number }> = {}
  for (const [cohort, papers] of cohorts) {
    const stats = { papers: papers.length, candidates: 0, kept: 0 }
    for (let i = 0; i < papers.length; i++) {
      for (let j = i + 1; j < papers.length; j++) {
        const a = papers[i]!
        const b = papers[j]!
        stats.candidates++
        if (!citationPairPasses(a.citations, b.citations)) continue
        stats.kept++
        out.items.push({ kind: 'proposal-pair', externalId: `${cohort}__${a.id}__${b.id}`, payload: pairPayload(cohort, a, b), line: b.line })
      }
    }
    candidates += stats.candidates
    perCohort[cohort] = stats
  }
  const aBetter = out.items.filter((i) => i.payload.label === 'a_better').length
  out.summary = {
    papers: [...cohorts.values()].reduce((n, list) => n + list.length, 0),
    cohorts: cohorts.size,
    candidatePairs: candidates,
    keptPairs: out.items.length,
    labels: { a_better: aBetter, b_better: out.items.length - aBetter },
    perCohort
  }
  return out
}

function paperMarkdown(ctx: ImportContext, row: Record<string, unknown>, line: number, problems: Problems): string | null {
  const inline = text(row, 'markdown')
  if (inline) return inline
  const path = text(row, 'path')
  if (!path) {
    problems.error(line, 'markdown', 'a paper needs markdown inline or a path to a Markdown file')
    return null
  }
  const read = readReferencedText(ctx, path)
  if ('error' in read) {
    problems.error(line, 'path', `${path}: ${read.error}`)
    return null
  }
  if (read.text.trim()) return read.text
  problems.error(line, 'path', `${path} is empty`)
  return null
}

/** The side of a pair: the paper's own fields (minus those the pair holds) with its proposal text. */
function side(p: Paper): Record<string, unknown> {
  const { paper_id: _id, cohort: _cohort, citations: _citations, topic: _topic, cutoff_date: _cutoff, ...rest } = p.row
  return { ...rest, paper_id: p.id, markdown: p.markdown, citations: p.citations }
}

function pairPayload(cohort: string, a: Paper, b: Paper): Record<string, unknown> {
  const topic = text(a.row, 'topic') ?? text(b.row, 'topic')
  const cutoff = text(a.row, 'cutoff_date') ?? text(b.row, 'cutoff_date')
  return {
    pair_id: `${cohort}__${a.id}__${b.id}`,
    ...(topic ? { topic } : {}),
    cohort,
    ...(cutoff ? { cutoff_date: cutoff } : {}),
    a: side(a),
    b: side(b),
    label: a.citations > b.citations ? 'a_better' : 'b_better',
    label_source: 'citations'
  }
}
