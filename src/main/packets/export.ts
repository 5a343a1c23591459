import { randomBytes, randomUUID } from 'node:crypto'
import { renameSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { AssayError } from '../../shared/errors'
import { isInstrumentId, unknownInstrumentMessage } from '../../shared/instruments'
import type { Split } from '../../shared/items/kinds'
import { readAnswerLimits, writeAnswerLimits, type AnswerLimits } from '../annotation/answer-limits'
import { assignmentContext } from '../annotation/blinded'
import { restoreDraft } from '../annotation/drafts'
import { checkOutputPath, tempPathFor } from '../files/output-file'
import { appendAnnotation, historyForAssignment, type AnnotationRow, type DraftRow } from '../store/annotations'
import { findAnnotator, type AnnotatorRow } from '../store/annotators'
import { annotatorAssignments, type AssignmentRow } from '../store/assignments'
import { peekMeta, type WritableDB } from '../store/database'
import { setMeta } from '../store/meta'
import { Project } from '../store/project'
import { parentsFirst } from './chains'
import { assignmentDigest, viewDigest, type DigestEntry } from './digest'
import { PACKET_FORMAT, PACKET_META, VIEW_KEY } from '../store/packet-format'
import { insertPacket, packetFileWriter, type PacketFileWriter } from '../store/packets'
import { copyProjectInstrumentRows, projectInstrumentRows, type ProjectInstrumentRow } from '../store/instruments'

export interface PacketExportOptions {
  annotator: string
  /** Where to write the packet (a new .assay file). */
  out: string
  instrument?: string | undefined
  set?: string | undefined
  split?: Split | undefined
  /** Replace an existing file at `out` (refused otherwise: it may be a packet someone has worked in). */
  overwrite?: boolean | undefined
}

export interface PacketExportResult {
  packetId: string
  path: string
  annotator: string
  assignments: number
  /** The annotator's own earlier revisions carried in the packet, so work can continue where it stood. */
  answers: number
  instruments: Record<string, number>
  digest: string
}

/** One assignment as it goes into the packet: the view in display order, own answers in display terms. */
interface PacketAssignment {
  opaqueId: string
  assignment: AssignmentRow
  kind: string
  view: Record<string, unknown>
  viewDigest: string
  revisions: Array<AnnotationRow & { displayJudgement: unknown }>
  draft: DraftRow | undefined
}

/**
 * Writes a packet for one annotator: a separate project file holding only that annotator's assignments, each as the
 * blinded view the annotator would see (already in their display order) under a random opaque id. Hidden fields,
 * external ids, the display mapping, the project seed, other people's answers and judge outputs are not in the file
 * at all. The project records the packet (its opaque ids and the digest of its assignments) so that merge can map
 * answers back and refuse a packet whose assignments were altered.
 */
export async function exportPacket(project: Project, opts: PacketExportOptions): Promise<PacketExportResult> {
  if (project.isPacket) throw new AssayError('conflict', 'This file is an annotator packet; packets are made from the curator project')
  if (opts.instrument !== undefined && !isInstrumentId(opts.instrument)) {
    throw new AssayError('invalid_input', unknownInstrumentMessage(opts.instrument), [{ field: 'instrument', message: 'unknown' }])
  }
  const out = resolve(opts.out)
  if (resolve(project.path) === out) throw new AssayError('invalid_input', 'The packet cannot be written over the project itself')
  // An earlier packet of this project may be replaced on request; any other database (a project) never.
  const guard = { force: opts.overwrite ?? false, protect: [project.path], replaceableDatabase: (path: string) => isPacketOf(path, project.id), database: true }
  checkOutputPath(out, guard)
  const db = project.db
  const annotator = findAnnotator(project, opts.annotator.trim())
  if (!annotator) throw new AssayError('not_found', `No annotator named "${opts.annotator}" in this project`)

  // One read transaction: the assignments, views, revisions and declarations come from one state of the project.
  const { content, declared } = db.transaction(() => {
    const content = collect(project, annotator, opts)
    // A declared instrument travels with its assignments: the packet's form, checks and judge prompt are its own.
    const ids = new Set(content.map((c) => c.assignment.instrument_id))
    return { content, declared: projectInstrumentRows(db).filter((r) => ids.has(r.instrument_id)) }
  })()
  if (content.length === 0) {
    throw new AssayError('invalid_input', `${annotator.name} has no assignments${describeFilter(opts)}; assign items first`)
  }

  const packetId = randomUUID()
  const entries: DigestEntry[] = content.map((c) => ({
    opaqueId: c.opaqueId,
    itemId: c.assignment.item_id,
    instrumentId: c.assignment.instrument_id,
    viewDigest: c.viewDigest
  }))
  const digest = assignmentDigest({ packetId, projectId: project.id, annotator: annotator.name }, entries)

  const temp = tempPathFor(out)
  try {
    await writePacketFile(temp, { packetId, projectId: project.id, digest, annotator, content, declared, limits: readAnswerLimits(project.db) })
    project.write((db) =>
      insertPacket(
        db,
        { id: packetId, annotatorId: annotator.id, digest },
        content.map((c) => ({ opaque_id: c.opaqueId, assignment_id: c.assignment.id, view_digest: c.viewDigest }))
      )
    )
    // A stale journal beside the target would be replayed into the new file.
    checkOutputPath(out, guard)
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(out + suffix, { force: true })
    renameSync(temp, out)
  } catch (e) {
    rmSync(temp, { force: true })
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(temp + suffix, { force: true })
    throw e
  }

  const instruments: Record<string, number> = {}
  for (const c of content) instruments[c.assignment.instrument_id] = (instruments[c.assignment.instrument_id] ?? 0) + 1
  return {
    packetId,
    path: out,
    annotator: annotator.name,
    assignments: content.length,
    answers: content.reduce((n, c) => n + c.revisions.length, 0),
    instruments,
    digest
  }
}

/** True for a packet file made from the project `projectId` (read-only look at its meta table). */
function isPacketOf(path: string, projectId: string): boolean {
  const meta = peekMeta(path, ['mode', 'project_id'])
  return meta?.mode === 'packet' && meta.project_id === projectId
}

function describeFilter(opts: PacketExportOptions): string {
  const parts = [
    opts.instrument ? `instrument ${opts.instrument}` : null,
    opts.set ? `set ${opts.set}` : null,
    opts.split ? `split ${opts.split}` : null
  ].filter(Boolean)
  return parts.length ? ` matching ${parts.join(', ')}` : ''
}

function collect(project: Project, annotator: AnnotatorRow, opts: PacketExportOptions): PacketAssignment[] {
  const db = project.db
  const assignments = annotatorAssignments(db, annotator.id, { instrument: opts.instrument ?? null, set: opts.set ?? null, split: opts.split ?? null })
  const used = new Set<string>()
  const ref = { id: annotator.id, name: annotator.name }
  return assignments.map((assignment) => {
    const ctx = assignmentContext(project, ref, assignment.id)
    const history = parentsFirst(historyForAssignment(db, assignment.id).filter((r) => r.annotator_id === annotator.id && r.source_kind === 'human')).ordered
    return {
      opaqueId: opaqueId(used),
      assignment,
      kind: ctx.instrument.itemKind,
      view: ctx.blind.view,
      viewDigest: viewDigest(ctx.blind.view),
      revisions: history.map((r) => ({ ...r, displayJudgement: ctx.instrument.toDisplay(JSON.parse(r.judgement), ctx.blind.display) })),
      draft: draftAsShown(project, ref, ctx)
    }
  })
}

/**
 * The annotator's draft in the layout the packet's view is written in (the current one), so it reads against the
 * sides it is shown beside; a draft that cannot be carried over to that layout stays aside in the project.
 */
function draftAsShown(project: Project, ref: { id: number; name: string }, ctx: ReturnType<typeof assignmentContext>): DraftRow | undefined {
  const { draft } = restoreDraft(project, ref, ctx)
  return draft ? { data: JSON.stringify(draft.data), active_ms: draft.activeMs, updated_at: draft.updatedAt } : undefined
}

/** Random, so an id says nothing of the item, its position in the project, or its generator. */
function opaqueId(used: Set<string>): string {
  for (;;) {
    const id = `item-${randomBytes(6).toString('hex')}`
    if (!used.has(id)) {
      used.add(id)
      return id
    }
  }
}

interface PacketFileContent {
  packetId: string
  projectId: string
  digest: string
  annotator: AnnotatorRow
  content: PacketAssignment[]
  /** The project's caps on answers, so the packet asks no more of its answers than the merge will. */
  limits: AnswerLimits
  /** Every version of the declared instruments among the assignments. */
  declared: ReadonlyArray<ProjectInstrumentRow>
}

async function writePacketFile(path: string, c: PacketFileContent): Promise<void> {
  const packet = await Project.create(path)
  try {
    packet.write((db) => {
      setMeta(db, 'mode', 'packet')
      setMeta(db, 'packet_annotator', c.annotator.name)
      setMeta(db, 'project_id', c.projectId)
      setMeta(db, 'name', `Packet for ${c.annotator.name}`)
      setMeta(db, PACKET_META.id, c.packetId)
      setMeta(db, PACKET_META.format, String(PACKET_FORMAT))
      setMeta(db, PACKET_META.digest, c.digest)
      writeAnswerLimits(db, c.limits)
      copyProjectInstrumentRows(db, c.declared)
      const writer = packetFileWriter(db)
      const annotatorId = writer.annotator({ name: c.annotator.name, expertise: c.annotator.expertise, pseudonym: c.annotator.pseudonym })
      writeAssignments(db, writer, annotatorId, c.annotator.name, c.content)
    })
    // Nothing of overwritten meta values survives in free space.
    packet.compact()
  } finally {
    packet.close()
  }
}

function writeAssignments(db: WritableDB, writer: PacketFileWriter, annotatorId: number, annotatorName: string, content: ReadonlyArray<PacketAssignment>): void {
  const positions = new Map<string, number>()
  for (const c of content) {
    const instrumentId = c.assignment.instrument_id
    const itemId = writer.item(c.kind, c.opaqueId, JSON.stringify({ [VIEW_KEY]: c.view }))
    // Positions restart at 0 per queue: the project's seeded positions are not needed to keep the order.
    const position = positions.get(instrumentId) ?? 0
    positions.set(instrumentId, position + 1)
    const assignmentId = writer.assignment(annotatorId, itemId, instrumentId, position, c.assignment.status, c.assignment.status_reason)
    const carried = new Set(c.revisions.map((r) => r.id))
    for (const r of c.revisions) {
      appendAnnotation(db, {
        id: r.id,
        itemId,
        instrumentId,
        instrumentVersion: r.instrument_version,
        annotatorId,
        sourceKind: 'human',
        sourceName: annotatorName,
        judgement: r.displayJudgement,
        // A revision of someone else's row is not carried with it; in the packet it starts the chain.
        supersedes: r.supersedes !== null && carried.has(r.supersedes) ? r.supersedes : null,
        retracted: r.retracted === 1,
        assignmentId,
        activeMs: r.active_ms,
        origin: r.origin,
        createdAt: r.created_at
      })
    }
    if (c.draft) writer.draft(annotatorId, itemId, instrumentId, c.draft.data, c.draft.active_ms, c.draft.updated_at)
  }
}
