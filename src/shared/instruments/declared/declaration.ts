import { z } from 'zod'
import { INSTRUMENT_IDS } from '../types'

// A project's own instrument, as its curators write it in a file (JSON or YAML): the item shape it is asked about
// and its fields. The same declaration gives the form, the judgement schema, the judge's prompt and the statistics'
// measurement levels (build.ts), so a declared instrument is used exactly like a built-in one.

const NAME = /^[a-z][a-z0-9_]*$/
const nameSchema = z.string().regex(NAME, 'a name is lower_snake_case (a-z, 0-9, _), starting with a letter')
const keySchema = z.string().regex(/^[a-z0-9]$/, 'a key is one lower-case letter or digit')

/** What a declared instrument is asked about: one text (`idea` items) or an A/B pair in a blind side order. */
export const DECLARED_ITEM_SHAPES = ['text', 'pair'] as const
export type DeclaredItemShape = (typeof DECLARED_ITEM_SHAPES)[number]

/** The values a prompt template may name as `{{name}}`, per item shape. */
export const PROMPT_VALUES: Record<DeclaredItemShape, readonly string[]> = {
  text: ['text', 'fields', 'rubric', 'title'],
  pair: ['a', 'b', 'topic', 'fields', 'rubric', 'title']
}

const optionSchema = z
  .object({ value: nameSchema, label: z.string().trim().min(1), key: keySchema.optional() })
  .strict()

const requiredWhenSchema = z
  .object({
    field: nameSchema,
    in: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1),
    says: z.string().trim().min(1).optional()
  })
  .strict()

const common = {
  name: nameSchema,
  label: z.string().trim().min(1),
  /** Shown with the rubric beside the form, and given to judges with the field. */
  help: z.string().trim().min(1).optional(),
  optional: z.boolean().optional(),
  required_when: requiredWhenSchema.optional()
}

const choiceField = z
  .object({
    ...common,
    kind: z.literal('choice'),
    options: z.array(optionSchema).min(2),
    /** Ordinal when the options are in order (worst to best); nominal by default. */
    level: z.enum(['nominal', 'ordinal']).optional(),
    /** For pairs: options that name a side, exchanged when the sides are shown the other way round (a_better: b_better). */
    swap: z.record(nameSchema, nameSchema).optional()
  })
  .strict()

const multiField = z
  .object({ ...common, kind: z.literal('multi'), options: z.array(optionSchema).min(1) })
  .strict()

const scaleField = z
  .object({
    ...common,
    kind: z.literal('scale'),
    min: z.int(),
    max: z.int(),
    /** Labelled points: the scale's anchors ("1": "not novel at all"). */
    points: z.record(z.string().regex(/^-?\d+$/, 'a point is a whole number'), z.string().trim().min(1)).optional(),
    level: z.enum(['ordinal', 'interval']).optional(),
    /** For pairs: the scale runs from one side to the other (prefer A ... prefer B) and is mirrored with the sides. */
    mirror: z.boolean().optional()
  })
  .strict()

const numberField = z
  .object({
    ...common,
    kind: z.literal('number'),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    level: z.enum(['interval', 'ratio', 'probability']).optional()
  })
  .strict()

const textField = z.object({ ...common, kind: z.literal('text'), multiline: z.boolean().optional() }).strict()

const quoteField = z
  .object({ ...common, kind: z.literal('quote'), /** Several quotes rather than one. */ many: z.boolean().optional() })
  .strict()

/** Least to most severe, when a flaw list names no severities. */
export const DEFAULT_SEVERITIES = [
  { value: 'minor', label: 'Minor' },
  { value: 'major', label: 'Major' },
  { value: 'fatal', label: 'Fatal' }
] as const

/** A list of flaws, each of a declared type and severity, its evidence quoted from the item (from one side of a pair). */
const flawsField = z
  .object({
    ...common,
    kind: z.literal('flaws'),
    types: z.array(optionSchema).min(1),
    /** Least to most severe (default: minor, major, fatal). */
    severities: z.array(optionSchema).min(2).optional(),
    /** Whether each flaw must quote its evidence (default: required). */
    evidence: z.enum(['required', 'optional']).optional()
  })
  .strict()
