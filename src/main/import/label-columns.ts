/**
 * The label file layout shared by the `labels` importer and the labels exporter, so an export imports back.
 *
 * JSONL: one answer per line, `{ item, unit?, instrument, source, source_kind, judgement: {...} }` plus optional
 * provenance (below). CSV: the same columns, then one column per judgement field; nested fields are dotted
 * (`test.intervention`), lists and objects are JSON in their cell; a column may also be written `judgement.<field>`.
 */
export const LABEL_KEY_COLUMNS = ['item', 'unit', 'instrument', 'source', 'source_kind'] as const

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
  'judgement'
] as const

export const JUDGEMENT_COLUMN_PREFIX = 'judgement.'

export const SOURCE_KINDS = ['human', 'model', 'reference'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]
