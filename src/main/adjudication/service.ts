import type { AdjudicationItem, DisagreementRow, DisagreementRuleView } from '../../shared/contract/packet-operations'
import { AssayError, zodIssuesToLocations } from '../../shared/errors'
import { getInstrument, isInstrumentId, type AnyInstrument, type BlindView, type Observation } from '../../shared/instruments'
import { parseItemPayload, type ItemKind } from '../../shared/items/kinds'
import { payloadWithContext } from '../annotation/item-context'
import { currentAnnotations, historyForAssignment, type AnnotationRow } from '../store/annotations'
import type { Db } from '../store/database'
import { getItem, type ItemRow } from '../store/items'
import type { Project } from '../store/project'
import { disagreementsOf, type FieldDisagreement } from './disagreement'
import { effectiveRule } from './rules'
import { adjudicationHead, adjudicationHeads, adjudicationHistory, appendAdjudication, basedOnOf, type AdjudicationRow } from './store'

/**
 * The viewer key of the adjudication screen: the curator sees the item blinded like any annotator (origins, labels
 * and generators stay hidden) in one fixed order, and answers are shown and given in that order.
 */
export const ADJUDICATION_VIEWER = 'adjudication'

/** One annotator's current answer to an item, as compared. */
interface ComparedAnswer {
  row: AnnotationRow
  annotator: string
  pseudonym: string | null
  canonical: unknown
  observations: Observation[]
}

function instrumentOf(id: string): AnyInstrument {
  if (!isInstrumentId(id)) throw new AssayError('invalid_input', `Unknown instrument "${id}"`)
  return getInstrument(id)
}

/** The payload as the audit reads it: context attached, the kind's defaults applied. */
function itemPayload(db: Db, row: Pick<ItemRow, 'kind' | 'payload'>): Record<string, unknown> {
  const raw = payloadWithContext(db, row)
  const parsed = parseItemPayload(row.kind as ItemKind, raw)
  return (parsed.success ? parsed.data : raw) as Record<string, unknown>
}

function observe(instrument: AnyInstrument, judgement: unknown, payload: Record<string, unknown>): { canonical: unknown; observations: Observation[] } {
  const parsed = instrument.judgement.safeParse(judgement)
  if (!parsed.success) return { canonical: judgement, observations: [] }
  try {
    return { canonical: parsed.data, observations: instrument.observe(parsed.data, payload as never) }
  } catch {
    // An answer the instrument cannot read is still shown; it just takes no part in the comparison.
    return { canonical: parsed.data, observations: [] }
  }
}

/**
 * Current human answers of an instrument, by item, one per annotator (the newest where an import left several).
 * Imported human labels without a profile count as their source's.
 */
function humanAnswersByItem(db: Db, instrument: AnyInstrument, onlyItem?: number): Map<number, AnnotationRow[]> {
  const out = new Map<number, Map<string, AnnotationRow>>()
  for (const a of currentAnnotations(db, instrument.id)) {
    if (a.source_kind !== 'human' || (onlyItem !== undefined && a.item_id !== onlyItem)) continue
    const key = a.annotator_id !== null ? `id:${a.annotator_id}` : `name:${a.source_name}`
    let byAnnotator = out.get(a.item_id)
    if (!byAnnotator) out.set(a.item_id, (byAnnotator = new Map()))
    const seen = byAnnotator.get(key)
    if (!seen || seen.created_at <= a.created_at) byAnnotator.set(key, a)
  }
  return new Map([...out].map(([item, m]) => [item, [...m.values()].sort((x, y) => x.created_at.localeCompare(y.created_at))]))
}

function annotatorNames(db: Db): Map<number, { name: string; pseudonym: string }> {
  return new Map(
    (db.prepare(`SELECT id, name, pseudonym FROM annotators`).all() as Array<{ id: number; name: string; pseudonym: string }>).map((r) => [r.id, r])
  )
}

function compared(db: Db, instrument: AnyInstrument, rows: ReadonlyArray<AnnotationRow>, payload: Record<string, unknown>): ComparedAnswer[] {
  const names = annotatorNames(db)
  return rows.map((row) => {
    const who = row.annotator_id !== null ? names.get(row.annotator_id) : undefined
    return { row, annotator: who?.name ?? row.source_name, pseudonym: who?.pseudonym ?? null, ...observe(instrument, JSON.parse(row.judgement), payload) }
  })
}

