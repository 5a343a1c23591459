import { finalLabels, type FinalLabelRecord } from '../adjudication/final-labels'
import type { Db } from '../store/database'
import { getInstrument, isInstrumentId } from '../../shared/instruments'
import { referenceLabel, type ReferenceLabel } from '../../shared/items/reference-label'
import {
  allExposures,
  currentAnswersWithItems,
  finishedCallsWithItems,
  pseudonymSources,
  revisionParents,
  type AnnotationJoin,
  type CallJoin,
  type ExportSelection,
  type StoredCallColumns
} from '../store/export-reads'

// Reading what an export writes: current human/model answers and final labels (labels), model calls (judgements).

export interface ExportFilter {
  set?: string | undefined
  split?: 'dev' | 'test' | 'none' | undefined
  instrument?: string | undefined
}

/** The item a row of the dataset card is about, and the instrument it was judged with. */
export interface CardItem {
  itemId: number
  externalId: string
  itemKind: string
  split: string
  payload: Record<string, unknown>
  instrument: string
}

/** What the dataset card needs to know about one exported row. */
export interface CardRow extends CardItem {
  instrumentVersion: number | null
  sourceKind: string
  source: string
  judgement: unknown
  /** Model calls: ok | abstained | failed | unparseable. Labels: always ok. */
  status: string
}

export interface LabelRecord {
  item: string
  item_kind: string
  set: string
  split: string
  instrument: string
  instrument_version: number
  source: string
  source_kind: string
  judgement: unknown
  display: unknown
  created_at: string
  active_ms: number | null
  revision: number
  origin: string
  annotation_id: string
  /** The item's reference label as its kind stores it: a proposal pair's `label`, a preprint pair's `same_study`. */
  canonical_label: ReferenceLabel | null
  /** A probe item's provenance (original, kind, how it was made, diff, expectations). */
  probe_of?: unknown
}


/** The card columns an answer and a model call both take from their item. */
function cardItem(
  r: Pick<AnnotationJoin & CallJoin, 'item_id' | 'external_id' | 'kind' | 'split' | 'instrument_id'>,
  payload: Record<string, unknown>
): CardItem {
  return { itemId: r.item_id, externalId: r.external_id, itemKind: r.kind, split: r.split, payload, instrument: r.instrument_id }
}

/**
 * Current answers (heads of revision chains, retractions left out) with their item, in item order. Human sources
 * are replaced by the annotator's pseudonym when asked.
 */
export function readLabels(db: Db, filter: ExportFilter, pseudonymise: boolean): { records: LabelRecord[]; card: CardRow[] } {
  const rows = currentAnswersWithItems(db, params(filter))
  const revisions = revisionNumbers(db)
  const records: LabelRecord[] = []
  const card: CardRow[] = []
  for (const r of rows) {
    const payload = JSON.parse(r.payload) as Record<string, unknown>
    const judgement = JSON.parse(r.judgement) as unknown
    const source = r.source_kind === 'human' && pseudonymise ? (r.pseudonym ?? 'unknown') : r.source_name
    records.push({
      item: r.external_id,
      item_kind: r.kind,
      set: r.set_name,
      split: r.split,
      instrument: r.instrument_id,
      instrument_version: r.instrument_version,
      source,
      source_kind: r.source_kind,
      judgement,
      display: JSON.parse(r.display) as unknown,
      created_at: r.created_at,
      active_ms: r.active_ms,
      revision: revisions.get(r.id) ?? 1,
      origin: r.origin,
      annotation_id: r.id,
      canonical_label: referenceLabel(r.kind, payload),
      // A probe's answers carry its provenance (JSONL only; the CSV keeps its columns).
      ...(payload.probe_of ? { probe_of: payload.probe_of } : {})
    })
    card.push({
      ...cardItem(r, payload),
      instrumentVersion: r.instrument_version,
      sourceKind: r.source_kind,
      source,
      judgement,
      status: 'ok'
    })
  }
  return { records, card }
}

/** 1 for a first answer, 2 for its first revision… (walks each chain once). */
function revisionNumbers(db: Db): Map<string, number> {
  const parent = new Map<string, string | null>()
  for (const r of revisionParents(db)) parent.set(r.id, r.supersedes)
  const depth = new Map<string, number>()
  const resolve = (id: string): number => {
    const known = depth.get(id)
    if (known !== undefined) return known
    const chain: string[] = []
    let cur: string | null | undefined = id
    while (cur && !depth.has(cur) && chain.length <= parent.size) {
      chain.push(cur)
      cur = parent.get(cur)
    }
    let d = cur ? depth.get(cur) ?? 0 : 0
    for (let k = chain.length - 1; k >= 0; k--) depth.set(chain[k]!, ++d)
    return depth.get(id)!
  }
  for (const id of parent.keys()) resolve(id)
  return depth
}


/** One exported model call; the columns are written in the order `readJudgements` sets them. */
export interface JudgementRecord extends StoredCallColumns {
  item: string
  item_kind: string
  set: string
  split: string
  run: number
  instrument: string
  template: string
  judge: string
  provider: string
  model: string
  company: string | null
  judgement: unknown
  display: unknown
  cached: boolean
  /** The item's reference label as its kind stores it: a proposal pair's `label`, a preprint pair's `same_study`. */
  canonical_label: ReferenceLabel | null
}


