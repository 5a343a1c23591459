import { z } from 'zod'
import { INSTRUMENT_IDS } from '../instruments/types'
import { BadDataError } from '../errors'

// The manifest of the built-in prompt templates (resources/templates/index.json). A placeholder is declared with the
// exact token that stands for it in the text: the sources' own tokens ("[BACKGROUND]", "{problem}", or a whole
// example block such as "- [KEY POINT 1]\n- [KEY POINT 2]"), "{{name}}" where a template has no source. Keeping the
// sources' tokens keeps every file identical to the text it was copied from.

/** Every instrument's templates, and the generation schemes' (which belong to no instrument). */
export const TEMPLATE_INSTRUMENTS = [...INSTRUMENT_IDS, 'generation'] as const
export type TemplateInstrument = (typeof TEMPLATE_INSTRUMENTS)[number]

/**
 * How an answer is written: `json` only a JSON object; `json-block` a JSON object after free text (the LiveIdeaBench
 * reviewer); `verdict-line` a last line `VERDICT: ...`; `letter` one letter; `text` free text (early generation stages).
 */
export const ANSWER_FORMATS = ['json', 'json-block', 'verdict-line', 'letter', 'text'] as const
export type AnswerFormat = (typeof ANSWER_FORMATS)[number]

export const TEMPLATE_KINDS = ['request', 'fragment'] as const
export type TemplateKind = (typeof TEMPLATE_KINDS)[number]

export const REQUEST_PARTS = ['system', 'user'] as const
export type RequestPart = (typeof REQUEST_PARTS)[number]

const ASSAY_TOKEN = /^\{\{([a-z][a-z0-9_]*)\}\}$/

export const placeholderSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'a placeholder name is lower_snake_case'),
    token: z.string().min(1),
    description: z.string().min(1)
  })
  .strict()
  .superRefine((p, ctx) => {
    const inner = ASSAY_TOKEN.exec(p.token)?.[1]
    if (inner !== undefined && inner !== p.name) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: `token ${p.token} names another placeholder than ${p.name}` })
    }
  })
export type Placeholder = z.infer<typeof placeholderSchema>

const filePathSchema = z
  .string()
  .regex(/^[a-z0-9-]+(?:\/[a-z0-9.-]+)*\.txt$/, 'a template file is a relative lower-case path ending in .txt')
  .refine((p) => !p.split('/').includes('..'), 'a template file stays inside the templates folder')

export const templateEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a template id is kebab-case'),
    version: z.number().int().positive(),
    kind: z.enum(TEMPLATE_KINDS),
    instrument: z.enum(TEMPLATE_INSTRUMENTS),
    /** null where the format is given by an inserted fragment (the stage requests) or does not apply. */
    answerFormat: z.enum(ANSWER_FORMATS).nullable(),
    /** Whether the Grok text is appended for Grok models (the source lists the requests that took it). */
    grokSuffix: z.boolean(),
    placeholders: z.array(placeholderSchema),
    /** Seed file and section the text was copied from; seed null for Assay's own templates. */
    source: z.object({ seed: z.string().min(1).nullable(), section: z.string().min(1) }).strict(),
    /**
     * Present on templates derived, not quoted: the source describes them by a rule applied to templates it quotes
     * (`from`, as id@version), and the derivation is a tested function (`rule` names it).
     */
    derived: z.object({ from: z.array(z.string().regex(/^[a-z0-9-]+@[0-9]+$/)).min(1), rule: z.string().min(1) }).strict().optional(),
    /** Part name -> file, relative to the templates folder. Requests have `user` and may have `system`. */
    files: z.record(z.string().regex(/^[a-z0-9-]+$/), filePathSchema),
    note: z.string().min(1).optional()
  })
  .strict()
  .superRefine((e, ctx) => {
    const parts = Object.keys(e.files)
    if (parts.length === 0) ctx.addIssue({ code: 'custom', path: ['files'], message: 'a template has at least one file' })
    if (e.kind === 'request') {
      if (!('user' in e.files)) ctx.addIssue({ code: 'custom', path: ['files'], message: 'a request has a user file' })
      for (const part of parts) {
        if (!(REQUEST_PARTS as readonly string[]).includes(part)) {
          ctx.addIssue({ code: 'custom', path: ['files', part], message: 'a request has only system and user files' })
        }
      }
    }
    const names = new Set<string>()
    const tokens = new Set<string>()
    e.placeholders.forEach((p, i) => {
      if (names.has(p.name)) ctx.addIssue({ code: 'custom', path: ['placeholders', i, 'name'], message: `duplicate name ${p.name}` })
      if (tokens.has(p.token)) ctx.addIssue({ code: 'custom', path: ['placeholders', i, 'token'], message: `duplicate token ${p.token}` })
      names.add(p.name)
      tokens.add(p.token)
    })
    // One token inside another would make the substitution depend on the order of the alternatives.
    for (const [i, p] of e.placeholders.entries()) {
      for (const q of e.placeholders) {
        if (p !== q && q.token.includes(p.token)) {
          ctx.addIssue({
            code: 'custom',
            path: ['placeholders', i, 'token'],
            message: `token of ${p.name} occurs inside the token of ${q.name}`
          })
        }
      }
    }
    if (e.derived !== undefined && e.source.seed === null) {
      ctx.addIssue({ code: 'custom', path: ['derived'], message: 'a derived template names the seed whose rule it follows' })
    }
    if (e.source.seed === null && e.note === undefined) {
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'a template without a source says what it is in a note' })
    }
  })
export type TemplateEntry = z.infer<typeof templateEntrySchema>

export const templateManifestSchema = z
  .object({
    schemaVersion: z.literal(1),
    templates: z.array(templateEntrySchema)
  })
  .strict()
  .superRefine((m, ctx) => {
    const seen = new Set<string>()
    m.templates.forEach((t, i) => {
      const ref = templateRef(t)
      if (seen.has(ref)) ctx.addIssue({ code: 'custom', path: ['templates', i], message: `duplicate template ${ref}` })
      seen.add(ref)
    })
  })
export type TemplateManifest = z.infer<typeof templateManifestSchema>

/** `id@version`, the name a stored judgement records. */
export function templateRef(t: { id: string; version: number }): string {
  return `${t.id}@${t.version}`
}

export class TemplateManifestError extends BadDataError {
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(`invalid template manifest:\n  ${problems.join('\n  ')}`)
    this.name = 'TemplateManifestError'
    this.problems = problems
  }
}

/** Validates parsed JSON as the manifest; throws TemplateManifestError with one line per problem. */
export function parseTemplateManifest(input: unknown): TemplateManifest {
  const result = templateManifestSchema.safeParse(input)
  if (result.success) return result.data
  throw new TemplateManifestError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`))
}

/** Parses the manifest's JSON text. */
export function parseTemplateManifestJson(text: string): TemplateManifest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new TemplateManifestError([`not JSON: ${(err as Error).message}`])
  }
  return parseTemplateManifest(json)
}
