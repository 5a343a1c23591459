import { z } from 'zod'
import type { ItemPayload } from '../../items/kinds'
import { caseInsensitiveEnum, quoteFragmentsIn, YES_NO_KEYS } from '../common'
import { blindProposalPair } from '../proposal-view'
import { ITEM_COMMAND_KEYS } from '../screen-keys'
import type { AnyInstrument, FieldSpec, JudgementIssue, Observation, Widget } from '../types'
import type { Declaration, DeclaredField } from './declaration'
import { derivedPrompt, promptValues } from './prompt'
import { flawList, flawsIssues, flawsSchema, flawsSpecs, flawsValues, flawsWidget, onSide, swapFlawSides } from './flaws'

// A declaration turned into an Instrument: the same object every part of Assay uses for a built-in one (queues,
// forms, main's validation, judges' requests and parsing, the audit, adjudication, exports).

type Answer = Record<string, unknown>

/** Where the item's texts sit in the blinded view, for exact quotes. */
const QUOTE_SOURCES = { text: ['text'], pair: ['a.markdown', 'b.markdown'] } as const

/** Keys given to options the declaration leaves without one: never a command's (see ../screen-keys), nor l, n, x, y. */
function optionKeys(options: ReadonlyArray<{ value: string; key?: string | undefined }>): string[] {
  const taken = new Set<string>([...options.flatMap((o) => (o.key ? [o.key] : [])), ...ITEM_COMMAND_KEYS])
  const free = [...'123456789abcdefghijkmopqrstuvwz'].filter((k) => !taken.has(k))
  return options.map((o) => o.key ?? free.shift() ?? '')
}

function fieldSchema(shape: Declaration['item'], f: DeclaredField): z.ZodType {
  const maybe = (s: z.ZodType, absent: boolean) => (absent ? s.nullish() : s)
  const notAlways = f.optional === true || f.required_when !== undefined
  switch (f.kind) {
    case 'choice':
      return maybe(caseInsensitiveEnum(f.options.map((o) => o.value) as [string, ...string[]]), notAlways)
    case 'multi':
      return z.object(Object.fromEntries(f.options.map((o) => [o.value, z.boolean().default(false)]))).prefault({})
    case 'scale':
      return maybe(z.int().min(f.min).max(f.max), notAlways)
    case 'number': {
      // A probability's bounds are 0..1 unless the declaration narrows them: one bound each, so one message each.
      const probability = f.level === 'probability'
      const min = f.min ?? (probability ? 0 : undefined)
      const max = f.max ?? (probability ? 1 : undefined)
      let n = z.number()
      if (min !== undefined) n = n.min(probability ? Math.max(0, min) : min)
      if (max !== undefined) n = n.max(probability ? Math.min(1, max) : max)
      return maybe(n, notAlways)
    }
    case 'text':
      return notAlways ? z.string().nullish() : z.string()
    case 'quote':
      return f.many ? (notAlways ? z.array(z.string()).default([]) : z.array(z.string())) : notAlways ? z.string().nullish() : z.string()
    case 'flaws':
      return flawsSchema(shape, f)
    case 'per_side': {
      const one = z.object(Object.fromEntries(f.fields.map((g) => [g.name, fieldSchema(shape, g)])))
      return z.object({ a: one, b: one })
    }
  }
}

function judgementSchema(d: Declaration): z.ZodType<Answer> {
  return z.lazy(() => z.object(Object.fromEntries(d.fields.map((f) => [f.name, fieldSchema(d.item, f)])))) as unknown as z.ZodType<Answer>
}

function requiredWhen(f: DeclaredField) {
  const w = f.required_when
  return w ? { requiredWhen: { field: w.field, in: w.in, says: w.says ?? `required when ${w.field} is ${w.in.map(String).join(' or ')}` } } : {}
}

function widgetsOf(d: Declaration): Widget[] {
  return d.fields.flatMap((f) => fieldWidgets(d, f))
}

