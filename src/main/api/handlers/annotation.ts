import { AssayError } from '../../../shared/errors'
import { getInstrument, isInstrumentId } from '../../../shared/instruments'
import { assignItems } from '../../annotation/assign'
import { assignmentContext, canonicalAnswer, type AnnotatorRef, type AssignmentContext } from '../../annotation/blinded'
import { annotatorSummaries, ensureAnnotator } from '../../store/annotators'
import {
  appendAnnotation,
  assignmentOfAnswer,
  deleteDraft,
  getAnnotation,
  headForAssignment,
  historyForAssignment,
  saveDraft
} from '../../store/annotations'
import { queueFor, queuePosition, queueSummaries, setAssignmentStatus } from '../../store/assignments'
import type { ApiContext } from '../context'
import { runCheck } from '../../checks/run-check'
import { verifyChecks } from '../../checks/verify'
import { checkAnswerSize, readAnswerLimits, takeSubmissionToken } from '../../annotation/answer-limits'
import { layoutToken, restoreDraft, saveLayoutDraft } from '../../annotation/drafts'
import type { HandlerGroup } from './types'
import type { WritableDB } from '../../store/database'
import { keptStatusReason, statusReasonProblem } from '../../../shared/contract/annotation-schemas'

function annotatorOf(ctx: ApiContext): AnnotatorRef {
  const a = ctx.session.annotator
  if (!a) throw new AssayError('forbidden', 'Choose who is annotating first')
  return a
}

/** One revision of an annotator's answer to an assignment (a submission, a correction or a withdrawal). */
function appendRevision(
  db: WritableDB,
  ctx: ApiContext,
  c: AssignmentContext,
  me: AnnotatorRef,
  judgement: unknown,
  revision: { supersedes: string | null; retracted: boolean; activeMs: number }
): string {
  return appendAnnotation(db, {
    itemId: c.assignment.item_id,
    instrumentId: c.instrument.id,
    instrumentVersion: c.instrument.version,
    annotatorId: me.id,
    sourceKind: 'human',
    sourceName: me.name,
    judgement,
    display: c.blind.display,
    supersedes: revision.supersedes,
    retracted: revision.retracted,
    assignmentId: c.assignment.id,
    activeMs: revision.activeMs
  })
}

type AnnotationOps =
  | 'annotators.list'
  | 'annotators.create'
  | 'assignments.create'
  | 'queue.summary'
  | 'queue.list'
  | 'queue.item'
  | 'queue.setStatus'
  | 'annotations.saveDraft'
  | 'annotations.submit'
  | 'annotations.undo'
  | 'annotations.history'
  | 'checks.run'

