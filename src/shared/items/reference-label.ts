import type { ItemKind } from './kinds'

/**
 * An item's own reference answer: the label a report scores judges on as its "Reference label" criterion, an
 * export writes as `canonical_label` and a split stratifies on. Each kind keeps it in its own field, with its own type.
 */
export type ReferenceLabel = string | boolean

interface ReferenceField {
  field: string
  type: 'string' | 'boolean'
  /** What the label says, for dataset cards. */
  meaning: string
}

// A map, so that a kind read from a file can never name an object's own property.
const REFERENCE_FIELDS: ReadonlyMap<string, ReferenceField> = new Map<ItemKind, ReferenceField>([
  ['proposal-pair', { field: 'label', type: 'string', meaning: "a proposal pair's `label` (the better side in canonical order)" }],
  ['preprint-pair', { field: 'same_study', type: 'boolean', meaning: "a preprint pair's `same_study` (whether the preprint is an earlier version of the paper: true or false)" }]
])

/** The field of an item of this kind that holds its reference label, and what it says; null for kinds without one. */
export function referenceLabelField(kind: string): Readonly<ReferenceField> | null {
  return REFERENCE_FIELDS.get(kind) ?? null
}

/** The item's reference label, where its payload carries one of its kind's type; null otherwise. */
export function referenceLabel(kind: string, payload: Readonly<Record<string, unknown>>): ReferenceLabel | null {
  const spec = REFERENCE_FIELDS.get(kind)
  if (!spec) return null
  const value = payload[spec.field]
  return typeof value === spec.type ? (value as ReferenceLabel) : null
}
