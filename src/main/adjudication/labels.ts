import { getInstrument, INSTRUMENT_IDS, type AnyInstrument, type InstrumentId, type Observation } from '../../shared/instruments'
import { parseItemPayload, type ItemKind } from '../../shared/items/kinds'
import { payloadWithContext } from '../annotation/item-context'
import { currentAnnotations, type AnnotationRow } from '../store/annotations'
import type { Db } from '../store/database'
import { adjudicationHeads, basedOnOf, type AdjudicationRow } from './store'

export interface AdjudicatedLabelFilter {
  set?: string | undefined
  split?: 'dev' | 'test' | 'none' | undefined
  instrument?: string | undefined
}

/**
 * Final labels as an export writes them: the head of each item's adjudication chain, in canonical order, with its
 * provenance (curator, reason, the answers it rests on, the adjudication it replaced). Field names follow the label
 * export, with `source_kind` 'adjudicated'.
 */
export interface AdjudicatedLabelRecord {
  item: string
  item_kind: string
  set: string
  split: string
  instrument: string
  source: string
  source_kind: 'adjudicated'
  judgement: unknown
  created_at: string
  origin: string
  adjudication_id: string
  curator: string
  reason: string
  based_on: string[]
  supersedes: string | null
  canonical_label: string | null
}

