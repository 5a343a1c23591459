/**
 * The label file layout shared by the `labels` importer and the labels exporter, so an export imports back.
 *
 * JSONL: one answer per line, `{ item, unit?, instrument, source, source_kind, judgement: {...} }` plus optional
 * provenance (below). CSV: the same columns, then one column per judgement field; nested fields are dotted
 * (`test.intervention`), lists and objects are JSON in their cell; a column may also be written `judgement.<field>`.
 *
 * A final label (`source_kind: 'final'`) carries `final_from` (adjudication | majority) and the columns of
 * FINAL_COLUMNS. Its judgement may be null (a tied majority). The curator's reason is `reason` in JSONL and
 * `adjudication_reason` in CSV, where `reason` is a judgement field of several instruments.
 */
export const LABEL_KEY_COLUMNS = ['item', 'unit', 'instrument', 'source', 'source_kind'] as const

/** Provenance of a final label; `based_on` and `majority_values` are JSON in a CSV cell. */
export const FINAL_COLUMNS = [
  'final_from',
  'majority',
  'majority_values',
  'n_answers',
  'n_agreeing',
  'n_abstained',
  'based_on',
  'adjudication_id',
  'curator',
  'adjudication_reason',
  'stale_adjudication_id'
] as const

/** Provenance an export writes and an import reads (or ignores): never judgement fields. */
export const LABEL_META_COLUMNS = [
  ...LABEL_KEY_COLUMNS,
  'item_kind',
  'instrument_version',
  'created_at',
  'active_ms',
  'display',
  'split',
  'set',
  'annotation_id',
  'supersedes',
  'origin',
  'revision',
  'canonical_label',
  'judgement',
  ...FINAL_COLUMNS
] as const

export const JUDGEMENT_COLUMN_PREFIX = 'judgement.'

/** Kinds of answer stored as annotations. */
export const SOURCE_KINDS = ['human', 'model', 'reference'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

/** A final label: an adjudication (stored) or a human majority (checked on import, not stored). */
export const FINAL_SOURCE_KIND = 'final'
export const LABEL_SOURCE_KINDS = [...SOURCE_KINDS, FINAL_SOURCE_KIND] as const
export type LabelSourceKind = (typeof LABEL_SOURCE_KINDS)[number]

export const FINAL_FROM = ['adjudication', 'majority'] as const
export type FinalFromColumn = (typeof FINAL_FROM)[number]
