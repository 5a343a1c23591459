import { AssayError, zodIssuesToLocations } from '../../shared/errors'
import { getInstrument, type AnyInstrument, type BlindView } from '../../shared/instruments'
import { missingRequired } from '../../shared/instruments/requirements'
import type { ItemKind } from '../../shared/items/kinds'
import { getAssignment, type AssignmentRow } from '../store/assignments'
import { getItem } from '../store/items'
import type { Project } from '../store/project'
import { packetViewOf } from '../store/packet-format'
import { viewIssues } from './view-checks'
import { payloadWithContext } from './item-context'
import { annotatorSwap, layoutViewer } from './layout'

export interface AnnotatorRef {
  id: number
  name: string
}

export interface AssignmentContext {
  assignment: AssignmentRow
  instrument: AnyInstrument
  payload: Record<string, unknown>
  blind: BlindView
  externalId: string
  /**
   * In an annotator packet the item holds only the view, already in display order: answers stay in display terms
   * (the mapping is identity) and only the checks the view supports run; merge maps and checks them on the real item.
   */
  packet?: boolean
}

/** The viewer key of an annotator's display orders: stable across the project, its packets and renames. */
export function viewerOf(annotator: AnnotatorRef): string {
  return layoutViewer(annotator.id)
}

/**
 * Loads an assignment that belongs to this annotator and computes its blinded view in main. Another person's
 * assignment is answered as not found, so ids cannot be probed.
 */
export function assignmentContext(project: Project, annotator: AnnotatorRef, assignmentId: number): AssignmentContext {
  const assignment = getAssignment(project.db, assignmentId)
  if (!assignment || assignment.annotator_id !== annotator.id) throw new AssayError('not_found', `No assignment ${assignmentId} in your queue`)
  const row = getItem(project.db, assignment.item_id)
  if (!row) throw new AssayError('not_found', `The item of assignment ${assignmentId} is gone`)
  const instrument = getInstrument(assignment.instrument_id)
  const payload = payloadWithContext(project.db, row)
  if (project.isPacket) {
    return { assignment, instrument, payload, blind: { view: packetViewOf(payload), display: {} }, externalId: row.external_id, packet: true }
  }
  const swapped = instrument.itemKind === 'proposal-pair' ? annotatorSwap(project, annotator.id, row.id) : undefined
  const blind = instrument.blind(payload as never, {
    seed: project.seed,
    viewer: viewerOf(annotator),
    externalId: row.external_id,
    ...(swapped === undefined ? {} : { swapped })
  })
  return { assignment, instrument, payload, blind, externalId: row.external_id }
}

/**
 * Validates an answer given in display order: the judgement schema, then the checks that need the item
 * (exact quotes, rubric totals) on the canonical form. Returns the canonical judgement.
 */
export function canonicalAnswer(ctx: Pick<AssignmentContext, 'instrument' | 'payload' | 'blind' | 'packet'>, displayJudgement: unknown): unknown {
  const parsed = ctx.instrument.judgement.safeParse(displayJudgement)
  if (!parsed.success) {
    throw new AssayError('invalid_answer', 'The answer is incomplete or out of range', zodIssuesToLocations(parsed.error.issues))
  }
  // What the form requires of a person (reasons, excerpts), and quotes checked against the text as shown, in the
  // display terms the answer was given in: messages name sides as the person saw them.
  const shownIssues = [...missingRequired(ctx.instrument, parsed.data), ...(ctx.instrument.checkShown?.(parsed.data, ctx.blind.view) ?? [])]
  if (shownIssues.length) {
    throw new AssayError(
      'invalid_answer',
      shownIssues.map((i) => i.message).join('; '),
      shownIssues.map((i) => ({ field: i.path, message: i.message }))
    )
  }
  const canonical = ctx.instrument.toCanonical(parsed.data, ctx.blind.display)
  const issues = ctx.packet ? viewIssues(ctx.instrument, canonical, ctx.blind.view) : ctx.instrument.check(canonical, ctx.payload as never)
  if (issues.length) {
    throw new AssayError(
      'invalid_answer',
      issues.map((i) => displayText(ctx, i.message)).join('; '),
      issues.map((i) => ({ field: displayText(ctx, i.path), message: displayText(ctx, i.message) }))
    )
  }
  return canonical
}

/**
 * Checks speak in canonical terms; an annotator must only ever see display labels. Canonical unit ids (hidden
 * hypothesis ids such as "C11") are replaced by the labels the annotator sees (P1…P5, H1…H5).
 */
export function displayText(ctx: Pick<AssignmentContext, 'blind'>, text: string): string {
  const order = ctx.blind.display.order
  const shown = ctx.blind.view.hypotheses
  if (!Array.isArray(order) || !Array.isArray(shown)) return text
  const labelOf = new Map<string, string>()
  order.forEach((id, k) => {
    const label = (shown[k] as { id?: unknown } | undefined)?.id
    if (typeof id === 'string' && typeof label === 'string') labelOf.set(id, label)
  })
  if (labelOf.size === 0) return text
  const ids = [...labelOf.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return text.replace(new RegExp(`(?<![\\w-])(${ids.join('|')})(?![\\w-])`, 'g'), (id) => labelOf.get(id) ?? id)
}

export function itemKindOf(ctx: AssignmentContext): ItemKind {
  return ctx.instrument.itemKind
}
