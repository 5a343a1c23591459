import { isRecord } from '../read-records'
import { asObject, dropEmptyCells, firstText, Problems } from '../fields'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'

/** Keys under which a JSON file may hold its rows. */
export const ABSTRACT_ARRAY_KEYS = ['papers', 'articles', 'abstracts', 'items', 'data']

const ID_KEYS = ['pmid', 'paper_id', 'id', 'doi']
const TITLE_KEYS = ['title', 'article_title', 'ArticleTitle']
const JOURNAL_KEYS = ['journal', 'journal_title', 'source', 'Journal']
const ABSTRACT_KEYS = ['abstract', 'abstract_text', 'AbstractText']

/**
 * Published papers as PubMed lists them, for composing rediscovery tasks (`judge --instrument generation --generate
 * tasks`): one row per paper with an id (`pmid`, `paper_id`, `id` or `doi`), `title`, `journal` and `abstract`
 * (`authors`, `year` and any other field are kept). A structured abstract may be a list of sections, texts or
 * `{label, text}`, joined as PubMed shows them (`LABEL: text`, one paragraph each).
 */
export function parseAbstracts(ctx: ImportContext, records: SourceRecord[]): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const journals = new Set<string>()
  for (const rec of records) {
    const raw = asObject(rec, problems)
    if (!raw) continue
    const row = dropEmptyCells(raw)
    const id = firstText(row, ID_KEYS)
    const title = firstText(row, TITLE_KEYS)
    const journal = firstText(row, JOURNAL_KEYS)
    const abstractKey = ABSTRACT_KEYS.find((k) => row[k] !== undefined)
    const abstract = abstractKey ? abstractText(row[abstractKey]) : undefined
    if (!id) problems.error(rec.line, 'pmid', 'missing an id of the paper (pmid, paper_id, id or doi)')
    if (!title) problems.error(rec.line, 'title', 'missing title')
    if (abstract === null) problems.error(rec.line, abstractKey, 'abstract must be a text or a list of sections (texts or {label, text})')
    else if (!abstract?.trim()) problems.error(rec.line, abstractKey ?? 'abstract', 'missing abstract')
    if (!id || !title || !abstract?.trim()) continue
    const rest = Object.fromEntries(Object.entries(row).filter(([k]) => ![id.key, title.key, journal?.key, abstractKey].includes(k)))
    if (journal) journals.add(journal.value)
    out.items.push({
      kind: 'paper',
      externalId: id.value,
      payload: { ...rest, paper_id: id.value, title: title.value, journal: journal?.value ?? '', abstract },
      line: rec.line
    })
  }
  out.summary = { papers: out.items.length, journals: journals.size, without_journal: out.items.filter((i) => !i.payload.journal).length }
  return out
}

/** The abstract as one text; null when it is neither a text nor a list of sections. */
function abstractText(v: unknown): string | null | undefined {
  if (typeof v === 'string') return v
  if (!Array.isArray(v)) return null
  const parts: string[] = []
  for (const s of v) {
    if (typeof s === 'string') parts.push(s)
    else if (isRecord(s) && typeof s.text === 'string') parts.push(typeof s.label === 'string' && s.label.trim() ? `${s.label.trim()}: ${s.text}` : s.text)
    else return null
  }
  return parts.join('\n\n')
}
