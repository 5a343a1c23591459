import { allInstruments, getInstrument, type AnyInstrument, type InstrumentId } from '../../shared/instruments'
import { payloadAsRead, type ItemKind } from '../../shared/items/kinds'
import { referenceLabel, type ReferenceLabel } from '../../shared/items/reference-label'
import { payloadWithContext } from '../annotation/item-context'
import { currentAnnotations, type AnnotationRow } from '../store/annotations'
import type { Db } from '../store/database'
import { selectedItemFinder } from '../store/items'
import type { AdjudicatedLabelFilter } from './labels'
import { answersAgreeing, majorityLabel, type CountedAnswer, type MajorityOutcome, type MajorityResult, type Value } from './majority'
import { adjudicationHeads, basedOnOf, type AdjudicationRow } from '../store/adjudications'

// Final labels: the adjudication that stands, else the human majority.

/**
 * Current human answers of an instrument by item, one per annotator (the newest where an import left several),
 * oldest first. Imported human labels without a profile count as their source's.
 */
export function currentHumanAnswers(db: Db, instrumentId: string): Map<number, AnnotationRow[]> {
  const out = new Map<number, Map<string, AnnotationRow>>()
  for (const a of currentAnnotations(db, instrumentId)) {
    if (a.source_kind !== 'human') continue
    const key = a.annotator_id !== null ? `id:${a.annotator_id}` : `name:${a.source_name}`
    let byAnnotator = out.get(a.item_id)
    if (!byAnnotator) out.set(a.item_id, (byAnnotator = new Map()))
    const seen = byAnnotator.get(key)
    if (!seen || seen.created_at <= a.created_at) byAnnotator.set(key, a)
  }
  return new Map([...out].map(([item, m]) => [item, [...m.values()].sort((x, y) => x.created_at.localeCompare(y.created_at))]))
}

/** An adjudication is stale when a current answer is one it did not rest on (it came, or changed, afterwards). */
export function isStaleAdjudication(head: AdjudicationRow, answerIds: ReadonlyArray<string>): boolean {
  const basis = new Set(basedOnOf(head))
  return answerIds.some((id) => !basis.has(id))
}

/** The payload as instruments read it: context attached, the kind's defaults applied. */
export function instrumentPayload(db: Db, row: { kind: string; payload: string }): Record<string, unknown> {
  return payloadAsRead(row.kind as ItemKind, payloadWithContext(db, { kind: row.kind as ItemKind, payload: row.payload }))
}

export type FinalFrom = 'adjudication' | 'majority'

/**
 * One item's final label for one instrument, as the labels export writes it (`source_kind: 'final'`). From an
 * adjudication: its judgement and provenance. From the majority: the majority's judgement (or per-field values),
 * the answers counted and the newest answer's time; `stale_adjudication_id` names an adjudication the answers have
 * moved on from.
 */
export interface FinalLabelRecord {
  item: string
  item_kind: string
  set: string
  split: string
  instrument: string
  source: FinalFrom
  source_kind: 'final'
  final_from: FinalFrom
  /** Majority-based labels only. */
  majority: MajorityOutcome | null
  judgement: Record<string, unknown> | null
  majority_values: Record<string, Record<string, Value | null>> | null
  n_answers: number
  n_agreeing: number | null
  n_abstained: number
  based_on: string[]
  adjudication_id: string | null
  curator: string | null
  reason: string | null
  supersedes: string | null
  stale_adjudication_id: string | null
  created_at: string | null
  canonical_label: ReferenceLabel | null
}

export interface FinalLabel {
  itemId: number
  /** The item's stored payload (the card reads reference labels and origins from it). */
  payload: Record<string, unknown>
  record: FinalLabelRecord
}

interface ItemJoin {
  id: number
  kind: string
  external_id: string
  set_name: string
  split: string
  payload: string
}

/**
 * For every item and instrument with current human answers or an adjudication: the adjudication when one stands
 * (not stale), else the human majority. In item order, then instrument.
 */
export function finalLabels(db: Db, filter: AdjudicatedLabelFilter = {}): FinalLabel[] {
  const all = allInstruments().map((i) => i.id)
  const ids: ReadonlyArray<InstrumentId> = filter.instrument ? all.filter((i) => i === filter.instrument) : all
  const itemOf = selectedItemFinder(db)
  const out: FinalLabel[] = []
  for (const id of ids) {
    const instrument = getInstrument(id)
    const answersByItem = currentHumanAnswers(db, id)
    const heads = adjudicationHeads(db, id)
    for (const itemId of new Set([...answersByItem.keys(), ...heads.keys()])) {
      const item = itemOf(itemId, filter.set ?? null, filter.split ?? null)
      if (!item || item.kind !== instrument.itemKind) continue
      const rows = answersByItem.get(itemId) ?? []
      const head = heads.get(itemId)
      const record = finalOf(instrument, item, instrumentPayload(db, item), rows, head)
      out.push({ itemId, payload: JSON.parse(item.payload) as Record<string, unknown>, record })
    }
  }
  return out.sort((a, b) => a.itemId - b.itemId || a.record.instrument.localeCompare(b.record.instrument))
}

function finalOf(instrument: AnyInstrument, item: ItemJoin, payload: Record<string, unknown>, rows: ReadonlyArray<AnnotationRow>, head: AdjudicationRow | undefined): FinalLabelRecord {
  const answers: CountedAnswer[] = rows.map((r) => ({ id: r.id, judgement: JSON.parse(r.judgement) as unknown, createdAt: r.created_at }))
  const stale = head ? isStaleAdjudication(head, rows.map((r) => r.id)) : false
  const rawPayload = JSON.parse(item.payload) as Record<string, unknown>
  const common = {
    item: item.external_id,
    item_kind: item.kind,
    set: item.set_name,
    split: item.split,
    instrument: instrument.id,
    source_kind: 'final' as const,
    canonical_label: referenceLabel(item.kind, rawPayload)
  }
  const counted = majorityLabel(instrument, answers, payload)
  if (head && !stale) {
    const judgement = JSON.parse(head.judgement) as Record<string, unknown>
    return {
      ...common,
      source: 'adjudication',
      final_from: 'adjudication',
      majority: null,
      judgement,
      majority_values: null,
      n_answers: counted.nAnswers,
      n_agreeing: answersAgreeing(instrument, answers, judgement, payload),
      n_abstained: counted.nAbstained,
      based_on: basedOnOf(head),
      adjudication_id: head.id,
      curator: head.curator,
      reason: head.reason,
      supersedes: head.supersedes,
      stale_adjudication_id: null,
      created_at: head.created_at
    }
  }
  const times = answers.map((a) => a.createdAt).filter((t): t is string => t !== null)
  return {
    ...common,
    source: 'majority',
    final_from: 'majority',
    ...majorityFieldsOf(counted),
    adjudication_id: null,
    curator: null,
    reason: null,
    supersedes: null,
    stale_adjudication_id: head ? head.id : null,
    created_at: times.length ? times.reduce((a, b) => (a > b ? a : b)) : null
  }
}

/** A majority result in the record's field names. */
export function majorityFieldsOf(m: MajorityResult): Pick<FinalLabelRecord, 'majority' | 'judgement' | 'majority_values' | 'n_answers' | 'n_agreeing' | 'n_abstained' | 'based_on'> {
  return {
    majority: m.majority,
    judgement: m.judgement,
    majority_values: m.values,
    n_answers: m.nAnswers,
    n_agreeing: m.nAgreeing,
    n_abstained: m.nAbstained,
    based_on: m.basedOn
  }
}