/** Finished model calls (pending ones are not results yet) with their run, judge and item. */
export function readJudgements(db: Db, filter: ExportFilter): { records: JudgementRecord[]; card: CardRow[] } {
  const rows = finishedCallsWithItems(db, params(filter))
  const records: JudgementRecord[] = []
  const card: CardRow[] = []
  for (const r of rows) {
    const payload = JSON.parse(r.payload) as Record<string, unknown>
    const judgement = r.judgement === null ? null : (JSON.parse(r.judgement) as unknown)
    records.push({
      item: r.external_id,
      item_kind: r.kind,
      set: r.set_name,
      split: r.split,
      run: r.run_id,
      instrument: r.instrument_id,
      template: `${r.template_id}@${r.template_version}`,
      judge: r.judge_name,
      provider: r.provider,
      model: r.model,
      company: r.company,
      trial: r.trial,
      order_index: r.order_index,
      // An abstention is a finished call whose answer is no answer: named as the card and the report name it.
      status: callStatus(r.status, r.instrument_id, judgement),
      judgement,
      display: JSON.parse(r.display) as unknown,
      raw_answer: r.raw_answer,
      error: r.error,
      input_tokens: r.input_tokens,
      output_tokens: r.output_tokens,
      cost_usd: r.cost_usd,
      latency_ms: r.latency_ms,
      attempts: r.attempts,
      cached: r.cached === 1,
      created_at: r.created_at,
      finished_at: r.finished_at,
      canonical_label: referenceLabel(r.kind, payload)
    })
    card.push({
      ...cardItem(r, payload),
      instrumentVersion: null,
      sourceKind: 'model',
      // One row of the card's completion table per run, named as the report names it, and an abstention as one.
      source: `${r.judge_name} · run ${r.run_id}`,
      judgement,
      status: callStatus(r.status, r.instrument_id, judgement)
    })
  }
  return { records, card }
}

/** A call's status as the report counts it: a finished call whose answer is an abstention is `abstained`. */
function callStatus(status: string, instrumentId: string, judgement: unknown): string {
  return status === 'ok' && isAbstention(instrumentId, judgement) ? 'abstained' : status
}

/** What the dataset card needs to know about one final label. */
export interface FinalCardRow extends CardItem {
  finalFrom: FinalLabelRecord['final_from']
  majority: FinalLabelRecord['majority']
  judgement: Record<string, unknown> | null
  /** A majority that stands because the answers moved on from an adjudication. */
  staleAdjudication: boolean
}

export interface FinalRead {
  /** With the item id, to place each final label after the answers it summarises. */
  records: Array<{ itemId: number; record: FinalLabelRecord }>
  card: FinalCardRow[]
}

/** Final labels of the exported items; curators become pseudonyms when annotators do. */
export function readFinals(db: Db, filter: ExportFilter, pseudonymise: boolean): FinalRead {
  const curatorName = pseudonymise ? curatorPseudonyms(db) : null
  const records: FinalRead['records'] = []
  const card: FinalCardRow[] = []
  for (const f of finalLabels(db, filter)) {
    const r = f.record
    const record = curatorName && r.curator !== null ? { ...r, curator: curatorName(r.curator) } : r
    records.push({ itemId: f.itemId, record })
    card.push({
      itemId: f.itemId,
      externalId: r.item,
      itemKind: r.item_kind,
      split: r.split,
      payload: f.payload,
      instrument: r.instrument,
      finalFrom: r.final_from,
      majority: r.majority,
      judgement: r.judgement,
      staleAdjudication: r.stale_adjudication_id !== null
    })
  }
  return { records, card }
}

/**
 * Curator pseudonyms: a curator who also annotates keeps the annotator pseudonym (A01…); others are C01, C02… in
 * the order of their first adjudication in the project, so a pseudonym is the same in every export of it.
 */
function curatorPseudonyms(db: Db): (name: string) => string {
  const sources = pseudonymSources(db)
  const annotators = new Map(sources.annotators.map((r) => [r.name, r.pseudonym]))
  const others = new Map<string, string>()
  for (const curator of sources.curators) {
    if (!annotators.has(curator) && !others.has(curator)) others.set(curator, `C${String(others.size + 1).padStart(2, '0')}`)
  }
  return (name) => annotators.get(name) ?? others.get(name) ?? 'curator'
}

function params(f: ExportFilter): ExportSelection {
  return { set: f.set ?? null, split: f.split ?? null, instrument: f.instrument ?? null }
}

/** Exposure kinds per item, for the items of an export. */
export function exposuresOf(db: Db, itemIds: ReadonlySet<number>): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>()
  for (const r of allExposures(db)) {
    if (!itemIds.has(r.item_id)) continue
    const kinds = out.get(r.item_id) ?? new Set<string>()
    kinds.add(r.kind)
    out.set(r.item_id, kinds)
  }
  return out
}

/** Whether a stored answer is the instrument's abstention (an answer, but no judgement). */
function isAbstention(instrumentId: string, judgement: unknown): boolean {
  if (judgement === null || !isInstrumentId(instrumentId)) return false
  return getInstrument(instrumentId).isAbstention?.(judgement as never) === true
}
