import { resolve } from 'node:path'
import { AssayError, isAssayError, type ErrorLocation } from '../../shared/errors'
import { keptStatusReason, statusReasonProblem } from '../../shared/contract/annotation-schemas'
import type { AnyInstrument } from '../../shared/instruments'
import { checkAnswerSize, readAnswerLimits, type AnswerLimits } from '../annotation/answer-limits'
import { assignmentContext, canonicalAnswer, type AnnotatorRef, type AssignmentContext } from '../annotation/blinded'
import { verifyChecks } from '../checks/verify'
import { isCalendarTime } from '../import/timestamps'
import { annotationExistsFinder, appendAnnotation, getAnnotation, headForAssignment, isAnswerOfAssignment, type AnnotationRow } from '../store/annotations'
import { annotatorRef } from '../store/annotators'
import { getAssignment, setAssignmentStatus, type AssignmentStatus } from '../store/assignments'
import type { Db, WritableDB } from '../store/database'
import type { Project } from '../store/project'
import { parentsFirst } from './chains'
import { assignmentDigest, stableStringify, viewDigest, type DigestEntry } from './digest'
import { PACKET_FORMAT } from '../store/packet-format'
import { readPacket, type PacketAssignmentRecord, type PacketContent } from './read'
import { getPacket, markMerged, packetItems } from '../store/packets'
import { declaredVersionAt } from '../store/instruments'

export interface PacketMergeReport {
  path: string
  packetId: string
  annotator: string
  assignments: number
  /** Revisions appended to the project. */
  added: number
  /** Revisions the project already held (an earlier merge, or carried out in the packet): left as they were. */
  alreadyPresent: number
  /** Revisions appended after a newer revision the project got meanwhile, so each answer keeps one chain. */
  rebased: number
  statusesChanged: number
}

/** One revision of a packet, mapped to canonical terms and checked against the real item. */
interface PlannedRevision {
  row: AnnotationRow
  canonical: unknown
  /** Not yet in the project: it is held to the project's caps and its worked checks are re-run before it is written. */
  isNew: boolean
}

interface PlannedAssignment {
  ctx: AssignmentContext
  /** The instrument version its new answers are stored under (set by main, never read from the packet). */
  instrumentVersion: number
  revisions: PlannedRevision[]
  status: AssignmentStatus
  statusReason: string | null
}

interface MergePlan {
  packet: PacketContent
  annotator: AnnotatorRef
  assignments: PlannedAssignment[]
}

/**
 * Brings the answers of annotator packets back into the project. Every packet is read and checked first (it belongs
 * to this project, its assignments are the ones exported, every answer maps to canonical order and passes the
 * instrument's checks on the real item, and within the PROJECT's caps on answers, whatever the packet's own say);
 * every worked check of a new answer is re-run here and its provenance set by main, as on submit (a packet's own
 * `verified` proves nothing: the file is in the annotator's hands); then all revisions are appended in one
 * transaction, keeping the packet's ids, times and revision chains, with origin `packet:<id>`. Any refusal leaves the
 * project untouched. Merging the same packet again finds every revision present and changes nothing.
 */
export async function mergePackets(project: Project, paths: ReadonlyArray<string>): Promise<PacketMergeReport[]> {
  if (project.isPacket) throw new AssayError('conflict', 'This file is an annotator packet; merge packets into the curator project')
  if (paths.length === 0) throw new AssayError('invalid_input', 'Name at least one packet file to merge')
  const limits = readAnswerLimits(project.db)
  const plans: MergePlan[] = []
  for (const path of paths) plans.push(planMerge(project, await readPacket(resolve(path)), limits))
  // One session for the whole merge: its checks run one after another, within the per-session cap.
  const session = {}
  for (const plan of plans) await verifyPlannedChecks(plan, session, limits)
  const reports = project.write((db) => plans.map((plan) => applyPlan(db, plan)))
  return reports
}