export type FlawsField = z.infer<typeof flawsField>

/** The same questions asked of each proposal of a pair (a per-unit repeat, the units being the two sides). */
const perSideField = z
  .object({ ...common, kind: z.literal('per_side'), fields: z.array(z.discriminatedUnion('kind', [choiceField, scaleField, numberField, textField])).min(1) })
  .strict()
export type PerSideField = z.infer<typeof perSideField>

export const declaredFieldSchema = z.discriminatedUnion('kind', [choiceField, multiField, scaleField, numberField, textField, quoteField, flawsField, perSideField])
export type DeclaredField = z.infer<typeof declaredFieldSchema>
export type DeclaredFieldKind = DeclaredField['kind']

const promptSchema = z
  .object({ system: z.string().trim().min(1).optional(), user: z.string().trim().min(1) })
  .strict()

const BUILT_IN = new Set<string>(INSTRUMENT_IDS)

export const declarationSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'an instrument id is kebab-case (a-z, 0-9, -), starting with a letter')
      .max(64)
      .refine((id) => !BUILT_IN.has(id) && id !== 'generation', { message: 'this id is a built-in instrument; choose another' }),
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().min(1).max(2000).optional(),
    item: z.enum(DECLARED_ITEM_SHAPES),
    /** Markdown shown beside the form and given to judges. */
    rubric: z.string().trim().min(1).optional(),
    fields: z.array(declaredFieldSchema).min(1),
    /** A prompt of the team's own; without it the prompt is derived from the fields. */
    prompt: promptSchema.optional()
  })
  .strict()
  .superRefine((d, ctx) => {
    const names = new Map<string, DeclaredField>()
    d.fields.forEach((f, i) => {
      if (names.has(f.name)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'name'], message: `the field "${f.name}" is declared twice` })
      else names.set(f.name, f)
    })
    d.fields.forEach((f, i) => checkField(d.item, f, names, (path, message) => ctx.addIssue({ code: 'custom', path: ['fields', i, ...path], message })))
    if (d.prompt) {
      const allowed = PROMPT_VALUES[d.item]
      for (const part of ['system', 'user'] as const) {
        for (const m of (d.prompt[part] ?? '').matchAll(/\{\{([^}]*)\}\}/g)) {
          if (!allowed.includes(m[1]!)) {
            ctx.addIssue({ code: 'custom', path: ['prompt', part], message: `{{${m[1]}}} is not a value of a ${d.item} item (known: ${allowed.join(', ')})` })
          }
        }
      }
      const shown = d.item === 'text' ? ['text'] : ['a', 'b']
      const text = `${d.prompt.system ?? ''}\n${d.prompt.user}`
      for (const v of shown) {
        if (!text.includes(`{{${v}}}`)) ctx.addIssue({ code: 'custom', path: ['prompt', 'user'], message: `the prompt never shows the item: {{${v}}} is missing` })
      }
    }
  })
export type Declaration = z.infer<typeof declarationSchema>

type Report = (path: ReadonlyArray<string | number>, message: string) => void

/** Options of one list: each value and key once, at most 30. */
function checkOptions(options: ReadonlyArray<{ value: string; key?: string | undefined }>, at: string, report: Report): Set<string> {
  const values = new Set<string>()
  const keys = new Set<string>()
  options.forEach((o, i) => {
    if (values.has(o.value)) report([at, i, 'value'], `the option "${o.value}" is listed twice`)
    if (o.key !== undefined && keys.has(o.key)) report([at, i, 'key'], `the key "${o.key}" is taken by another option`)
    values.add(o.value)
    if (o.key !== undefined) keys.add(o.key)
  })
  if (options.length > 30) report([at], 'at most 30 options')
  return values
}