/** True when an answer is current now that the adjudication did not rest on (it came, or changed, afterwards). */
function isStale(head: AdjudicationRow | undefined, answers: ReadonlyArray<{ row: AnnotationRow }>): boolean {
  if (!head) return false
  const basis = new Set(basedOnOf(head))
  return answers.some((a) => !basis.has(a.row.id))
}

export interface ListOptions {
  /** Also list items whose answers agree (and adjudicated items), not only disagreements. */
  includeAgreeing?: boolean | undefined
}

export interface DisagreementList {
  instrument: AnyInstrument['id']
  rule: DisagreementRuleView
  counts: { compared: number; disagreements: number; adjudicated: number; open: number }
  rows: DisagreementRow[]
}

/**
 * Items answered by at least two annotators, compared under the instrument's rule: which disagree, on which fields,
 * and whether a curator has settled them (an adjudication resting on every current answer).
 */
export function listDisagreements(db: Db, instrumentId: string, opts: ListOptions = {}): DisagreementList {
  const instrument = instrumentOf(instrumentId)
  const rule = effectiveRule(db, instrument)
  const heads = adjudicationHeads(db, instrument.id)
  const rows: DisagreementRow[] = []
  const counts = { compared: 0, disagreements: 0, adjudicated: 0, open: 0 }
  const itemStmt = db.prepare(`SELECT id, kind, payload FROM items WHERE id = ?`)
  for (const [itemId, answers] of humanAnswersByItem(db, instrument)) {
    if (answers.length < 2) continue
    const item = itemStmt.get(itemId) as Pick<ItemRow, 'id' | 'kind' | 'payload'> | undefined
    if (!item) continue
    const shown = compared(db, instrument, answers, itemPayload(db, item))
    const fields = disagreementsOf(instrument, rule, shown.map((a) => a.observations))
    const disagree = fields.length > 0
    const head = heads.get(itemId)
    const stale = isStale(head, shown)
    counts.compared++
    if (disagree) {
      counts.disagreements++
      if (head && !stale) counts.adjudicated++
      else counts.open++
    }
    if (!disagree && !opts.includeAgreeing && !head) continue
    rows.push({
      itemId,
      kind: item.kind,
      answers: shown.length,
      annotators: shown.map((a) => a.annotator),
      disagree,
      fields,
      adjudication: head ? { id: head.id, curator: head.curator, createdAt: head.created_at } : null,
      stale
    })
  }
  rows.sort((x, y) => Number(y.disagree) - Number(x.disagree) || x.itemId - y.itemId)
  return { instrument: instrument.id, rule, counts, rows }
}

function loadItem(db: Db, instrument: AnyInstrument, itemId: number): { row: ItemRow; payload: Record<string, unknown> } {
  const row = getItem(db, itemId)
  if (!row || row.kind !== instrument.itemKind) throw new AssayError('not_found', `No ${instrument.itemKind} item ${itemId} for ${instrument.id}`)
  return { row, payload: itemPayload(db, row) }
}

function adjudicationView(project: Project, instrument: AnyInstrument, row: ItemRow, payload: Record<string, unknown>): BlindView {
  try {
    return instrument.blind(payload as never, { seed: project.seed, viewer: ADJUDICATION_VIEWER, externalId: row.external_id })
  } catch (e) {
    throw new AssayError('invalid_input', `Item ${row.id} cannot be shown for ${instrument.id}: ${(e as Error).message}`)
  }
}

function recordOut(instrument: AnyInstrument, r: AdjudicationRow, display: Record<string, unknown>): AdjudicationItem['history'][number] {
  return {
    id: r.id,
    judgement: instrument.toDisplay(JSON.parse(r.judgement), display),
    reason: r.reason,
    curator: r.curator,
    basedOn: basedOnOf(r),
    supersedes: r.supersedes,
    createdAt: r.created_at
  }
}

