import type { ErrorLocation } from '../../shared/errors'
import type { ItemKind } from '../../shared/items/kinds'
import type { Db } from '../store/database'
import type { GenericMapping } from '../../shared/items/generic-mapping'

/** A number of a source file whose text a double does not give back, with where it is. */
export interface SourceNumber {
  /** Keys and indices from the record's root. */
  path: Array<string | number>
  token: string
  line: number
}

export const IMPORT_FORMATS = [
  'pairs',
  'tasks',
  'hypotheses',
  'frontierscience',
  'questions',
  'liveideabench',
  'omega-point',
  'labels',
  'citation-pairs',
  'preprints',
  'abstracts',
  'references',
  'generic'
] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

export function isImportFormat(s: string): s is ImportFormat {
  return (IMPORT_FORMATS as ReadonlyArray<string>).includes(s)
}

/** One record of a source file with the line (JSON, JSONL) or row (CSV, header = row 1) it starts on. */
export interface SourceRecord {
  line: number
  value: unknown
  /** Numbers whose text a double does not give back (`1.10`, `9007199254740993`, `1e400`), from JSON sources. */
  numbers?: SourceNumber[]
}

/** An item a parser wants written; validated against its kind's schema before anything is written. */
export interface ItemDraft {
  kind: ItemKind
  externalId: string
  payload: Record<string, unknown>
  line: number
  /** The file's own fields, stored under `$extra` as written (the generic import names them by its mapping). */
  extra?: Record<string, unknown>
  /** The field a duplicate id is reported against, where the file names it (the generic import's id column). */
  idField?: string
}

/** A label or judge output made elsewhere, already validated against its instrument. */
export interface AnnotationDraft {
  itemId: number
  itemExternalId: string
  instrumentId: string
  instrumentVersion: number
  sourceKind: 'human' | 'model' | 'reference'
  sourceName: string
  judgement: unknown
  display: Record<string, unknown>
  activeMs: number | null
  createdAt: string | null
  line: number
}

/** What a format parser hands back: everything to write, or the reasons not to. */
export interface ParsedImport {
  items: ItemDraft[]
  annotations: AnnotationDraft[]
  warnings: ErrorLocation[]
  errors: ErrorLocation[]
  /** Input records left out on purpose (e.g. a composed task marked unsuitable or leaking). */
  skipped: number
  /** Counts recomputed from the rows (label balance, tracks…), shown beside the result. */
  summary: Record<string, unknown>
  /** Curators' final labels (only a labels file carries them). */
  adjudications?: AdjudicationDraft[]
}

/** A curator's final label read from a labels file, validated against its instrument. */
export interface AdjudicationDraft {
  /** Kept from the file, so a re-import recognises it; null mints one. */
  id: string | null
  itemId: number
  instrumentId: string
  judgement: unknown
  reason: string
  curator: string
  basedOn: string[]
  createdAt: string | null
  line: number
}

/** What a parser may look up in the project; never writes. */
export interface ImportContext {
  /** Absolute path of the file being imported (for relative paths and messages). */
  path: string
  /** Name used in error locations. */
  file: string
  db: Db
  /** Accept invalid UTF-8 in files the import reads (Markdown by path), replaced and counted in `replaced`. */
  lossy?: boolean
  /** Invalid UTF-8 sequences replaced so far in such files (lossy imports only). */
  replaced?: { count: number }
  /** The file may refer to no other file (an upload): every path in it is refused. */
  selfContained?: boolean
  /** The generic import's columns. */
  mapping?: GenericMapping
}

export function emptyParsed(): ParsedImport {
  return { items: [], annotations: [], warnings: [], errors: [], skipped: 0, summary: {} }
}