/** Re-runs the worked checks of every new revision (replacing the packet's provenance), then holds it to the caps again. */
async function verifyPlannedChecks(plan: MergePlan, session: object, limits: AnswerLimits): Promise<void> {
  const over: string[] = []
  for (const { ctx, revisions } of plan.assignments) {
    for (const revision of revisions) {
      if (!revision.isNew) continue
      revision.canonical = await verifyChecks(revision.canonical, session)
      over.push(...capProblems(revision.row, ctx, revision.canonical, limits))
    }
  }
  if (over.length) refuse(plan.packet, 'too_large', "some answers are over this project's caps on answers.", over)
}

/** The caps a submission meets, told per answer and field; empty when the answer is within them. */
function capProblems(row: AnnotationRow, ctx: AssignmentContext, judgement: unknown, limits: AnswerLimits): string[] {
  try {
    checkAnswerSize(judgement, limits)
    return []
  } catch (e) {
    if (!isAssayError(e)) throw e
    return (e.details ?? [{ message: e.message }]).map((d) => `answer ${row.id} (item ${ctx.externalId}, ${ctx.instrument.id})${d.field ? `, field ${d.field}` : ''}: ${d.message}`)
  }
}

function refuse(packet: PacketContent, code: 'conflict' | 'invalid_answer' | 'invalid_input' | 'too_large', message: string, details: string[] = []): never {
  const shown = details.slice(0, 50)
  const more = details.length - shown.length
  const locations: ErrorLocation[] = shown.map((m) => ({ file: packet.path, message: m }))
  if (more > 0) locations.push({ file: packet.path, message: `… and ${more} more` })
  throw new AssayError(code, `${packet.path}: ${message} Nothing was merged.`, locations.length ? locations : undefined)
}