/** One item's current answers side by side (with their revision times), what disagrees, and its adjudications. */
export function adjudicationItem(project: Project, instrumentId: string, itemId: number): AdjudicationItem {
  const db = project.db
  const instrument = instrumentOf(instrumentId)
  const { row, payload } = loadItem(db, instrument, itemId)
  const blind = adjudicationView(project, instrument, row, payload)
  const answers = compared(db, instrument, humanAnswersByItem(db, instrument, itemId).get(itemId) ?? [], payload)
  const history = adjudicationHistory(db, itemId, instrument.id)
  const head = adjudicationHead(db, itemId, instrument.id)
  return {
    itemId,
    instrument: instrument.id,
    kind: row.kind,
    view: blind.view,
    answers: answers.map((a) => ({
      annotationId: a.row.id,
      annotator: a.annotator,
      pseudonym: a.pseudonym,
      origin: a.row.origin,
      createdAt: a.row.created_at,
      judgement: instrument.toDisplay(a.canonical, blind.display),
      revisions: (a.row.assignment_id !== null ? historyForAssignment(db, a.row.assignment_id) : [a.row]).map((r) => ({
        id: r.id,
        createdAt: r.created_at,
        retracted: r.retracted === 1
      }))
    })),
    fields: answers.length >= 2 ? disagreementsOf(instrument, effectiveRule(db, instrument), answers.map((a) => a.observations)) : [],
    current: head ? recordOut(instrument, head, blind.display) : null,
    history: history.map((r) => recordOut(instrument, r, blind.display))
  }
}

export interface RecordInput {
  instrument: string
  itemId: number
  /** In the display order of the adjudication view. */
  judgement: unknown
  reason: string
  curator: string
  basedOn?: string[] | undefined
  expectedCurrent?: string | null | undefined
}

/**
 * Records a curator's final judgement of an item: validated like any answer (schema, then the instrument's checks on
 * the real item), mapped to canonical order, appended after the current adjudication with the reason, the curator
 * and the answers it rests on.
 */
export function recordAdjudication(project: Project, input: RecordInput): { id: string; supersedes: string | null } {
  const db = project.db
  const instrument = instrumentOf(input.instrument)
  const { row, payload } = loadItem(db, instrument, input.itemId)
  const blind = adjudicationView(project, instrument, row, payload)
  const parsed = instrument.judgement.safeParse(input.judgement)
  if (!parsed.success) {
    throw new AssayError('invalid_answer', 'The final judgement is incomplete or out of range', zodIssuesToLocations(parsed.error.issues))
  }
  const canonical = instrument.toCanonical(parsed.data, blind.display)
  const issues = instrument.check(canonical, payload as never)
  if (issues.length) {
    throw new AssayError('invalid_answer', issues.map((i) => i.message).join('; '), issues.map((i) => ({ field: i.path, message: i.message })))
  }
  return project.write(() => {
    const current = humanAnswersByItem(db, instrument, input.itemId).get(input.itemId) ?? []
    const basedOn = input.basedOn ?? current.map((a) => a.id)
    const known = new Set(
      (db.prepare(`SELECT id FROM annotations WHERE item_id = ? AND instrument_id = ?`).all(input.itemId, instrument.id) as { id: string }[]).map((r) => r.id)
    )
    const unknown = basedOn.filter((id) => !known.has(id))
    if (unknown.length) {
      throw new AssayError('invalid_input', `The judgement rests on answers that are not answers to this item: ${unknown.join(', ')}`, [
        { field: 'basedOn', message: 'unknown answer ids' }
      ])
    }
    const head = adjudicationHead(db, input.itemId, instrument.id)
    if (input.expectedCurrent !== undefined && input.expectedCurrent !== (head?.id ?? null)) {
      throw new AssayError('conflict', 'Another adjudication of this item was recorded meanwhile; reload it and decide again')
    }
    const id = appendAdjudication(db, {
      itemId: input.itemId,
      instrumentId: instrument.id,
      judgement: canonical,
      reason: input.reason.trim(),
      curator: input.curator.trim(),
      basedOn: [...new Set(basedOn)],
      supersedes: head?.id ?? null
    })
    return { id, supersedes: head?.id ?? null }
  })
}

export type { FieldDisagreement }