/** Every adjudication head, stale or not (`finalLabels` decides which ones stand). */
export function adjudicatedLabels(db: Db, filter: AdjudicatedLabelFilter = {}): AdjudicatedLabelRecord[] {
  const rows = db
    .prepare(
      `SELECT a.*, i.external_id, i.kind, i.set_name, i.split, i.payload FROM adjudications a
       JOIN items i ON i.id = a.item_id
       WHERE NOT EXISTS (SELECT 1 FROM adjudications b WHERE b.supersedes = a.id)
         AND (@set IS NULL OR i.set_name = @set) AND (@split IS NULL OR i.split = @split)
         AND (@instrument IS NULL OR a.instrument_id = @instrument)
       ORDER BY i.id, a.instrument_id, a.created_at DESC, a.rowid DESC`
    )
    .all({ set: filter.set ?? null, split: filter.split ?? null, instrument: filter.instrument ?? null }) as Array<
    AdjudicationRow & { external_id: string; kind: string; set_name: string; split: string; payload: string }
  >
  const seen = new Set<string>()
  const out: AdjudicatedLabelRecord[] = []
  for (const r of rows) {
    const key = `${r.item_id}\u0000${r.instrument_id}`
    if (seen.has(key)) continue
    seen.add(key)
    const payload = JSON.parse(r.payload) as Record<string, unknown>
    out.push({
      item: r.external_id,
      item_kind: r.kind,
      set: r.set_name,
      split: r.split,
      instrument: r.instrument_id,
      source: 'adjudicated',
      source_kind: 'adjudicated',
      judgement: JSON.parse(r.judgement) as unknown,
      created_at: r.created_at,
      origin: `adjudication:${r.curator}`,
      adjudication_id: r.id,
      curator: r.curator,
      reason: r.reason,
      based_on: basedOnOf(r),
      supersedes: r.supersedes,
      canonical_label: typeof payload.label === 'string' ? payload.label : null
    })
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// The human majority

type Value = string | number | boolean

/**
 * How a majority came out: `decided` (every value has a single most frequent answer), `tie` (the main choice, or
 * for per-field majorities at least one value, is tied), `all_abstained`, `no_answers` (none could be read), or
 * `no_rule` (the instrument has no nominal or ordinal field to take a majority of).
 */
export const MAJORITY_OUTCOMES = ['decided', 'tie', 'all_abstained', 'no_answers', 'no_rule'] as const
export type MajorityOutcome = (typeof MAJORITY_OUTCOMES)[number]

/** One current human answer as the majority counts it (canonical judgement). */
export interface CountedAnswer {
  id: string | null
  judgement: unknown
  createdAt: string | null
}

export interface MajorityResult {
  majority: MajorityOutcome
  /** A judgement of the instrument, where its rule yields one (pairwise-preference: the verdict). */
  judgement: Record<string, unknown> | null
  /** Per-field majorities by unit and field (null where tied), for instruments without a judgement rule. */
  values: Record<string, Record<string, Value | null>> | null
  /** Answers the rule could read (abstentions included). */
  nAnswers: number
  /** Answers behind the majority: those naming the winning side; per field, the fewest behind any decided value. */
  nAgreeing: number | null
  nAbstained: number
  /** Ids of the answers counted. */
  basedOn: string[]
}

interface ReadAnswer {
  answer: CountedAnswer
  abstained: boolean
  observations: Observation[]
}

function readAnswers(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, payload: Record<string, unknown>): ReadAnswer[] {
  const out: ReadAnswer[] = []
  for (const answer of answers) {
    const parsed = instrument.judgement.safeParse(answer.judgement)
    if (!parsed.success) continue
    if (instrument.isAbstention?.(parsed.data)) {
      out.push({ answer, abstained: true, observations: [] })
      continue
    }
    try {
      out.push({ answer, abstained: false, observations: instrument.observe(parsed.data, payload as never) })
    } catch {
      // An answer the instrument cannot read on this item takes no part in the majority.
    }
  }
  return out
}

/** Fields a majority is well defined for: nominal, or ordinal on a declared scale. */
function majorityFields(instrument: AnyInstrument): string[] {
  return instrument.fields.filter((f) => f.level === 'nominal' || (f.level === 'ordinal' && f.categories)).map((f) => f.name)
}

/** The single most frequent value, or null when two or more share the top count. */
function mode<T>(counts: ReadonlyMap<T, number>): { value: T; count: number } | null {
  let best: { value: T; count: number } | null = null
  let tied = false
  for (const [value, count] of counts) {
    if (!best || count > best.count) {
      best = { value, count }
      tied = false
    } else if (count === best.count) tied = true
  }
  return best && !tied ? best : null
}

/**
 * The majority of the current human answers of one item. Pairwise preference: the side (`winner`) most
 * non-abstaining answers chose, with the strength most of those answers gave (the milder `_better` when their
 * strengths tie: every one of them claims at least that). Other instruments: per unit and nominal/ordinal field, the
 * most frequent value.
 */
export function majorityLabel(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, payload: Record<string, unknown>): MajorityResult {
  const read = readAnswers(instrument, answers, payload)
  const nAbstained = read.filter((r) => r.abstained).length
  const base = {
    nAnswers: read.length,
    nAbstained,
    basedOn: read.map((r) => r.answer.id).filter((id): id is string => id !== null)
  }
  const choices = read.filter((r) => !r.abstained)
  const empty = (majority: MajorityOutcome): MajorityResult => ({ ...base, majority, judgement: null, values: null, nAgreeing: null })
  if (instrument.id === 'pairwise-preference') {
    if (!read.length) return empty('no_answers')
    const winners = new Map<string, string[]>()
    for (const r of choices) {
      const o = r.observations.find((x) => typeof x.values.winner === 'string' && typeof x.values.verdict === 'string')
      if (!o) continue
      const side = o.values.winner as string
      winners.set(side, [...(winners.get(side) ?? []), o.values.verdict as string])
    }
    if (!winners.size) return empty(nAbstained ? 'all_abstained' : 'no_answers')
    const side = mode(new Map([...winners].map(([s, verdicts]) => [s, verdicts.length])))
    if (!side) return empty('tie')
    const verdicts = winners.get(side.value)!
    const strength = mode(countOf(verdicts))
    return { ...base, majority: 'decided', judgement: { verdict: strength?.value ?? `${side.value}_better` }, values: null, nAgreeing: side.count }
  }
  const fields = majorityFields(instrument)
  if (!fields.length) return empty('no_rule')
  if (!read.length) return empty('no_answers')
  const counts = new Map<string, Map<string, Map<string, { value: Value; n: number }>>>()
  for (const r of choices) {
    for (const o of r.observations) {
      for (const field of fields) {
        const v = o.values[field]
        if (v === null || v === undefined) continue
        let byField = counts.get(o.unit)
        if (!byField) counts.set(o.unit, (byField = new Map()))
        let byValue = byField.get(field)
        if (!byValue) byField.set(field, (byValue = new Map()))
        const key = JSON.stringify(v)
        byValue.set(key, { value: v, n: (byValue.get(key)?.n ?? 0) + 1 })
      }
    }
  }
  if (!counts.size) return empty(choices.length ? 'no_rule' : 'all_abstained')
  const values: Record<string, Record<string, Value | null>> = {}
  let tie = false
  let fewest: number | null = null
  for (const [unit, byField] of counts) {
    values[unit] = {}
    for (const field of fields) {
      const byValue = byField.get(field)
      if (!byValue) continue
      const top = mode(new Map([...byValue.values()].map((e) => [e.value, e.n])))
      values[unit]![field] = top ? top.value : null
      if (!top) tie = true
      else fewest = fewest === null ? top.count : Math.min(fewest, top.count)
    }
  }
  return { ...base, majority: tie ? 'tie' : 'decided', judgement: null, values, nAgreeing: fewest }
}

function countOf<T>(list: ReadonlyArray<T>): Map<T, number> {
  const out = new Map<T, number>()
  for (const v of list) out.set(v, (out.get(v) ?? 0) + 1)
  return out
}

/** The fields whose agreement makes an answer agree with a final label: the main choice where there is one. */
function agreementFields(instrument: AnyInstrument): string[] {
  return instrument.id === 'pairwise-preference' ? ['winner', 'abstained'] : majorityFields(instrument)
}

/** Answers that agree with a (curator's) judgement on every agreement field both give a value for. */
export function answersAgreeing(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, judgement: unknown, payload: Record<string, unknown>): number {
  const [final] = readAnswers(instrument, [{ id: null, judgement, createdAt: null }], payload)
  if (!final) return 0
  const fields = agreementFields(instrument)
  const valuesOf = (r: ReadAnswer): Map<string, Value> => {
    const out = new Map<string, Value>()
    if (r.abstained) out.set('*:abstained', true)
    for (const o of r.observations) for (const f of fields) if (o.values[f] !== null && o.values[f] !== undefined) out.set(`${o.unit}:${f}`, o.values[f]!)
    return out
  }
  const target = valuesOf(final)
  return readAnswers(instrument, answers, payload).filter((r) => {
    const own = valuesOf(r)
    if (own.has('*:abstained') !== target.has('*:abstained')) return false
    for (const [k, v] of own) if (target.has(k) && target.get(k) !== v) return false
    return true
  }).length
}

// ---------------------------------------------------------------------------------------------------------------
// Final labels: the adjudication that stands, else the human majority

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
  const raw = payloadWithContext(db, { kind: row.kind as ItemKind, payload: row.payload })
  const parsed = parseItemPayload(row.kind as ItemKind, raw)
  return (parsed.success ? parsed.data : raw) as Record<string, unknown>
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
  canonical_label: string | null
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
  const ids: ReadonlyArray<InstrumentId> = filter.instrument ? INSTRUMENT_IDS.filter((i) => i === filter.instrument) : INSTRUMENT_IDS
  const itemStmt = db.prepare(
    `SELECT id, kind, external_id, set_name, split, payload FROM items WHERE id = @id
       AND (@set IS NULL OR set_name = @set) AND (@split IS NULL OR split = @split)`
  )
  const out: FinalLabel[] = []
  for (const id of ids) {
    const instrument = getInstrument(id)
    const answersByItem = currentHumanAnswers(db, id)
    const heads = adjudicationHeads(db, id)
    for (const itemId of new Set([...answersByItem.keys(), ...heads.keys()])) {
      const item = itemStmt.get({ id: itemId, set: filter.set ?? null, split: filter.split ?? null }) as ItemJoin | undefined
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
    canonical_label: typeof rawPayload.label === 'string' ? rawPayload.label : null
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
