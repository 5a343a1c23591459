import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AssayError } from '../../shared/errors'
import { allAnnotations, type AnnotationRow } from '../store/annotations'
import { annotatorIdByName } from '../store/annotators'
import { assignmentsWithItems, type AssignmentStatus } from '../store/assignments'
import { getMeta } from '../store/meta'
import { Project } from '../store/project'
import { PACKET_META, packetViewOf } from '../store/packet-format'

export interface PacketAssignmentRecord {
  /** The assignment's id inside the packet file (meaningless in the project). */
  localId: number
  localItemId: number
  annotatorId: number
  opaqueId: string
  instrumentId: string
  status: AssignmentStatus
  statusReason: string | null
  view: Record<string, unknown>
}

/** Everything merge needs from a packet file, read once; the file is opened read-only and left as it was. */
export interface PacketContent {
  path: string
  mode: string | undefined
  format: number
  packetId: string
  projectId: string
  annotator: string
  digest: string
  /** Local id of the packet's annotator (the one named by `packet_annotator`), or null when it is missing. */
  annotatorId: number | null
  assignments: PacketAssignmentRecord[]
  annotations: AnnotationRow[]
}

/**
 * Opens a packet read-only. A packet written by an older version needs its schema upgraded first: that happens on a
 * temporary copy, so the annotator's file is never changed by a merge.
 */
async function openReadOnly(path: string): Promise<{ packet: Project; cleanup: () => void }> {
  try {
    // A packet travels by mail and USB sticks: its integrity is checked before anything is read from it.
    return { packet: await Project.open(path, { readonly: true, verify: true }), cleanup: () => {} }
  } catch (e) {
    if (!(e instanceof AssayError) || e.code !== 'conflict') throw e
    const dir = mkdtempSync(join(tmpdir(), 'assay-packet-'))
    const copy = join(dir, 'packet.assay')
    copyFileSync(path, copy)
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`)
    const packet = await Project.open(copy, { verify: true })
    return { packet, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
  }
}

/** An item's view, or an error naming the packet file and the item when the packet is damaged. */
function viewIn(path: string, opaqueId: string, payload: string): Record<string, unknown> {
  try {
    return packetViewOf(JSON.parse(payload) as Record<string, unknown>)
  } catch (e) {
    throw new AssayError('not_a_project', `${path}: item ${opaqueId} has no readable view (${(e as Error).message}); the packet file is damaged. Nothing was merged.`, [
      { file: path, field: opaqueId, message: 'damaged view' }
    ])
  }
}

export async function readPacket(path: string): Promise<PacketContent> {
  const { packet, cleanup } = await openReadOnly(path)
  try {
    const db = packet.db
    const meta = (key: string) => getMeta(db, key) ?? ''
    const mode = getMeta(db, 'mode')
    if (mode !== 'packet') throw new AssayError('conflict', `${path} is not an annotator packet (it is a ${mode ?? 'project'} file). Nothing was merged.`)
    const annotator = meta('packet_annotator')
    const annotatorId = annotatorIdByName(db, annotator)
    const assignments = assignmentsWithItems(db).map((r) => ({
      localId: r.id,
      localItemId: r.item_id,
      annotatorId: r.annotator_id,
      opaqueId: r.external_id,
      instrumentId: r.instrument_id,
      status: r.status,
      statusReason: r.status_reason,
      view: viewIn(path, r.external_id, r.payload)
    }))
    return {
      path,
      mode,
      format: Number(meta(PACKET_META.format)),
      packetId: meta(PACKET_META.id),
      projectId: meta('project_id'),
      annotator,
      digest: meta(PACKET_META.digest),
      annotatorId: annotatorId ?? null,
      assignments,
      annotations: allAnnotations(db)
    }
  } finally {
    packet.close()
    cleanup()
  }
}
