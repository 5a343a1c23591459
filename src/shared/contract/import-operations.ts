import { z } from 'zod'
import { errorLocationSchema } from '../errors'
import { genericMappingSchema, type GenericMapping } from '../items/generic-mapping'
import { splitSchema } from '../items/kinds'
import type { Split } from '../items/labels'
import { op } from './define'

export const IMPORT_FORMAT_NAMES = ['pairs', 'tasks', 'hypotheses', 'frontierscience', 'questions', 'liveideabench', 'omega-point', 'labels', 'citation-pairs', 'preprints', 'abstracts', 'references', 'generic'] as const

const importInput = z
  .object({
    path: z.string().min(1).max(4096),
    /** Omitted: detected from the file name and first lines. */
    format: z.enum(IMPORT_FORMAT_NAMES).optional(),
    set: z.string().min(1).max(200).optional(),
    split: splitSchema.optional(),
    /** Accept invalid UTF-8, each invalid sequence replaced by U+FFFD and counted (refused otherwise). */
    lossy: z.boolean().optional(),
    /** Leave out, counted, items whose id the project already has, instead of refusing the file. */
    skipExisting: z.boolean().optional(),
    /** The generic format's columns (only with format `generic`, which needs it). */
    mapping: genericMappingSchema.optional()
  })
  .strict()

export type ImportFormatName = (typeof IMPORT_FORMAT_NAMES)[number]

/** An import's options as a front door collects them: `assay import`'s flags, the import screen's form. */
export interface ImportChoices {
  /** Omitted (or `auto`): detected from the file name and first lines. */
  format?: ImportFormatName | undefined
  set?: string | undefined
  split?: Split | undefined
  lossy?: boolean | undefined
  skipExisting?: boolean | undefined
  /** Read only with the generic format, and sent only with it. */
  mapping?: GenericMapping | undefined
}

/**
 * The one mapping from an import's options to the input of the `import.*` operations (its file's path or bytes
 * added by the caller): a blank set is the file's name, switches are sent only when on, the column mapping only with
 * the generic format, so an option means the same from the command line and from the import screen.
 */
export function importOptionsInput(c: ImportChoices) {
  const set = c.set?.trim()
  return {
    ...(c.format ? { format: c.format } : {}),
    ...(set ? { set } : {}),
    ...(c.split ? { split: c.split } : {}),
    ...(c.lossy ? { lossy: true } : {}),
    ...(c.skipExisting ? { skipExisting: true } : {}),
    ...(c.format === 'generic' && c.mapping ? { mapping: c.mapping } : {})
  }
}

/** The largest uploaded file (bytes); bigger files are imported by path or with `assay import`. */
export const MAX_UPLOAD_BYTES = 5_000_000
/** Base64 of MAX_UPLOAD_BYTES: four characters for every three bytes. */
const MAX_UPLOAD_BASE64 = 4 * Math.ceil(MAX_UPLOAD_BYTES / 3)
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

const uploadInput = z
  .object({
    /** The file's own name (no folders): it names the set by default and the file in every error. */
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((n) => !n.includes('/') && !n.includes('\\') && !n.includes('\0') && n !== '.' && n !== '..', 'a file name without folders'),
    /**
     * The file's bytes, base64: the server decodes them exactly as `assay import` reads a file (invalid UTF-8 refused
     * with its line and byte offset, or replaced and counted with `lossy`), not as the page's text would be.
     */
    bytes: z
      .string()
      .max(MAX_UPLOAD_BASE64, `files over ${MAX_UPLOAD_BYTES.toLocaleString('en')} bytes are imported by path or with assay import`)
      .refine((b) => b.length % 4 === 0 && BASE64.test(b), 'base64 of the file'),
    format: z.enum(IMPORT_FORMAT_NAMES).optional(),
    set: z.string().min(1).max(200).optional(),
    split: splitSchema.optional(),
    /** As for a path: accept invalid UTF-8, each invalid sequence replaced by U+FFFD and counted. */
    lossy: z.boolean().optional(),
    skipExisting: z.boolean().optional(),
    /** The generic format's columns (only with format `generic`, which needs it). */
    mapping: genericMappingSchema.optional()
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

/**
 * Imports from a path on this machine, or from a file's content sent by the page (browser mode: the workbench server
 * runs on this machine too; nothing goes anywhere else). Both go through the same all-or-nothing pipeline.
 */
export const importOperations = {
  'import.preview': op({ input: importInput, output: importReportSchema, access: 'curator', summary: 'Detect, parse and validate a file; write nothing' }),
  'import.run': op({ input: importInput, output: importReportSchema, access: 'curator', summary: 'Import a file, all or nothing' }),
  'import.previewUpload': op({
    input: uploadInput,
    output: importReportSchema,
    access: 'curator',
    summary: "Detect, parse and validate an uploaded file's content; write nothing"
  }),
  'import.runUpload': op({ input: uploadInput, output: importReportSchema, access: 'curator', summary: "Import an uploaded file's content, all or nothing" }),
  'import.chooseFile': op({
    input: z.object({}).strict(),
    output: z.object({ available: z.boolean(), path: z.string().nullable() }),
    access: 'curator',
    summary: "Ask for a file with the desktop app's open dialog (not available in browser mode)"
  })
} as const
