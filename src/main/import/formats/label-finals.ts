import type { z } from 'zod'
import type { AnyInstrument } from '../../../shared/instruments'
import { currentHumanAnswers, instrumentPayload, majorityFieldsOf } from '../../adjudication/final-labels'
import { majorityLabel, type CountedAnswer } from '../../adjudication/majority'
import { adjudicationByIdFinder } from '../../store/adjudications'
import { answerOfFinder } from '../../store/annotations'
import { annotatorNamesById } from '../../store/annotators'
import type { Problems } from '../fields'
import type { AdjudicationDraft, ImportContext } from '../types'
import type { ImportedAnnotationDraft } from '../write'
import { checkedJudgement, stableJson, type ImportItem } from './label-judgement'
import type { LabelRow } from './label-rows'

// Final labels of a labels file: adjudications to store, human majorities to check against the answers.

export interface FinalsRead {
  adjudications: AdjudicationDraft[]
  adjudicationsUnchanged: number
  majoritiesChecked: number
  majoritiesDiffering: number
}

/**
 * Adjudication-based final labels become adjudication drafts; majority-based ones are compared with the majority
 * of the human answers the project will hold once this file's answers are written.
 */
export function readFinals(
  ctx: ImportContext,
  finals: ReadonlyArray<{ group: LabelRow[]; item: ImportItem }>,
  drafts: ReadonlyArray<ImportedAnnotationDraft>,
  csv: boolean,
  problems: Problems
): FinalsRead {
  const result: FinalsRead = { adjudications: [], adjudicationsUnchanged: 0, majoritiesChecked: 0, majoritiesDiffering: 0 }
  if (!finals.length) return result
  const prospective = new ProspectiveAnswers(ctx, drafts)
  const storedAdjudication = adjudicationByIdFinder(ctx.db)
  const seenIds = new Set<string>()
  for (const { group, item } of finals) {
    const first = group[0]!
    const final = first.final!
    const inst = first.instrument
    const payload = instrumentPayload(ctx.db, { kind: item.kind, payload: item.payloadText })
    const answers = prospective.of(item.id, inst.id)
    if (final.from === 'majority') {
      result.majoritiesChecked++
      if (!checkMajority(first, group, inst, answers, payload, problems)) result.majoritiesDiffering++
      continue
    }
    const judgement = checkedJudgement(group, item, csv, problems)
    if (judgement === null) continue
    if (!final.curator || !final.reason) {
      if (!final.curator) problems.error(first.line, 'curator', 'an adjudicated final label needs its curator')
      if (!final.reason) problems.error(first.line, csv ? 'adjudication_reason' : 'reason', 'an adjudicated final label needs its reason')
      continue
    }
    const id = final.adjudicationId
    if (id !== undefined) {
      if (seenIds.has(id)) {
        problems.error(first.line, 'adjudication_id', `adjudication ${id} appears twice in the file`)
        continue
      }
      seenIds.add(id)
      const prior = storedAdjudication(id)
      if (prior) {
        if (prior.item_id === item.id && prior.instrument_id === inst.id && stableJson(JSON.parse(prior.judgement)) === stableJson(judgement)) {
          result.adjudicationsUnchanged++
        } else {
          problems.error(first.line, 'adjudication_id', `adjudication ${id} is already in the project with another item or judgement`)
        }
        continue
      }
    }
    const draft: AdjudicationDraft = {
      id: id ?? null,
      itemId: item.id,
      instrumentId: inst.id,
      judgement,
      reason: final.reason,
      curator: final.curator,
      basedOn: final.basedOn,
      createdAt: first.createdAt,
      line: first.line
    }
    const unknown = final.basedOn.filter((b) => !prospective.isAnswerOf(b, item.id, inst.id))
    if (unknown.length) {
      problems.warn(first.line, 'based_on', `the adjudication rests on answers the project will not hold (${unknown.join(', ')})`)
    }
    // An answer without a kept id gets a new one, which no adjudication can rest on yet.
    const basis = new Set(final.basedOn)
    if (answers.some((a) => a.id === null || !basis.has(a.id))) {
      problems.warn(first.line, 'based_on', 'the adjudication does not rest on every current answer of the item: it will read as stale and the human majority will stand')
    }
    result.adjudications.push(draft)
  }
  return result
}

