import type { Db, WritableDB } from './database'
import type { Split } from '../../shared/items/kinds'
import { probeProvenanceSchema, type ProbeProvenance } from '../../shared/probes/provenance'

export interface NewProbeRow {
  itemId: number
  originalItemId: number
  provenance: ProbeProvenance
  /** The run of this project that made it; imported probes name a run of another project only in their provenance. */
  localRun?: boolean
}

/** Records a probe item's provenance; the caller owns the transaction (the item is inserted in the same one). */
export function insertProbe(db: WritableDB, p: NewProbeRow): void {
  const v = p.provenance
  db.prepare(
    `INSERT INTO probes (item_id, original_item_id, original_side, probe_family, kind, kind_version, method, template_id,
       template_version, run_id, provenance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(
    p.itemId,
    p.originalItemId,
    v.original.side,
    v.family,
    v.kind,
    v.kind_version,
    v.made_by.method,
    v.made_by.template_id ?? null,
    v.made_by.template_version ?? null,
    p.localRun === false ? null : (v.made_by.run_id ?? null),
    JSON.stringify(v)
  )
}

export interface ProbeRecord {
  itemId: number
  externalId: string
  set: string
  split: Split
  originalItemId: number
  originalExternalId: string
  family: string
  kind: string
  kindVersion: number
  method: string
  provenance: ProbeProvenance
  createdAt: string
}

interface Row {
  item_id: number
  external_id: string
  set_name: string
  split: Split
  original_item_id: number
  original_external_id: string
  probe_family: string
  kind: string
  kind_version: number
  method: string
  provenance: string
  created_at: string
}

export interface ProbeQuery {
  kind?: string | undefined
  set?: string | undefined
}

export function listProbes(db: Db, q: ProbeQuery = {}): ProbeRecord[] {
  const where: string[] = []
  const params: unknown[] = []
  if (q.kind) {
    where.push('p.kind = ?')
    params.push(q.kind)
  }
  if (q.set) {
    where.push('i.set_name = ?')
    params.push(q.set)
  }
  const rows = db
    .prepare(
      `SELECT p.item_id, i.external_id, i.set_name, i.split, p.original_item_id, o.external_id AS original_external_id,
              p.probe_family, p.kind, p.kind_version, p.method, p.provenance, p.created_at
       FROM probes p JOIN items i ON i.id = p.item_id JOIN items o ON o.id = p.original_item_id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.item_id`
    )
    .all(...params) as Row[]
  return rows.map((r) => ({
    itemId: r.item_id,
    externalId: r.external_id,
    set: r.set_name,
    split: r.split,
    originalItemId: r.original_item_id,
    originalExternalId: r.original_external_id,
    family: r.probe_family,
    kind: r.kind,
    kindVersion: r.kind_version,
    method: r.method,
    provenance: probeProvenanceSchema.parse(JSON.parse(r.provenance)),
    createdAt: r.created_at
  }))
}

export function isProbeItem(db: Db, itemId: number): boolean {
  return db.prepare(`SELECT 1 FROM probes WHERE item_id = ?`).get(itemId) !== undefined
}

export function isProbe(db: Db, itemId: number): boolean {
  return db.prepare(`SELECT 1 FROM probes WHERE item_id = ?`).get(itemId) !== undefined
}

/** The proposal pairs of a set that are not probes themselves, in id order. */
export function unprobedPairs(db: Db, set: string): Array<{ id: number; external_id: string; split: Split; payload: string }> {
  return db
    .prepare(
      `SELECT id, external_id, split, payload FROM items i
       WHERE kind = 'proposal-pair' AND set_name = ? AND NOT EXISTS (SELECT 1 FROM probes p WHERE p.item_id = i.id) ORDER BY id`
    )
    .all(set) as Array<{ id: number; external_id: string; split: Split; payload: string }>
}

export interface ProbeCheckRow {
  item_id: number
  source_name: string
  judgement: string
}

/** The current answers of people to the probe check, oldest first, and its current adjudications. */
export function probeChecks(db: Db): { answers: ProbeCheckRow[]; adjudicated: ProbeCheckRow[] } {
  const answers = db
    .prepare(
      `SELECT a.item_id, a.source_name, a.judgement FROM current_annotations a
       WHERE a.instrument_id = 'probe-check' AND a.source_kind = 'human'
       ORDER BY a.created_at`
    )
    .all() as ProbeCheckRow[]
  const adjudicated = db
    .prepare(
      `SELECT d.item_id, d.curator AS source_name, d.judgement FROM current_adjudications d
       WHERE d.instrument_id = 'probe-check'`
    )
    .all() as ProbeCheckRow[]
  return { answers, adjudicated }
}
