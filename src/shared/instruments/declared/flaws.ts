import { z } from 'zod'
import { caseInsensitiveEnum, quoteFragmentsIn, SIDE_KEYS } from '../common'
import type { FieldSpec, JudgementIssue, Widget } from '../types'
import { DEFAULT_SEVERITIES, type DeclaredItemShape, type FlawsField } from './declaration'

// A declared list of flaws: each flaw of a type and a severity the declaration names, with its evidence quoted
// exactly from the item (for a pair, from the side it names), as the built-in flaw audit asks. The statistics see,
// per text or per side of a pair, the worst severity found, whether one of the gravest was found, and which types.

type Answer = Record<string, unknown>
type Side = 'a' | 'b'

export function severitiesOf(f: FlawsField): ReadonlyArray<{ value: string; label: string; key?: string | undefined }> {
  return f.severities ?? DEFAULT_SEVERITIES
}

const values = (options: ReadonlyArray<{ value: string }>) => options.map((o) => o.value) as [string, ...string[]]

/** One flaw as an answer holds it. */
function flawSchema(shape: DeclaredItemShape, f: FlawsField) {
  return z.object({
    ...(shape === 'pair' ? { side: caseInsensitiveEnum(['a', 'b'] as const) } : {}),
    type: caseInsensitiveEnum(values(f.types)),
    severity: caseInsensitiveEnum(values(severitiesOf(f))),
    evidence: f.evidence === 'optional' ? z.string().default('') : z.string().regex(/\S/, 'Quote at least one word.'),
    note: z.string().default('')
  })
}

export function flawsSchema(shape: DeclaredItemShape, f: FlawsField): z.ZodType {
  return z.array(flawSchema(shape, f)).max(500)
}

function keyed(options: ReadonlyArray<{ value: string; label: string; key?: string | undefined }>) {
  return options.map((o, i) => ({ value: o.value, label: o.label, key: o.key ?? String((i + 1) % 10) }))
}

export function flawsWidget(shape: DeclaredItemShape, f: FlawsField, source: ReadonlyArray<string>): Widget {
  return {
    kind: 'list',
    field: f.name,
    label: f.label,
    itemLabel: 'Flaw',
    widgets: [
      ...(shape === 'pair'
        ? [{ kind: 'choice' as const, field: 'side', label: 'Proposal', options: [{ value: 'a', label: 'A (left)', key: SIDE_KEYS.a }, { value: 'b', label: 'B (right)', key: SIDE_KEYS.b }] }]
        : []),
      { kind: 'choice', field: 'type', label: 'Type', options: keyed(f.types) },
      { kind: 'choice', field: 'severity', label: 'Severity', options: keyed(severitiesOf(f)) },
      // For a pair the quote is taken from the proposal the flaw names.
      { kind: 'quote', field: 'evidence', label: 'Evidence (exact quote)', source, ...(f.evidence === 'optional' ? { optional: true } : {}) },
      { kind: 'text', field: 'note', label: 'Note', multiline: true, optional: true }
    ]
  }
}

/** The gravest severity, named so the statistics can say "has a fatal flaw". */
const gravest = (f: FlawsField) => severitiesOf(f)[severitiesOf(f).length - 1]!

export function flawsSpecs(f: FlawsField): FieldSpec[] {
  const top = gravest(f)
  return [
    { name: `${f.name}.worst`, label: `${f.label}: worst severity`, level: 'ordinal', categories: ['none', ...values(severitiesOf(f))] },
    { name: `${f.name}.has_${top.value}`, label: `${f.label}: has a ${top.label.toLowerCase()} one`, level: 'nominal', categories: [false, true] },
    ...f.types.map((t) => ({ name: `${f.name}.${t.value}`, label: `${f.label}: ${t.label}`, level: 'nominal' as const, categories: [false, true] }))
  ]
}

/** What the statistics see of the flaws found on one text, or on one side of a pair. */
export function flawsValues(f: FlawsField, flaws: ReadonlyArray<Answer>): Record<string, string | boolean> {
  const order = values(severitiesOf(f))
  let worst = -1
  for (const flaw of flaws) worst = Math.max(worst, order.indexOf(String(flaw.severity)))
  const top = gravest(f).value
  const out: Record<string, string | boolean> = {
    [`${f.name}.worst`]: worst < 0 ? 'none' : order[worst]!,
    [`${f.name}.has_${top}`]: flaws.some((flaw) => flaw.severity === top)
  }
  for (const t of f.types) out[`${f.name}.${t.value}`] = flaws.some((flaw) => flaw.type === t.value)
  return out
}

export function flawList(j: Answer, f: FlawsField): Answer[] {
  const v = j[f.name]
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Answer[]) : []
}

/** The flaws of one side of a pair. */
export const onSide = (flaws: ReadonlyArray<Answer>, side: Side) => flaws.filter((flaw) => flaw.side === side)

/** Each flaw's evidence must be found in the text it is about (`textOf` gives a side's text, or the one text). */
export function flawsIssues(f: FlawsField, j: Answer, textOf: (side: Side | null) => string): JudgementIssue[] {
  const issues: JudgementIssue[] = []
  flawList(j, f).forEach((flaw, i) => {
    const q = flaw.evidence
    const side = flaw.side === 'a' || flaw.side === 'b' ? flaw.side : null
    if (typeof q === 'string' && q.trim() && !quoteFragmentsIn([textOf(side)], q)) {
      issues.push({ path: `${f.name}.${i}.evidence`, message: side ? 'This quote is not in the proposal the flaw names.' : 'This quote is not in the text shown.' })
    }
  })
  return issues
}

/** Sides exchanged, for a pair shown the other way round. */
export function swapFlawSides(flaws: unknown): unknown {
  if (!Array.isArray(flaws)) return flaws
  return flaws.map((flaw) => {
    if (flaw === null || typeof flaw !== 'object') return flaw
    const side = (flaw as Answer).side
    return side === 'a' ? { ...flaw, side: 'b' } : side === 'b' ? { ...flaw, side: 'a' } : flaw
  })
}
