import type { Db, WritableDB } from './database'

// The curator project's record of the packets it made: one `packets` row each, and the map of opaque ids.

export interface PacketRow {
  id: string
  annotator_id: number
  assignment_digest: string
  created_at: string
  merged_at: string | null
}

export interface PacketItemRow {
  packet_id: string
  opaque_id: string
  assignment_id: number
  view_digest: string
}

export function insertPacket(db: WritableDB, packet: { id: string; annotatorId: number; digest: string }, items: ReadonlyArray<Omit<PacketItemRow, 'packet_id'>>): void {
  db.prepare(`INSERT INTO packets (id, annotator_id, assignment_digest) VALUES (?, ?, ?)`).run(packet.id, packet.annotatorId, packet.digest)
  const stmt = db.prepare(`INSERT INTO packet_items (packet_id, opaque_id, assignment_id, view_digest) VALUES (?, ?, ?, ?)`)
  for (const it of items) stmt.run(packet.id, it.opaque_id, it.assignment_id, it.view_digest)
}

export function getPacket(db: Db, id: string): PacketRow | undefined {
  return db.prepare(`SELECT * FROM packets WHERE id = ?`).get(id) as PacketRow | undefined
}

export function packetItems(db: Db, packetId: string): PacketItemRow[] {
  return db.prepare(`SELECT * FROM packet_items WHERE packet_id = ? ORDER BY opaque_id`).all(packetId) as PacketItemRow[]
}

export function markMerged(db: WritableDB, packetId: string): void {
  db.prepare(`UPDATE packets SET merged_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`).run(packetId)
}

export interface PacketSummaryRow {
  id: string
  annotator: string
  assignments: number
  merged_answers: number
  created_at: string
  merged_at: string | null
}

/** Every packet made from this project, newest first, with how many answers came back from it. */
export function listPackets(db: Db): PacketSummaryRow[] {
  return db
    .prepare(
      `SELECT p.id, an.name AS annotator, p.created_at, p.merged_at,
         (SELECT count(*) FROM packet_items pi WHERE pi.packet_id = p.id) AS assignments,
         (SELECT count(*) FROM annotations a WHERE a.origin = 'packet:' || p.id) AS merged_answers
       FROM packets p JOIN annotators an ON an.id = p.annotator_id
       ORDER BY p.created_at DESC, p.rowid DESC`
    )
    .all() as PacketSummaryRow[]
}

/** Writes into a new packet file: its annotator, and for each assignment the item as a view, the assignment, a draft. */
export interface PacketFileWriter {
  annotator(a: { name: string; expertise: string | null; pseudonym: string }): number
  item(kind: string, opaqueId: string, payload: string): number
  assignment(annotatorId: number, itemId: number, instrumentId: string, position: number, status: string, statusReason: string | null): number
  draft(annotatorId: number, itemId: number, instrumentId: string, data: string, activeMs: number, updatedAt: string): void
}

export function packetFileWriter(db: WritableDB): PacketFileWriter {
  const insertItem = db.prepare(
    `INSERT INTO items (kind, external_id, set_name, split, title, search_text, payload, created_at)
     VALUES (?, ?, 'packet', 'none', ?, '', ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'))`
  )
  const insertAssignment = db.prepare(`INSERT INTO assignments (annotator_id, item_id, instrument_id, position, status, status_reason) VALUES (?, ?, ?, ?, ?, ?)`)
  const insertDraft = db.prepare(`INSERT INTO drafts (annotator_id, item_id, instrument_id, data, active_ms, updated_at) VALUES (?, ?, ?, ?, ?, ?)`)
  return {
    annotator: (a) => Number(db.prepare(`INSERT INTO annotators (name, expertise, pseudonym) VALUES (?, ?, ?)`).run(a.name, a.expertise, a.pseudonym).lastInsertRowid),
    item: (kind, opaqueId, payload) => Number(insertItem.run(kind, opaqueId, opaqueId, payload).lastInsertRowid),
    assignment: (annotatorId, itemId, instrumentId, position, status, statusReason) =>
      Number(insertAssignment.run(annotatorId, itemId, instrumentId, position, status, statusReason).lastInsertRowid),
    draft: (annotatorId, itemId, instrumentId, data, activeMs, updatedAt) => {
      insertDraft.run(annotatorId, itemId, instrumentId, data, activeMs, updatedAt)
    }
  }
}