/** Compares a majority-based final label with the majority recomputed here; false (and a warning) on a difference. */
function checkMajority(
  first: LabelRow,
  group: ReadonlyArray<LabelRow>,
  inst: AnyInstrument,
  answers: ReadonlyArray<CountedAnswer>,
  payload: Record<string, unknown>,
  problems: Problems
): boolean {
  const final = first.final!
  if (group.length > 1) problems.warn(first.line, 'unit', 'a majority-based final label is one row; unit rows after the first are not read')
  const recomputed = majorityFieldsOf(majorityLabel(inst, answers, payload))
  let stated: Record<string, unknown> | null = first.judgement
  if (stated) {
    const parsed = (inst.judgement as z.ZodType).safeParse(stated)
    if (parsed.success) stated = parsed.data as Record<string, unknown>
  }
  const differences: string[] = []
  const compare = (name: string, file: unknown, here: unknown) => {
    if (stableJson(file) !== stableJson(here)) differences.push(`${name} ${show(file)} in the file, ${show(here)} recomputed`)
  }
  if (final.majority !== undefined) compare('majority', final.majority, recomputed.majority)
  compare('judgement', stated, recomputed.judgement)
  if (final.majorityValues !== undefined) compare('majority_values', final.majorityValues, recomputed.majority_values)
  if (final.nAnswers !== undefined) compare('n_answers', final.nAnswers, recomputed.n_answers)
  if (final.nAgreeing !== undefined) compare('n_agreeing', final.nAgreeing, recomputed.n_agreeing)
  if (final.nAbstained !== undefined) compare('n_abstained', final.nAbstained, recomputed.n_abstained)
  if (!differences.length) return true
  problems.warn(
    first.line,
    undefined,
    `the human majority of ${first.item} (${inst.id}) recomputed from the answers differs from this line: ${differences.join('; ')}. The project keeps its own majority.`
  )
  return false
}

function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v)
}

/**
 * The current human answers of an item once the import is written: the project's, each replaced by a later answer of
 * the same person in the file (which supersedes it), plus the file's answers from new people.
 */
class ProspectiveAnswers {
  private readonly byInstrument = new Map<string, Map<number, Map<string, CountedAnswer>>>()
  private readonly names: Map<number, string>
  private readonly answerOf

  constructor(
    private readonly ctx: ImportContext,
    private readonly drafts: ReadonlyArray<ImportedAnnotationDraft>
  ) {
    this.names = annotatorNamesById(ctx.db)
    this.answerOf = answerOfFinder(ctx.db)
  }

  of(itemId: number, instrumentId: string): CountedAnswer[] {
    let byItem = this.byInstrument.get(instrumentId)
    if (!byItem) {
      byItem = new Map()
      for (const [item, rows] of currentHumanAnswers(this.ctx.db, instrumentId)) {
        const byPerson = new Map<string, CountedAnswer>()
        for (const r of rows) {
          const who = (r.annotator_id !== null ? this.names.get(r.annotator_id) : undefined) ?? r.source_name
          byPerson.set(who, { id: r.id, judgement: JSON.parse(r.judgement) as unknown, createdAt: r.created_at })
        }
        byItem.set(item, byPerson)
      }
      for (const d of this.drafts) {
        if (d.instrumentId !== instrumentId || d.sourceKind !== 'human') continue
        let byPerson = byItem.get(d.itemId)
        if (!byPerson) byItem.set(d.itemId, (byPerson = new Map()))
        byPerson.set(d.sourceName, { id: d.annotationId ?? null, judgement: d.judgement, createdAt: d.createdAt })
      }
      this.byInstrument.set(instrumentId, byItem)
    }
    return [...(byItem.get(itemId)?.values() ?? [])]
  }

  isAnswerOf(id: string, itemId: number, instrumentId: string): boolean {
    if (this.drafts.some((d) => d.annotationId === id && d.itemId === itemId && d.instrumentId === instrumentId)) return true
    return this.answerOf(id, itemId, instrumentId)
  }
}
