import type { AdjudicationItem, DisagreementRow, DisagreementRuleView } from '../../shared/contract/packet-operations'
import { AssayError, zodIssuesToLocations } from '../../shared/errors'
import { getInstrument, isInstrumentId, type AnyInstrument, type BlindView, type Observation, unknownInstrumentMessage } from '../../shared/instruments'
import { annotationIdsOf, historyForAssignment, type AnnotationRow } from '../store/annotations'
import { annotatorNames } from '../store/annotators'
import type { Db } from '../store/database'
import { getItem, itemSummaryFinder, type ItemRow } from '../store/items'
import type { Project } from '../store/project'
import { disagreementsOf, type FieldDisagreement } from './disagreement'
import { currentHumanAnswers, instrumentPayload, isStaleAdjudication } from './final-labels'
import { effectiveRule } from './rules'
import { adjudicationHead, adjudicationHeads, adjudicationHistory, appendAdjudication, basedOnOf, type AdjudicationRow } from '../store/adjudications'

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
  if (!isInstrumentId(id)) throw new AssayError('invalid_input', unknownInstrumentMessage(id))
  return getInstrument(id)
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

/** One item's current human answers, one per annotator, oldest first. */
function humanAnswersTo(db: Db, instrument: AnyInstrument, itemId: number): AnnotationRow[] {
  return currentHumanAnswers(db, instrument.id).get(itemId) ?? []
}

function compared(db: Db, instrument: AnyInstrument, rows: ReadonlyArray<AnnotationRow>, payload: Record<string, unknown>): ComparedAnswer[] {
  const names = annotatorNames(db)
  return rows.map((row) => {
    const who = row.annotator_id !== null ? names.get(row.annotator_id) : undefined
    return { row, annotator: who?.name ?? row.source_name, pseudonym: who?.pseudonym ?? null, ...observe(instrument, JSON.parse(row.judgement), payload) }
  })
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
  const itemOf = itemSummaryFinder(db)
  for (const [itemId, answers] of currentHumanAnswers(db, instrument.id)) {
    if (answers.length < 2) continue
    const item = itemOf(itemId)
    if (!item) continue
    const shown = compared(db, instrument, answers, instrumentPayload(db, item))
    const fields = disagreementsOf(instrument, rule, shown.map((a) => a.observations))
    const disagree = fields.length > 0
    const head = heads.get(itemId)
    const stale = head ? isStaleAdjudication(head, answers.map((a) => a.id)) : false
    counts.compared++
    if (disagree) {
      counts.disagreements++
      if (head && !stale) counts.adjudicated++
      else counts.open++
    }
    if (!disagree && !opts.includeAgreeing && !head) continue
    rows.push({
      itemId,
      externalId: item.external_id,
      title: item.title,
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
  return { row, payload: instrumentPayload(db, row) }
}

/** True where a display mapping exchanges two sides (pairs): `{ swapped }`. */
function hasSides(display: Record<string, unknown>): boolean {
  return typeof display.swapped === 'boolean'
}

/**
 * The item as the curator adjudicates it: blinded like any annotator's view, with pairs put back in canonical order
 * (left is canonical A) so that sides are named in one frame on every screen and in the report.
 */
export function adjudicationView(project: Project, instrument: AnyInstrument, row: Pick<ItemRow, 'id' | 'external_id'>, payload: Record<string, unknown>): BlindView {
  let blind: BlindView
  try {
    blind = instrument.blind(payload as never, { seed: project.seed, viewer: ADJUDICATION_VIEWER, externalId: row.external_id })
  } catch (e) {
    throw new AssayError('invalid_input', `Item ${row.id} cannot be shown for ${instrument.id}: ${(e as Error).message}`)
  }
  if (blind.display.swapped !== true) return blind
  const { a, b, ...rest } = blind.view
  return { view: { ...rest, a: b, b: a }, display: { ...blind.display, swapped: false } }
}

/** Whether an answer was given with the sides exchanged, from the display mapping stored with it. */
function sawSwapped(row: AnnotationRow): boolean | null {
  try {
    const display = JSON.parse(row.display) as Record<string, unknown>
    return typeof display.swapped === 'boolean' ? display.swapped : null
  } catch {
    return null
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
  const answers = compared(db, instrument, humanAnswersTo(db, instrument, itemId), payload)
  const history = adjudicationHistory(db, itemId, instrument.id)
  const head = adjudicationHead(db, itemId, instrument.id)
  return {
    itemId,
    externalId: row.external_id,
    title: row.title,
    instrument: instrument.id,
    kind: row.kind,
    view: blind.view,
    sides: hasSides(blind.display) ? 'canonical' : 'none',
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
      })),
      sawSwapped: sawSwapped(a.row)
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
  return project.write((db) => {
    const current = humanAnswersTo(db, instrument, input.itemId)
    const basedOn = input.basedOn ?? current.map((a) => a.id)
    const known = new Set(annotationIdsOf(db, input.itemId, instrument.id))
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
