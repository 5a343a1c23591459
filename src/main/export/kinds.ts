/** What `export` can write; kept apart from the exporters so the command line can describe it without loading them. */
export const EXPORT_KINDS = ['labels', 'judgements'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]
