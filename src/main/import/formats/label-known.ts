import { answerByIdFinder, sourceHeadFinder } from '../../store/annotations'
import type { Problems } from '../fields'
import type { ImportContext } from '../types'
import { stableJson } from './label-judgement'
import type { LabelRow } from './label-rows'

/**
 * Answer ids of the project and of this file. An answer keeps the id it was exported with unless the project (or
 * an earlier row) already uses it. The same answer already in the project is not imported again: by its id, or,
 * whatever its id, when it is what the same source's current answer to the item already says (so importing one
 * file twice appends no identical revisions).
 */
export class KnownAnswers {
  private readonly used = new Set<string>()
  private readonly stored
  private readonly head
  /** The latest answer of the file so far per (item, instrument, source), as stable JSON. */
  private readonly inFile = new Map<string, string>()

  constructor(ctx: ImportContext) {
    this.stored = answerByIdFinder(ctx.db)
    // The same head the import appends after (write.ts).
    this.head = sourceHeadFinder(ctx.db)
  }

  idFor(row: LabelRow, itemId: number, judgement: unknown, problems: Problems): string | 'unchanged' | null {
    const key = [itemId, row.instrument.id, row.sourceKind, row.source].join('\u0000')
    const text = stableJson(judgement)
    const current = this.inFile.get(key) ?? this.currentOf(itemId, row)
    this.inFile.set(key, text)
    const byId = this.byId(row, itemId, text, problems)
    if (byId === 'unchanged') return byId
    if (current === text) return 'unchanged'
    return byId
  }

  private currentOf(itemId: number, row: LabelRow): string | undefined {
    const head = this.head(itemId, row.instrument.id, row.sourceKind, row.source)
    return head && !head.retracted ? stableJson(JSON.parse(head.judgement)) : undefined
  }

  private byId(row: LabelRow, itemId: number, text: string, problems: Problems): string | 'unchanged' | null {
    const id = row.annotationId
    if (id === undefined) return null
    if (this.used.has(id)) {
      problems.warn(row.line, 'annotation_id', `annotation_id ${id} appears on an earlier answer of the file; this one gets a new id`)
      return null
    }
    this.used.add(id)
    const prior = this.stored(id)
    if (!prior) return id
    const same =
      prior.item_id === itemId &&
      prior.instrument_id === row.instrument.id &&
      prior.source_kind === row.sourceKind &&
      prior.source_name === row.source &&
      stableJson(JSON.parse(prior.judgement)) === text
    if (same) return 'unchanged'
    problems.warn(row.line, 'annotation_id', `annotation_id ${id} is already in the project for another answer; this one is stored as a new revision with a new id`)
    return null
  }
}