/** A field inside a per-side group, named by its path in the answer (`scores.a.novelty`) and labelled by its side. */
function onSideField<F extends DeclaredField>(group: { name: string }, side: 'a' | 'b', f: F): F {
  return { ...f, name: `${group.name}.${side}.${f.name}`, label: `${side === 'a' ? 'A (left)' : 'B (right)'} · ${f.label}` }
}

function fieldWidgets(d: Declaration, f: DeclaredField): Widget[] {
    switch (f.kind) {
      case 'choice': {
        const keys = optionKeys(f.options)
        const when = f.required_when
        return [{
          kind: 'choice',
          field: f.name,
          label: f.label,
          options: f.options.map((o, i) => ({ value: o.value, label: o.label, key: keys[i]! })),
          ...(f.optional || when ? { optional: true } : {}),
          ...(when ? { says: requiredWhen(f).requiredWhen!.says } : {})
        }]
      }
      case 'multi':
        // One yes/no per option, all "no" to begin with: ticking what applies.
        return f.options.map((o) => ({ kind: 'boolean', field: `${f.name}.${o.value}`, label: `${f.label}: ${o.label}`, ...YES_NO_KEYS }))
      case 'scale':
        return [{
          kind: 'scale',
          field: f.name,
          label: f.label,
          min: f.min,
          max: f.max,
          ...(f.points ? { anchors: Object.fromEntries(Object.entries(f.points).map(([k, v]) => [Number(k), v])) } : {})
        }]
      case 'number':
        return [{
          kind: 'number',
          field: f.name,
          label: f.label,
          ...(f.min !== undefined ? { min: f.min } : {}),
          ...(f.max !== undefined ? { max: f.max } : {}),
          ...(f.step !== undefined ? { step: f.step } : {}),
          ...(f.optional ? { nullable: true } : {}),
          ...requiredWhen(f)
        }]
      case 'text':
        return [{ kind: 'text', field: f.name, label: f.label, multiline: f.multiline ?? true, ...(f.optional ? { optional: true } : {}), ...requiredWhen(f) }]
      case 'quote':
        return [{
          kind: 'quote',
          field: f.name,
          label: f.label,
          source: QUOTE_SOURCES[d.item],
          ...(f.many ? { many: true } : {}),
          ...(f.optional ? { optional: true } : {}),
          ...requiredWhen(f)
        }]
      case 'flaws':
        return [flawsWidget(d.item, f, QUOTE_SOURCES[d.item])]
      case 'per_side':
        // The same questions for each proposal, as shown: A's first, then B's.
        return (['a', 'b'] as const).flatMap((side) => f.fields.flatMap((g) => fieldWidgets(d, onSideField(f, side, g))))
    }
}

/** The measurement level of each field, and the declared scale where there is one. */
function fieldSpecs(d: Declaration): FieldSpec[] {
  return d.fields.flatMap((f): FieldSpec[] => {
    switch (f.kind) {
      case 'choice':
        return [{ name: f.name, label: f.label, level: f.level ?? 'nominal', categories: f.options.map((o) => o.value) }]
      case 'multi':
        return f.options.map((o) => ({ name: `${f.name}.${o.value}`, label: `${f.label}: ${o.label}`, level: 'nominal' as const, categories: [false, true] }))
      case 'scale': {
        const categories = Array.from({ length: f.max - f.min + 1 }, (_, i) => f.min + i)
        return [{ name: f.name, label: f.label, level: f.level ?? 'ordinal', categories }]
      }
      case 'number':
        return [{ name: f.name, label: f.label, level: f.level ?? 'interval' }]
      case 'flaws':
        return flawsSpecs(f)
      case 'per_side':
        // Compared per side of the pair (units `<pair>:a`, `<pair>:b`), each question as its own field.
        return f.fields.flatMap((g) => fieldSpecs({ ...d, fields: [{ ...g, name: `${f.name}.${g.name}`, label: `${f.label}: ${g.label}` }] }))
      case 'text':
      case 'quote':
        return []
    }
  })
}

