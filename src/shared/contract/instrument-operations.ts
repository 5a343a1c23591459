import { z } from 'zod'
import { op } from './define'
import { errorLocationSchema } from '../errors'

// The project's declared instruments, for every window: forms, queues and reports are drawn from the same
// declarations main uses. The declaration is checked again where it is built (declarationSchema).

export const declaredInstrumentSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  hash: z.string(),
  createdAt: z.string(),
  declaration: z.record(z.string(), z.unknown())
})
export type DeclaredInstrumentEntry = z.infer<typeof declaredInstrumentSchema>

/** A declaration as text (JSON or YAML) and the file name its problems are reported under. */
const declarationText = z.object({ text: z.string().max(200_000), file: z.string().max(200).optional() }).strict()

const previewItem = z.object({ id: z.number().int(), externalId: z.string(), title: z.string() })

export const instrumentOperations = {
  'instruments.list': op({
    input: z.object({}).strict(),
    output: z.object({ instruments: z.array(declaredInstrumentSchema) }),
    access: 'any',
    summary: 'The instruments the project declared, newest version of each, with their declarations'
  }),
  'instruments.check': op({
    input: declarationText,
    output: z.object({
      ok: z.boolean(),
      problems: z.array(errorLocationSchema),
      declaration: z.record(z.string(), z.unknown()).nullable(),
      /** What adding it would do: a new instrument, a new version, or nothing. */
      adding: z.enum(['new', 'new-version', 'unchanged']).nullable()
    }),
    access: 'curator',
    summary: 'Check a declaration (JSON or YAML text) without writing: its problems by line and field, or the declaration read'
  }),
  'instruments.add': op({
    input: declarationText,
    output: z.object({ status: z.enum(['added', 'unchanged']), id: z.string(), version: z.number().int().positive(), hash: z.string() }),
    access: 'curator',
    summary: 'Add a declaration: refused with its problems by line and field; the same again changes nothing, a changed one is the next version'
  }),
  'instruments.preview': op({
    input: z.object({ instrument: z.string().min(1).max(100), itemId: z.number().int().positive().optional(), answer: z.unknown().optional() }).strict(),
    output: z.object({
      items: z.array(previewItem),
      itemsTotal: z.number().int(),
      item: previewItem.nullable(),
      view: z.record(z.string(), z.unknown()).nullable(),
      viewProblem: z.string().nullable(),
      request: z.object({ template: z.string(), system: z.string().nullable(), user: z.string() }).nullable(),
      requestProblem: z.string().nullable(),
      check: z.object({ ok: z.boolean(), issues: z.array(z.object({ field: z.string(), message: z.string() })), canonical: z.unknown() }).nullable()
    }),
    access: 'curator',
    summary: 'Try an instrument on one item before use: its blinded view, an answer checked as a submission is, and the request a judge would be sent (nothing is written)'
  }),
  'instruments.versions': op({
    input: z.object({ id: z.string().max(200).optional() }).strict(),
    output: z.object({ versions: z.array(declaredInstrumentSchema.extend({ title: z.string(), item: z.string() })) }),
    access: 'any',
    summary: 'Every stored version of the declared instruments (or of one), oldest first, with their declarations'
  })
} as const