function planMerge(project: Project, packet: PacketContent, limits: AnswerLimits): MergePlan {
  const db = project.db
  if (packet.format !== PACKET_FORMAT) {
    refuse(packet, 'conflict', `packet format ${packet.format || 'unknown'} is not one this version of Assay reads (format ${PACKET_FORMAT}).`)
  }
  if (packet.projectId !== project.id) {
    refuse(packet, 'conflict', `this packet belongs to another project (${packet.projectId || 'none'}), not to this one (${project.id}).`)
  }
  const record = getPacket(db, packet.packetId)
  if (!record) {
    refuse(packet, 'conflict', `packet ${packet.packetId || '(no id)'} was not made from this project file (it may come from a copy of it).`)
  }
  const annotatorRow = annotatorRef(db, record.annotator_id)
  if (!annotatorRow || annotatorRow.name !== packet.annotator || packet.annotatorId === null) {
    refuse(packet, 'conflict', `the packet names annotator "${packet.annotator}" but was made for "${annotatorRow?.name ?? '?'}"; it was altered.`)
  }
  const annotator: AnnotatorRef = { id: annotatorRow.id, name: annotatorRow.name }

  // The assignment list must be exactly the exported one: same opaque ids, items, instruments and views.
  const exported = new Map(packetItems(db, packet.packetId).map((r) => [r.opaque_id, r]))
  const problems: string[] = []
  const entries: DigestEntry[] = []
  const seen = new Set<string>()
  for (const a of packet.assignments) {
    const mapped = exported.get(a.opaqueId)
    const main = mapped ? getAssignment(db, mapped.assignment_id) : undefined
    if (!mapped || !main) {
      problems.push(`assignment ${a.opaqueId} was not in the packet as exported`)
      continue
    }
    if (seen.has(a.opaqueId)) problems.push(`assignment ${a.opaqueId} appears twice`)
    seen.add(a.opaqueId)
    if (a.annotatorId !== packet.annotatorId) problems.push(`assignment ${a.opaqueId} was given to someone else`)
    if (a.instrumentId !== main.instrument_id) problems.push(`assignment ${a.opaqueId} was moved to instrument ${a.instrumentId}`)
    const shown = viewDigest(a.view)
    if (shown !== mapped.view_digest) problems.push(`the item shown as ${a.opaqueId} was edited`)
    entries.push({ opaqueId: a.opaqueId, itemId: main.item_id, instrumentId: a.instrumentId, viewDigest: shown })
  }
  for (const opaque of exported.keys()) if (!seen.has(opaque)) problems.push(`assignment ${opaque} was removed`)
  const digest = assignmentDigest({ packetId: packet.packetId, projectId: project.id, annotator: annotator.name }, entries)
  if (problems.length || digest !== record.assignment_digest || packet.digest !== record.assignment_digest) {
    refuse(packet, 'conflict', 'its assignments differ from the ones exported; the packet was altered.', problems)
  }

  const byLocal = new Map(packet.assignments.map((a) => [a.localId, a]))
  const contexts = new Map<number, AssignmentContext>()
  for (const a of packet.assignments) {
    const ctx = assignmentContext(project, annotator, exported.get(a.opaqueId)!.assignment_id)
    // The answers were given on the view as exported; if the item itself changed since, they cannot be mapped safely.
    if (viewDigest(ctx.blind.view) !== exported.get(a.opaqueId)!.view_digest) {
      problems.push(`item ${ctx.externalId} (shown as ${a.opaqueId}) changed in this project after the packet was made`)
    }
    contexts.set(a.localId, ctx)
  }
  if (problems.length) refuse(packet, 'conflict', 'items changed since the packet was made, so its answers cannot be mapped back.', problems)

  // A skip or flag comes back as queue.setStatus would take it; any other reason refuses the packet, whatever its answers.
  for (const a of packet.assignments) {
    const problem = statusReasonProblem(a.status, a.statusReason)
    if (problem) problems.push(`assignment ${a.opaqueId} (item ${contexts.get(a.localId)!.externalId}), field status_reason: ${problem}`)
  }
  if (problems.length) refuse(packet, 'invalid_input', 'some skip or flag reasons are not ones queue.setStatus would take.', problems)

  // The version a new answer is stored under is set by main, as submit sets it: the version of the instrument the
  // packet was made with (a declared instrument's newest version when the packet was made, which the packet carries
  // and asks with; a built-in's own). The packet's number is a value its holder can type anything into, and an
  // answer given in the packet's form can only have been given under that version, so it is set, not compared.
  const versions = new Map<string, number>()
  const versionOf = (ctx: AssignmentContext): number => {
    const id = ctx.instrument.id
    if (!versions.has(id)) versions.set(id, declaredVersionAt(db, id, record.created_at) ?? ctx.instrument.version)
    return versions.get(id) as number
  }
  const planned = planRevisions(db, packet, byLocal, contexts, limits, versionOf)
  const inProject = annotationExistsFinder(db)
  const forged = packet.annotations.flatMap((row) => (inProject(row.id) ? [] : revisionTimeProblems(row, record.created_at, Date.now())))
  if (forged.length) refuse(packet, 'invalid_answer', 'some answers carry impossible times.', forged)
  return { packet, annotator, assignments: planned }
}

/** How far an annotator's clock may run ahead of this one, or behind it when the packet was made. */
export const CLOCK_SKEW_MS = 15 * 60_000
/** Active time of one revision: a day of work on one item is already far beyond any real session. */
export const MAX_ACTIVE_MS = 24 * 3_600_000
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/**
 * A new revision's `created_at` must be a real ISO 8601 time, not before the packet was made nor in the future (each
 * beyond a small clock skew); its `active_ms` a whole number from 0 to a day. Revisions the project already holds
 * are compared as they are elsewhere.
 */
export function revisionTimeProblems(row: Pick<AnnotationRow, 'id' | 'created_at' | 'active_ms'>, packetMadeAt: string, now: number): string[] {
  const problems: string[] = []
  const at = ISO_TIME.test(row.created_at) && isCalendarTime(row.created_at) ? Date.parse(row.created_at) : Number.NaN
  const made = Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(packetMadeAt) ? packetMadeAt : `${packetMadeAt.replace(' ', 'T')}Z`)
  if (Number.isNaN(at)) problems.push(`answer ${row.id}: created_at ${JSON.stringify(row.created_at)} is not an ISO 8601 time`)
  else if (at > now + CLOCK_SKEW_MS) problems.push(`answer ${row.id}: created_at ${row.created_at} is in the future`)
  else if (!Number.isNaN(made) && at < made - CLOCK_SKEW_MS) problems.push(`answer ${row.id}: created_at ${row.created_at} is before the packet was made (${packetMadeAt})`)
  const ms = row.active_ms
  if (ms !== null && !(Number.isInteger(ms) && ms >= 0 && ms <= MAX_ACTIVE_MS)) {
    problems.push(`answer ${row.id}: active_ms ${JSON.stringify(ms)} must be a whole number of milliseconds from 0 to ${MAX_ACTIVE_MS}`)
  }
  return problems
}