/** Shown beside the form: the declaration's rubric, then each field's help. */
function rubricOf(d: Declaration): string | undefined {
  const help = d.fields.filter((f) => f.help).map((f) => `- **${f.label}**: ${f.help}`)
  const parts = [d.rubric, help.length ? help.join('\n') : undefined].filter((p): p is string => !!p)
  return parts.length ? parts.join('\n\n') : undefined
}

function emptyAnswer(d: Declaration): Answer {
  return Object.fromEntries(
    d.fields.map((f) => {
      switch (f.kind) {
        case 'multi':
          return [f.name, Object.fromEntries(f.options.map((o) => [o.value, false]))]
        case 'text':
          return [f.name, '']
        case 'quote':
          return [f.name, f.many ? [] : '']
        case 'flaws':
          return [f.name, []]
        case 'per_side': {
          const one = emptyAnswer({ ...d, fields: f.fields })
          return [f.name, { a: one, b: { ...one } }]
        }
        default:
          return [f.name, null]
      }
    })
  )
}

/** An answer with the two sides exchanged: side-naming options swapped, side-to-side scales mirrored. */
function mirrorSides(d: Declaration, j: Answer, display: Record<string, unknown>): Answer {
  if (display.swapped !== true) return j
  const out = { ...j }
  for (const f of d.fields) {
    const v = j[f.name]
    if (f.kind === 'choice' && f.swap && typeof v === 'string') out[f.name] = f.swap[v] ?? v
    if (f.kind === 'scale' && f.mirror && typeof v === 'number') out[f.name] = f.min + f.max - v
    if (f.kind === 'flaws') out[f.name] = swapFlawSides(v)
    if (f.kind === 'per_side' && v !== null && typeof v === 'object') out[f.name] = { ...(v as Answer), a: (v as Answer).b, b: (v as Answer).a }
  }
  return out
}

/** Exact quotes must be found in what was shown. */
function quoteIssues(d: Declaration, j: Answer, texts: ReadonlyArray<string>): JudgementIssue[] {
  const issues: JudgementIssue[] = []
  for (const f of d.fields) {
    if (f.kind !== 'quote') continue
    const v = j[f.name]
    const quotes = Array.isArray(v) ? v.map((q, i) => [q, `${f.name}.${i}`] as const) : [[v, f.name] as const]
    for (const [q, path] of quotes) {
      if (typeof q === 'string' && q.trim() && !quoteFragmentsIn(texts, q)) issues.push({ path, message: 'This quote is not in the text shown.' })
    }
  }
  // A flaw's evidence is quoted from the text it is about: for a pair, the side it names (texts are A, then B).
  for (const f of d.fields) if (f.kind === 'flaws') issues.push(...flawsIssues(f, j, (side) => (side === 'b' ? texts[1] : texts[0]) ?? ''))
  return issues
}

/** A model's answer as the schema reads it: a multi choice may come as a list of the chosen values, numbers as text. */
function fromModel(d: Declaration, parsed: unknown): unknown {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed
  const out: Answer = { ...(parsed as Answer) }
  for (const f of d.fields) {
    const v = out[f.name]
    if (f.kind === 'multi' && Array.isArray(v)) out[f.name] = Object.fromEntries(f.options.map((o) => [o.value, v.some((x) => String(x).trim().toLowerCase() === o.value)]))
    if ((f.kind === 'scale' || f.kind === 'number') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) out[f.name] = Number(v)
    if (f.kind === 'per_side' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      // Sides named as shown, in any case ("A", "b").
      const sides = Object.fromEntries(Object.entries(v as Answer).map(([k, x]) => [k.trim().toLowerCase(), x]))
      out[f.name] = { a: fromModel({ ...d, fields: f.fields }, sides.a), b: fromModel({ ...d, fields: f.fields }, sides.b) }
    }
  }
  return out
}

