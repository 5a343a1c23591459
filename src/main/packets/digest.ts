import { createHash } from 'node:crypto'

/** JSON with object keys sorted at every level, so equal values hash equally whatever order they were built in. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableStringify(v))).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** The digest of a blinded view, as exported and as recomputed at merge time. */
export function viewDigest(view: Record<string, unknown>): string {
  return sha256Hex(stableStringify(view))
}

/** One assignment of a packet as the digest sees it: which item an opaque id stands for, and what was shown. */
export interface DigestEntry {
  opaqueId: string
  itemId: number
  instrumentId: string
  viewDigest: string
}

/**
 * The digest of a packet's assignment list. Main stores it when the packet is made; at merge time it is recomputed
 * from the packet's own assignments (mapped through main's table of opaque ids), so an assignment added, dropped,
 * moved to another item or another instrument, or a view edited, makes the digests differ.
 */
export function assignmentDigest(head: { packetId: string; projectId: string; annotator: string }, entries: ReadonlyArray<DigestEntry>): string {
  const sorted = [...entries].sort((x, y) => (x.opaqueId < y.opaqueId ? -1 : x.opaqueId > y.opaqueId ? 1 : 0))
  return sha256Hex(
    stableStringify({
      packet: head.packetId,
      project: head.projectId,
      annotator: head.annotator,
      assignments: sorted.map((e) => [e.opaqueId, e.itemId, e.instrumentId, e.viewDigest])
    })
  )
}