export const annotationHandlers: HandlerGroup<AnnotationOps> = {
  'annotators.list': (_input, ctx) => ({ annotators: annotatorSummaries(ctx.project) }),
  'annotators.create': (input, ctx) => {
    const a = ensureAnnotator(ctx.project, input.name, input.expertise)
    ctx.events.emit('project.changed', { what: 'assignments' })
    return annotatorSummaries(ctx.project).find((s) => s.id === a.id)!
  },
  'assignments.create': (input, ctx) => {
    const result = assignItems(ctx.project, {
      instrumentId: input.instrument,
      annotators: input.annotators,
      overlap: input.overlap,
      set: input.set,
      split: input.split,
      seed: input.seed,
      existingOnly: input.existingOnly
    })
    ctx.events.emit('project.changed', { what: 'assignments' })
    return result
  },

  'queue.summary': (_input, ctx) => {
    const me = annotatorOf(ctx)
    return {
      queues: queueSummaries(ctx.project.db, me.id).map((q) => ({
        ...q,
        title: isInstrumentId(q.instrument_id) ? getInstrument(q.instrument_id).title : q.instrument_id
      }))
    }
  },
  'queue.list': (input, ctx) => {
    const me = annotatorOf(ctx)
    return { rows: queueFor(ctx.project.db, me.id, input.instrument).map((r, index) => ({ assignmentId: r.id, index, status: r.status })) }
  },
  'queue.item': (input, ctx) => {
    const me = annotatorOf(ctx)
    const c = assignmentContext(ctx.project, me, input.assignmentId)
    const { index, total } = queuePosition(ctx.project.db, c.assignment)
    const { draft, setAside } = restoreDraft(ctx.project, me, c)
    const head = headForAssignment(ctx.project.db, c.assignment.id)
    const answer =
      head && !head.retracted
        ? { id: head.id, judgement: c.instrument.toDisplay(JSON.parse(head.judgement), c.blind.display), createdAt: head.created_at }
        : null
    return {
      assignmentId: c.assignment.id,
      instrument: c.instrument.id,
      instrumentVersion: c.instrument.version,
      index,
      total,
      status: c.assignment.status,
      statusReason: c.assignment.status_reason,
      view: c.blind.view,
      draft,
      layout: layoutToken(ctx.project, c),
      draftSetAside: setAside,
      answer
    }
  },
  'queue.setStatus': (input, ctx) => {
    const me = annotatorOf(ctx)
    const c = assignmentContext(ctx.project, me, input.assignmentId)
    const problem = statusReasonProblem(input.status, input.reason)
    if (problem) {
      const why = input.reason?.trim() ? `The reason is too long (${problem})` : `Say why you ${input.status === 'skipped' ? 'skip' : 'flag'} this item`
      throw new AssayError('invalid_input', why, [{ field: 'reason', message: input.reason?.trim() ? problem : 'required' }])
    }
    if (c.assignment.status === 'done' && input.status !== 'pending') {
      throw new AssayError('conflict', 'This item is answered; undo the answer before skipping or flagging it')
    }
    ctx.project.write((db) => setAssignmentStatus(db, c.assignment.id, input.status, keptStatusReason(input.reason)))
    return { status: input.status }
  },
  'annotations.saveDraft': (input, ctx) => {
    const me = annotatorOf(ctx)
    const c = assignmentContext(ctx.project, me, input.assignmentId)
    checkAnswerSize(input.data, readAnswerLimits(ctx.project.db))
    ctx.project.write((db) => saveLayoutDraft(ctx.project, db, me, c, input.data, input.activeMs, input.layout))
    return { savedAt: new Date().toISOString() }
  },
  'annotations.submit': async (input, ctx) => {
    const me = annotatorOf(ctx)
    const c = assignmentContext(ctx.project, me, input.assignmentId)
    const limits = readAnswerLimits(ctx.project.db)
    checkAnswerSize(input.judgement, limits)
    takeSubmissionToken(ctx.session, limits)
    // Worked checks are re-run here, so the stored output is main's (or marked unverified), never only the client's.
    const canonical = await verifyChecks(canonicalAnswer(c, input.judgement), ctx.session)
    checkAnswerSize(canonical, limits)
    const result = ctx.project.write((db) => {
      const head = headForAssignment(db, c.assignment.id)
      const annotationId = appendRevision(db, ctx, c, me, canonical, { supersedes: head?.id ?? null, retracted: false, activeMs: input.activeMs })
      setAssignmentStatus(db, c.assignment.id, 'done', null)
      deleteDraft(db, me.id, c.assignment.item_id, c.assignment.instrument_id)
      return { annotationId, supersedes: head?.id ?? null }
    })
    ctx.events.emit('project.changed', { what: 'annotations' })
    return result
  },
  'annotations.undo': (input, ctx) => {
    const me = annotatorOf(ctx)
    const db = ctx.project.db
    const row = getAnnotation(db, input.annotationId)
    // An answer of theirs imported from elsewhere belongs to their assignment for that item.
    const assignmentId = row && row.annotator_id === me.id ? assignmentOfAnswer(db, row) : null
    if (!row || assignmentId === null) throw new AssayError('not_found', 'No such answer of yours')
    const c = assignmentContext(ctx.project, me, assignmentId)
    const head = headForAssignment(db, c.assignment.id)
    if (!head || head.id !== row.id || row.retracted) throw new AssayError('conflict', 'Only your latest answer to an item can be undone')
    // A correction of an answer that still stands gives that answer back; a first answer goes back to the draft.
    const earlier = row.supersedes ? getAnnotation(db, row.supersedes) : undefined
    const restored = earlier !== undefined && !earlier.retracted
    ctx.project.write((db) => {
      if (restored) {
        appendRevision(db, ctx, c, me, JSON.parse(earlier.judgement), { supersedes: row.id, retracted: false, activeMs: 0 })
        return
      }
      appendRevision(db, ctx, c, me, JSON.parse(row.judgement), { supersedes: row.id, retracted: true, activeMs: 0 })
      setAssignmentStatus(db, c.assignment.id, 'pending', null)
      const asDisplayed = c.instrument.toDisplay(JSON.parse(row.judgement), c.blind.display)
      saveDraft(db, me.id, c.assignment.item_id, c.assignment.instrument_id, asDisplayed, row.active_ms ?? 0, c.blind.display)
    })
    ctx.events.emit('project.changed', { what: 'annotations' })
    return { assignmentId: c.assignment.id, restored }
  },
  'checks.run': (input, ctx) => runCheck(input.code, input.timeoutMs, ctx.session),
  'annotations.history': (input, ctx) => {
    const me = annotatorOf(ctx)
    const c = assignmentContext(ctx.project, me, input.assignmentId)
    return {
      revisions: historyForAssignment(ctx.project.db, c.assignment.id).map((r) => ({
        id: r.id,
        judgement: c.instrument.toDisplay(JSON.parse(r.judgement), c.blind.display),
        createdAt: r.created_at,
        retracted: r.retracted === 1,
        activeMs: r.active_ms,
        supersedes: r.supersedes
      }))
    }
  }
}