/** A pair's flaws are observed per side, as the built-in flaw audit's are: `<pair>:a` and `<pair>:b`. */
function sideObservations(d: Declaration, j: Answer, pairId: string): Observation[] {
  const lists = d.fields.filter((f) => f.kind === 'flaws')
  const groups = d.fields.filter((f) => f.kind === 'per_side')
  if (!lists.length && !groups.length) return []
  return (['a', 'b'] as const).map((side) => {
    const values: Observation['values'] = Object.assign({}, ...lists.map((f) => flawsValues(f, onSide(flawList(j, f), side))))
    for (const f of groups) {
      const own = ((j[f.name] as Answer | undefined)?.[side] ?? {}) as Answer
      const seen = observed({ ...d, fields: f.fields }, own)
      for (const [name, v] of Object.entries(seen)) values[`${f.name}.${name}`] = v
    }
    return { unit: `${pairId}:${side}`, values }
  })
}

function observed(d: Declaration, j: Answer, pair = false): Record<string, string | number | boolean | null> {
  const values: Record<string, string | number | boolean | null> = {}
  for (const f of d.fields) {
    const v = j[f.name]
    if (f.kind === 'per_side') continue
    if (f.kind === 'flaws') {
      if (!pair) Object.assign(values, flawsValues(f, flawList(j, f)))
    } else if (f.kind === 'multi') {
      for (const o of f.options) values[`${f.name}.${o.value}`] = (v as Record<string, unknown> | undefined)?.[o.value] === true
    } else if (f.kind === 'choice' || f.kind === 'scale' || f.kind === 'number') {
      values[f.name] = typeof v === 'string' || typeof v === 'number' ? v : null
    }
  }
  return values
}

export interface DeclaredInstrumentInfo {
  declaration: Declaration
  /** The declaration's version in this project (1 for the first, raised by every changed declaration). */
  version: number
}

/** A declared instrument: a built-in one in every respect but where it comes from. */
export function buildInstrument(declaration: Declaration, version: number): AnyInstrument {
  const d = declaration
  const prompt = d.prompt ?? derivedPrompt(d)
  const base = {
    id: d.id,
    version,
    title: d.title,
    description: d.description ?? d.title,
    judgement: judgementSchema(d),
    fields: fieldSpecs(d),
    form: {
      ...(rubricOf(d) ? { rubric: rubricOf(d) } : {}),
      widgets: widgetsOf(d),
      empty: () => emptyAnswer(d)
    },
    templates: [d.id],
    toCanonical: (j: Answer, display: Record<string, unknown>) => mirrorSides(d, j, display),
    toDisplay: (j: Answer, display: Record<string, unknown>) => mirrorSides(d, j, display),
    fromModelAnswer: (parsed: unknown) => fromModel(d, parsed),
    declared: {
      declaration: d,
      prompt,
      values: (view: Record<string, unknown>) => promptValues(d, view),
      checkView: (j: Answer, view: Record<string, unknown>) =>
        quoteIssues(d, j, d.item === 'text' ? [typeof view.text === 'string' ? view.text : ''] : [markdownOf(view.a), markdownOf(view.b)])
    }
  }
  if (d.item === 'pair') {
    return {
      ...base,
      itemKind: 'proposal-pair',
      blind: blindProposalPair,
      check: (j: Answer, payload: ItemPayload<'proposal-pair'>) => quoteIssues(d, j, [payload.a.markdown, payload.b.markdown]),
      observe: (j: Answer, payload: ItemPayload<'proposal-pair'>): Observation[] => {
        // A pair whose only fields are flaw lists is observed per side alone.
        const values = observed(d, j, true)
        const pair = Object.keys(values).length || !d.fields.some((f) => f.kind === 'flaws' || f.kind === 'per_side') ? [{ unit: payload.pair_id, values }] : []
        return [...pair, ...sideObservations(d, j, payload.pair_id)]
      }
    }
  }
  return {
    ...base,
    itemKind: 'idea',
    blind: (payload: ItemPayload<'idea'>) => ({ view: { text: payload.idea }, display: {} }),
    check: (j: Answer, payload: ItemPayload<'idea'>) => quoteIssues(d, j, [payload.idea]),
    observe: (j: Answer): Observation[] => [{ unit: 'item', values: observed(d, j) }]
  }
}

function markdownOf(side: unknown): string {
  const m = (side as { markdown?: unknown } | null)?.markdown
  return typeof m === 'string' ? m : ''
}