function planRevisions(
  db: Db,
  packet: PacketContent,
  byLocal: ReadonlyMap<number, PacketAssignmentRecord>,
  contexts: ReadonlyMap<number, AssignmentContext>,
  limits: AnswerLimits,
  versionOf: (ctx: AssignmentContext) => number
): PlannedAssignment[] {
  const problems: string[] = []
  const answerProblems: string[] = []
  const over: string[] = []
  const known = annotationExistsFinder(db)
  const packetIds = new Set(packet.annotations.map((r) => r.id))
  const rowsByAssignment = new Map<number, AnnotationRow[]>()
  for (const row of packet.annotations) {
    const a = row.assignment_id === null ? undefined : byLocal.get(row.assignment_id)
    if (!a) {
      problems.push(`answer ${row.id} belongs to no assignment of the packet`)
      continue
    }
    if (row.annotator_id !== packet.annotatorId || row.source_kind !== 'human') problems.push(`answer ${row.id} is not ${packet.annotator}'s`)
    if (row.item_id !== a.localItemId || row.instrument_id !== a.instrumentId) problems.push(`answer ${row.id} does not match its assignment`)
    if (row.supersedes !== null && !packetIds.has(row.supersedes) && !existsInProject(db, row.supersedes, contexts.get(a.localId)!)) {
      problems.push(`answer ${row.id} revises an answer that is neither in the packet nor in this project`)
    }
    const list = rowsByAssignment.get(a.localId)
    if (list) list.push(row)
    else rowsByAssignment.set(a.localId, [row])
  }
  const planned: PlannedAssignment[] = []
  for (const a of packet.assignments) {
    const ctx = contexts.get(a.localId)!
    const { ordered, unreachable } = parentsFirst(rowsByAssignment.get(a.localId) ?? [])
    for (const r of unreachable) problems.push(`answer ${r.id} is part of a revision loop`)
    const revisions: PlannedRevision[] = []
    for (const row of ordered) {
      const isNew = !known(row.id)
      try {
        const sent = JSON.parse(row.judgement) as unknown
        // As on submit: the answer as given is held to the project's caps before anything else is done with it.
        if (isNew) {
          const tooLarge = capProblems(row, ctx, sent, limits)
          over.push(...tooLarge)
          if (tooLarge.length) continue
        }
        revisions.push({ row, canonical: canonicalAnswer(ctx, sent), isNew })
      } catch (e) {
        if (!isAssayError(e)) throw e
        answerProblems.push(`answer ${row.id} (item ${ctx.externalId}, ${ctx.instrument.id}): ${e.message}`)
      }
    }
    planned.push({ ctx, instrumentVersion: versionOf(ctx), revisions, status: a.status, statusReason: keptStatusReason(a.statusReason) })
  }
  if (problems.length) refuse(packet, 'conflict', 'some answers in it are not consistent with its assignments; the packet was altered.', problems)
  if (over.length) refuse(packet, 'too_large', "some answers are over this project's caps on answers (a packet's own caps do not apply here).", over)
  if (answerProblems.length) refuse(packet, 'invalid_answer', 'some answers do not pass the checks of their instrument on the real item.', answerProblems)
  return planned
}

function existsInProject(db: Db, id: string, ctx: AssignmentContext): boolean {
  return isAnswerOfAssignment(db, id, ctx.assignment.id)
}

