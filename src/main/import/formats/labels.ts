import type { ItemKind } from '../../../shared/items/kinds'
import { unescapeFormulaCell } from '../../files/table'
import { getItemByExternalId } from '../../store/items'
import { asObject, Problems } from '../fields'
import type { SourceKind } from '../label-columns'
import type { ReadResult } from '../read-records'
import { emptyParsed, type ImportContext, type ParsedImport } from '../types'
import type { ImportedAnnotationDraft } from '../write'
import { readFinals } from './label-finals'
import { checkedJudgement, unitsFieldOf, type ImportItem } from './label-judgement'
import { KnownAnswers } from './label-known'
import { readRow, type LabelRow } from './label-rows'

export { unitsFieldOf }
export { coerceCell, judgementFromColumns } from './label-rows'

/**
 * Human labels or judge outputs made elsewhere (layout in label-columns.ts). Each answer is validated against its
 * instrument's judgement schema and stored in `annotations` (`origin='import'`): a human source becomes an annotator,
 * a model keeps its name as `source_name`. Rows naming a `unit` (a hypothesis of a set, a forecast) are gathered
 * per (item, instrument, source) into the instrument's unit list, e.g. `{scores: [{id: unit, ...}]}`.
 * The instrument's item checks (exact quotes, coverage of units) are reported as warnings: the answer was given
 * elsewhere and is kept as given. An answer keeps its `annotation_id` where the project does not know it yet; one the
 * project already holds unchanged is left out, so importing an export twice adds nothing.
 *
 * Final labels (`source_kind: 'final'`, as the labels export writes them): one from an adjudication is stored as an
 * adjudication (its id, curator, reason and the answers it rests on kept); one from the human majority is recomputed
 * from the answers the project will hold after the import and only checked: a difference is a warning on its line.
 */

export async function parseLabels(ctx: ImportContext, read: ReadResult): Promise<ParsedImport> {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const csv = read.container === 'csv' || read.container === 'tsv'
  const rows: LabelRow[] = []
  for (const rec of read.records) {
    const object = asObject(rec, problems)
    if (!object) continue
    const row = csv ? unescapedCells(object) : object
    const parsed = readRow(row, rec.line, csv, problems)
    if (parsed) rows.push(parsed)
  }

  // Group unit rows of one answer; other rows are answers by themselves. Order follows the file.
  const groups = new Map<string, LabelRow[]>()
  const answers: LabelRow[][] = []
  for (const r of rows) {
    if (r.unit === undefined) {
      answers.push([r])
      continue
    }
    const units = unitsFieldOf(r.instrument)
    if (!units) {
      problems.error(r.line, 'unit', `instrument ${r.instrument.id} has no units; leave unit empty`)
      continue
    }
    const key = [r.item, r.instrument.id, r.sourceKind, r.source].join('\u0000')
    const group = groups.get(key)
    if (group) group.push(r)
    else {
      const fresh = [r]
      groups.set(key, fresh)
      answers.push(fresh)
    }
  }

  const itemCache = new Map<string, ImportItem | null>()
  const known = new KnownAnswers(ctx)
  const bySource: Record<string, number> = {}
  const byInstrument: Record<string, number> = {}
  const finals: Array<{ group: LabelRow[]; item: ImportItem }> = []
  let unchanged = 0
  for (const group of answers) {
    const first = group[0]!
    const inst = first.instrument
    const item = findItem(ctx, inst.itemKind, first.item, itemCache)
    if (!item) {
      problems.error(first.line, 'item', `no ${inst.itemKind} "${first.item}" in the project`)
      continue
    }
    if (inst.accepts && !inst.accepts(item.payload as never)) {
      problems.error(first.line, 'instrument', `instrument ${inst.id} does not apply to ${first.item}`)
      continue
    }
    // Final labels rest on the answers: they are read once every answer of the file is.
    if (first.final) {
      finals.push({ group, item })
      continue
    }
    const judgement = checkedJudgement(group, item, csv, problems)
    if (judgement === null) continue
    const sourceKind = first.sourceKind as SourceKind
    const id = known.idFor(first, item.id, judgement, problems)
    if (id === 'unchanged') {
      unchanged++
      continue
    }
    const draft: ImportedAnnotationDraft = {
      itemId: item.id,
      itemExternalId: first.item,
      instrumentId: inst.id,
      instrumentVersion: first.version,
      sourceKind,
      sourceName: first.source,
      judgement,
      display: first.display,
      activeMs: first.activeMs,
      createdAt: first.createdAt,
      line: first.line,
      ...(id ? { annotationId: id } : {})
    }
    out.annotations.push(draft)
    const who = `${sourceKind}:${first.source}`
    bySource[who] = (bySource[who] ?? 0) + 1
    byInstrument[inst.id] = (byInstrument[inst.id] ?? 0) + 1
  }

  const checked = readFinals(ctx, finals, out.annotations as ImportedAnnotationDraft[], csv, problems)
  out.adjudications = checked.adjudications
  out.summary = {
    labels: out.annotations.length,
    bySource,
    byInstrument,
    ...(unchanged ? { unchanged } : {}),
    ...(finals.length
      ? {
          adjudications: checked.adjudications.length,
          adjudicationsUnchanged: checked.adjudicationsUnchanged,
          majoritiesChecked: checked.majoritiesChecked,
          majoritiesDiffering: checked.majoritiesDiffering
        }
      : {})
  }
  return out
}

/** Cells the CSV export escaped against spreadsheet formulas (a leading `'`), read back as they were. */
function unescapedCells(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? unescapeFormulaCell(v) : v]))
}

function findItem(ctx: ImportContext, kind: ItemKind, externalId: string, cache: Map<string, ImportItem | null>): ImportItem | null {
  const key = `${kind}\u0000${externalId}`
  if (!cache.has(key)) {
    const row = getItemByExternalId(ctx.db, kind, externalId)
    cache.set(key, row ? { id: row.id, kind: row.kind, payload: JSON.parse(row.payload) as Record<string, unknown>, payloadText: row.payload } : null)
  }
  return cache.get(key)!
}
