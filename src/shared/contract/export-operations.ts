import { z } from 'zod'
import { op } from './define'
import { instrumentIdSchema } from './annotation-schemas'
import { splitSchema } from '../items/kinds'

// Exports: labels and judge outputs as a table with a dataset card beside it, and the sets people train judges with
// (a folder of JSONL per split with a Hugging Face dataset card). Main writes the files; an existing file is replaced
// only when asked, and never an SQLite file or the project itself.

/** What the table export writes: people's answers (and final labels), or finished model calls. */
export const EXPORT_KINDS = ['labels', 'judgements'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

/** Sets people train judges with: a folder of JSONL per split with a Hugging Face dataset card. */
export const TRAINING_EXPORT_KINDS = ['preferences', 'finetune'] as const
export type TrainingExportKind = (typeof TRAINING_EXPORT_KINDS)[number]

const pathSchema = z.string().trim().min(1).max(4096)
const filter = {
  set: z.string().min(1).max(200).optional(),
  split: splitSchema.optional(),
  instrument: instrumentIdSchema.optional()
}

export const exportTableInputSchema = z
  .object({
    what: z.enum(EXPORT_KINDS),
    /** The file to write; the card goes beside it as <name>.card.md. */
    out: pathSchema,
    /** Default: csv when `out` ends in .csv, else jsonl. */
    format: z.enum(['jsonl', 'csv']).optional(),
    ...filter,
    /** Annotators as pseudonyms (A01, …) instead of names. */
    pseudonymise: z.boolean().optional(),
    overwrite: z.boolean().optional(),
    /** CSV cells starting with = + - @ tab or CR written verbatim instead of escaped. */
    rawCells: z.boolean().optional()
  })
  .strict()

export const exportTableResultSchema = z.object({
  what: z.enum(EXPORT_KINDS),
  path: z.string(),
  cardPath: z.string(),
  format: z.enum(['jsonl', 'csv']),
  /** Answers or model calls written. */
  rows: z.number().int(),
  /** Final labels written beside the answers (labels only). */
  finals: z.number().int(),
  items: z.number().int()
})

export const exportTrainingInputSchema = z
  .object({
    what: z.enum(TRAINING_EXPORT_KINDS),
    /** A folder: one JSONL per split and a README.md dataset card. */
    out: pathSchema,
    ...filter,
    /** The license named in the card (a Hugging Face license id; default `other`). */
    license: z.string().min(1).max(100).optional(),
    overwrite: z.boolean().optional()
  })
  .strict()

export const exportTrainingResultSchema = z.object({
  what: z.enum(TRAINING_EXPORT_KINDS),
  dir: z.string(),
  card: z.string(),
  files: z.array(z.object({ split: z.string(), path: z.string(), rows: z.number().int() })),
  rows: z.number().int(),
  excluded: z.object({ ties: z.number().int(), abstentions: z.number().int(), unrenderable: z.number().int(), noWholeAnswer: z.number().int() })
})

/** Operations of exports (merged into the one contract in operations.ts). */
export const exportOperations = {
  'export.table': op({
    input: exportTableInputSchema,
    output: exportTableResultSchema,
    access: 'curator',
    summary: 'Write labels or judge outputs (JSONL or CSV) with a dataset card; test items written are logged as exposed'
  }),
  'export.training': op({
    input: exportTrainingInputSchema,
    output: exportTrainingResultSchema,
    access: 'curator',
    summary: 'Write a preference or fine-tuning set: one JSONL per split and a dataset card'
  })
} as const
