import { ITEM_KINDS, type ItemKind } from '../../shared/items/kinds'

// A source file may carry fields of its own beside the ones Assay reads. Kept at the top of the payload they could
// shadow a field Assay attaches or reads (a hypothesis set's own `task` hid the task Assay attaches, and every judge
// run skipped it), so they are stored under one key of their own, as written.

/** The payload key holding a source row's own fields, exactly as the file had them. */
export const EXTRA_KEY = '$extra'

/** Fields beyond each kind's schema that Assay reads or its importers and runs compute (hashes, derived labels). */
const ALSO_READ: Partial<Record<ItemKind, ReadonlyArray<string>>> = {
  'proposal-pair': ['origin_label', 'literature_review', 'probe_of'],
  // A generic import's title and origin (hidden from annotators: idea-review shows only the text).
  idea: ['idea_hash', 'title', 'origin'],
  'idea-pair': ['hash_a', 'hash_b', 'score'],
  'hypothesis-set': ['reference', 'candidates']
}

const known = new Map<ItemKind, ReadonlySet<string>>()

/** The top-level payload fields Assay knows for a kind. */
export function knownFields(kind: ItemKind): ReadonlySet<string> {
  let keys = known.get(kind)
  if (!keys) {
    const shape = (ITEM_KINDS[kind] as unknown as { shape: Record<string, unknown> }).shape
    keys = new Set([...Object.keys(shape), ...(ALSO_READ[kind] ?? [])])
    known.set(kind, keys)
  }
  return keys
}

/** The payload with every field Assay does not know moved under `$extra` (nothing is dropped or renamed). */
export function namespaceUnknownFields(kind: ItemKind, payload: Record<string, unknown>): Record<string, unknown> {
  const keys = knownFields(kind)
  const own: Record<string, unknown> = {}
  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(payload)) {
    if (keys.has(k)) own[k] = v
    else Object.defineProperty(extra, k, { value: v, enumerable: true, writable: true, configurable: true })
  }
  return Object.keys(extra).length ? { ...own, [EXTRA_KEY]: extra } : own
}
