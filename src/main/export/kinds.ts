/** What `export` can write; kept apart from the exporters so the command line can describe it without loading them. */
export const EXPORT_KINDS = ['labels', 'judgements'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

/** Sets people train judges with: a folder of JSONL per split with a Hugging Face dataset card (see ./training). */
export const TRAINING_EXPORT_KINDS = ['preferences', 'finetune'] as const
export type TrainingExportKind = (typeof TRAINING_EXPORT_KINDS)[number]
