import { AssayError, isAssayError } from '../../shared/errors'
import { getInstrument, isInstrumentId, type AnyInstrument, type BlindView, unknownInstrumentMessage } from '../../shared/instruments'
import { renderRequest } from '../../shared/templates'
import { canonicalAnswer } from '../annotation/blinded'
import { payloadWithContext } from '../annotation/item-context'
import { requestUnits } from '../runner/requests'
import { resolveTemplate, usedValues } from '../runner/templates'
import { getItem, listItems } from '../store/items'
import type { Project } from '../store/project'

// A curator tries an instrument before anyone answers it: its form over one of the project's items, blinded as an
// annotator would see it, an answer checked exactly as a submission is (schema, required fields, quotes, the
// item's checks), and the request a judge would be sent for that item. Nothing is written.

/** The viewer key of previews: its own, so the order shown is no annotator's or judge's. */
const PREVIEW_VIEWER = 'preview'
/** Items offered to try the form on. */
const CANDIDATES = 200

export interface PreviewInput {
  instrument: string
  itemId?: number | undefined
  answer?: unknown
}

export interface PreviewResult {
  items: Array<{ id: number; externalId: string; title: string }>
  itemsTotal: number
  item: { id: number; externalId: string; title: string } | null
  view: Record<string, unknown> | null
  /** Why no view could be made of the item (it lacks what the instrument shows). */
  viewProblem: string | null
  request: { template: string; system: string | null; user: string } | null
  requestProblem: string | null
  check: { ok: boolean; issues: Array<{ field: string; message: string }>; canonical: unknown } | null
}

export function previewInstrument(project: Project, input: PreviewInput): PreviewResult {
  if (!isInstrumentId(input.instrument)) throw new AssayError('invalid_input', unknownInstrumentMessage(input.instrument), [{ field: 'instrument', message: 'unknown' }])
  const instrument = getInstrument(input.instrument)
  const page = listItems(project.db, { kind: instrument.itemKind, offset: 0, limit: CANDIDATES })
  const items = page.rows.map((r) => ({ id: r.id, externalId: r.external_id, title: r.title }))
  const empty: PreviewResult = { items, itemsTotal: page.total, item: null, view: null, viewProblem: null, request: null, requestProblem: null, check: null }
  const id = input.itemId ?? items[0]?.id
  if (id === undefined) return empty
  const row = getItem(project.db, id)
  if (!row || row.kind !== instrument.itemKind) throw new AssayError('not_found', `No ${instrument.itemKind} item ${id}`, [{ field: 'itemId', message: 'not found' }])
  const item = { id: row.id, externalId: row.external_id, title: row.title }
  const payload = payloadWithContext(project.db, row)
  const ctx = { seed: project.seed, viewer: PREVIEW_VIEWER, externalId: row.external_id }
  let blind
  try {
    blind = instrument.blind(payload as never, ctx)
  } catch (e) {
    return { ...empty, item, viewProblem: (e as Error).message }
  }
  return { ...empty, item, view: blind.view, ...judgeRequest(project, instrument, payload, ctx), check: input.answer === undefined ? null : checkAnswer(instrument, payload, blind, input.answer) }
}

/** The first request a judge would be sent for this item, with the instrument's first template. */
function judgeRequest(project: Project, instrument: AnyInstrument, payload: Record<string, unknown>, ctx: { seed: string; viewer: string; externalId: string }): Pick<PreviewResult, 'request' | 'requestProblem'> {
  const ref = instrument.declared ? instrument.id : instrument.templates[0]
  if (!ref) return { request: null, requestProblem: 'Judges are not asked this instrument (it has no prompt template).' }
  try {
    const { template } = resolveTemplate(project.db, ref)
    const unit = requestUnits(instrument, template, payload, ctx, { bothOrders: false })[0]
    if (!unit) return { request: null, requestProblem: 'This item gives a judge nothing to answer.' }
    const rendered = renderRequest(template, usedValues(template, unit.values))
    return { request: { template: `${template.entry.id}@${template.entry.version}`, system: rendered.system ?? null, user: rendered.user }, requestProblem: null }
  } catch (e) {
    return { request: null, requestProblem: (e as Error).message }
  }
}

/** The answer checked as a submission is; its issues in the terms the form shows, or what would be stored. */
function checkAnswer(instrument: AnyInstrument, payload: Record<string, unknown>, blind: BlindView, answer: unknown): NonNullable<PreviewResult['check']> {
  try {
    return { ok: true, issues: [], canonical: canonicalAnswer({ instrument, payload, blind }, answer) }
  } catch (e) {
    if (!isAssayError(e) || e.code !== 'invalid_answer') throw e
    return { ok: false, issues: (e.details ?? [{ message: e.message }]).map((d) => ({ field: d.field ?? '', message: d.message })), canonical: null }
  }
}