function checkField(shape: DeclaredItemShape, f: DeclaredField, names: Map<string, DeclaredField>, report: Report): void {
  if (f.kind === 'per_side') {
    if (shape !== 'pair') report(['kind'], 'only a pair has sides to ask about')
    if (f.optional || f.required_when) report([f.optional ? 'optional' : 'required_when'], 'a per-side group is answered for both sides; its own fields say what is optional')
    const inner = new Map<string, DeclaredField>()
    f.fields.forEach((g, i) => {
      const at = (path: ReadonlyArray<string | number>, message: string) => report(['fields', i, ...path], message)
      if (inner.has(g.name)) at(['name'], `the field "${g.name}" is declared twice`)
      else inner.set(g.name, g)
      // Inside a side, nothing names a side, and a condition would have to say which side it reads.
      if (g.required_when) at(['required_when'], 'a field asked of each side cannot depend on another field')
      if (g.kind === 'choice' && g.swap) at(['swap'], 'a field asked of each side names no side')
      if (g.kind === 'scale' && g.mirror) at(['mirror'], 'a field asked of each side runs along no side')
      checkField(shape, { ...g, ...(g.kind === 'choice' ? { swap: undefined } : {}), ...(g.kind === 'scale' ? { mirror: undefined } : {}), required_when: undefined }, inner, at)
    })
    return
  }
  if (f.kind === 'flaws') {
    checkOptions(f.types, 'types', report)
    const severities = f.severities ?? DEFAULT_SEVERITIES
    if (f.severities) checkOptions(f.severities, 'severities', report)
    // The statistics name a type beside the worst severity and the gravest one found.
    const gravest = `has_${severities[severities.length - 1]!.value}`
    f.types.forEach((t, i) => {
      if (t.value === 'worst' || t.value === gravest) report(['types', i, 'value'], `"${t.value}" names a statistic of the list; call the type otherwise`)
    })
    if (f.optional || f.required_when) report([f.optional ? 'optional' : 'required_when'], 'a list of flaws may be empty (nothing found); it is neither optional nor required when')
  }
  if (f.kind === 'choice' || f.kind === 'multi') {
    const values = checkOptions(f.options, 'options', report)
    if (f.kind === 'choice' && f.swap) {
      if (shape !== 'pair') report(['swap'], 'only a pair has sides to swap')
      for (const [from, to] of Object.entries(f.swap)) {
        if (!values.has(from)) report(['swap', from], `"${from}" is not an option`)
        else if (!values.has(to)) report(['swap', from], `"${to}" is not an option`)
        else if (f.swap[to] !== from) report(['swap', from], `swapping is mutual: "${to}" must swap back to "${from}"`)
      }
    }
  }
  if (f.kind === 'scale') {
    if (f.max <= f.min) report(['max'], 'max must be above min')
    else if (f.max - f.min > 100) report(['max'], 'a scale has at most 101 points')
    for (const p of Object.keys(f.points ?? {})) {
      const n = Number(p)
      if (n < f.min || n > f.max) report(['points', p], `the point ${p} is outside ${f.min}..${f.max}`)
    }
    if (f.mirror && shape !== 'pair') report(['mirror'], 'only a pair has sides to mirror')
  }
  if (f.kind === 'number') {
    if (f.min !== undefined && f.max !== undefined && f.max <= f.min) report(['max'], 'max must be above min')
    if (f.level === 'probability' && ((f.min ?? 0) < 0 || (f.max ?? 1) > 1)) report(['level'], 'a probability lies in 0..1')
  }
  if (f.required_when) {
    const w = f.required_when
    const other = names.get(w.field)
    if (!other) report(['required_when', 'field'], `no field "${w.field}"`)
    else if (other === f) report(['required_when', 'field'], 'a field cannot depend on itself')
    else if (other.kind === 'choice') {
      w.in.forEach((v, i) => {
        if (!other.options.some((o) => o.value === v)) report(['required_when', 'in', i], `"${String(v)}" is not an option of ${other.name}`)
      })
    } else if (other.kind !== 'scale') report(['required_when', 'field'], `a condition is on a choice or a scale, not on a ${other.kind}`)
    if (f.optional) report(['required_when'], 'a field is optional or required when, not both')
  }
}
