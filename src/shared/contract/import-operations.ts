import { z } from 'zod'
import { errorLocationSchema } from '../errors'
import { splitSchema } from '../items/kinds'
import { op } from './define'

export const IMPORT_FORMAT_NAMES = ['pairs', 'tasks', 'hypotheses', 'frontierscience', 'questions', 'liveideabench', 'omega-point', 'labels', 'citation-pairs'] as const

const importInput = z
  .object({
    path: z.string().min(1).max(4096),
    /** Omitted: detected from the file name and first lines. */
    format: z.enum(IMPORT_FORMAT_NAMES).optional(),
    set: z.string().min(1).max(200).optional(),
    split: splitSchema.optional()
  })
  .strict()

export const importReportSchema = z.object({
  format: z.enum(IMPORT_FORMAT_NAMES),
  detected: z.boolean(),
  dryRun: z.boolean(),
  imported: z.number().int(),
  skipped: z.number().int(),
  items: z.number().int(),
  labels: z.number().int(),
  set: z.string(),
  split: splitSchema,
  warnings: z.array(errorLocationSchema),
  errors: z.array(errorLocationSchema),
  preview: z.array(z.object({ kind: z.string(), external_id: z.string(), title: z.string() })),
  summary: z.record(z.string(), z.unknown()),
  /** The first record's fields and what each becomes. */
  mapping: z.array(z.object({ field: z.string(), to: z.string() }))
})
export type ImportReportView = z.infer<typeof importReportSchema>

/** Imports from a path on this machine (main reads it; the browser never uploads project data anywhere). */
export const importOperations = {
  'import.preview': op({ input: importInput, output: importReportSchema, access: 'curator', summary: 'Detect, parse and validate a file; write nothing' }),
  'import.run': op({ input: importInput, output: importReportSchema, access: 'curator', summary: 'Import a file, all or nothing' })
} as const