/** Runs inside the merge transaction: appends what is missing, then brings assignment statuses up to date. */
function applyPlan(db: WritableDB, plan: MergePlan): PacketMergeReport {
  const { packet, annotator } = plan
  const report: PacketMergeReport = {
    path: packet.path,
    packetId: packet.packetId,
    annotator: annotator.name,
    assignments: plan.assignments.length,
    added: 0,
    alreadyPresent: 0,
    rebased: 0,
    statusesChanged: 0
  }
  for (const { ctx, instrumentVersion, revisions, status, statusReason } of plan.assignments) {
    for (const { row, canonical } of revisions) {
      const existing = getAnnotation(db, row.id)
      if (existing) {
        if (!sameRevision(ctx.instrument, existing, isAnswerOfAssignment(db, existing.id, ctx.assignment.id), row, canonical)) {
          refuse(packet, 'conflict', `answer ${row.id} differs from the answer with the same id in this project; the packet was altered.`)
        }
        report.alreadyPresent++
        continue
      }
      const head = headForAssignment(db, ctx.assignment.id)
      const parent = head?.id ?? null
      if (row.supersedes !== parent) report.rebased++
      appendAnnotation(db, {
        id: row.id,
        itemId: ctx.assignment.item_id,
        instrumentId: ctx.instrument.id,
        instrumentVersion,
        annotatorId: annotator.id,
        sourceKind: 'human',
        sourceName: annotator.name,
        judgement: canonical,
        display: ctx.blind.display,
        supersedes: parent,
        retracted: row.retracted === 1,
        assignmentId: ctx.assignment.id,
        activeMs: row.active_ms,
        origin: `packet:${packet.packetId}`,
        createdAt: row.created_at
      })
      report.added++
    }
    const next = nextStatus(db, ctx, status, statusReason)
    const current = getAssignment(db, ctx.assignment.id)!
    if (next && (next.status !== current.status || next.reason !== current.status_reason)) {
      setAssignmentStatus(db, ctx.assignment.id, next.status, next.reason)
      report.statusesChanged++
    }
  }
  if (report.added > 0 || report.statusesChanged > 0) markMerged(db, packet.packetId)
  return report
}

/**
 * The status after merging: answered when the chain ends in an answer; otherwise the packet's skip or flag (with its
 * reason); pending when the last revision withdrew the answer; else unchanged.
 */
function nextStatus(db: Db, ctx: AssignmentContext, status: AssignmentStatus, reason: string | null): { status: AssignmentStatus; reason: string | null } | null {
  const head = headForAssignment(db, ctx.assignment.id)
  if (head && !head.retracted) return { status: 'done', reason: null }
  if (status === 'skipped' || status === 'flagged') return { status, reason }
  if (head) return { status: 'pending', reason: null }
  return null
}

function sameRevision(instrument: AnyInstrument, existing: AnnotationRow, ofAssignment: boolean, row: AnnotationRow, canonical: unknown): boolean {
  if (!ofAssignment || existing.retracted !== row.retracted) return false
  const stored = JSON.parse(existing.judgement) as unknown
  const parsed = instrument.judgement.safeParse(stored)
  const inProject = parsed.success ? parsed.data : stored
  // Stored as the packet had it (merged before checks were re-run here), or with main's provenance set on merging.
  return stableStringify(inProject) === stableStringify(canonical) || stableStringify(asAnswered(inProject, true)) === stableStringify(asAnswered(canonical, false))
}

/**
 * An answer as the packet gave it: each worked check as its code, time and the packet's output. The provenance main
 * set on merging is not part of it; on a mismatch main stored its own output and kept the packet's as
 * `client_output` (`merged`), so a revision merged before compares equal to the same revision in the packet.
 */
function asAnswered(value: unknown, merged: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => asAnswered(v, merged))
  if (!value || typeof value !== 'object') return value
  const o = value as Record<string, unknown>
  if (typeof o.code === 'string' && typeof o.output === 'string' && typeof o.ran_at === 'string') {
    return { code: o.code, ran_at: o.ran_at, output: merged && typeof o.client_output === 'string' ? o.client_output : o.output }
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, asAnswered(v, merged)]))
}

