import type { Declaration, DeclaredField } from './declaration'
import { severitiesOf } from './flaws'

// What a judge is asked for a declared instrument: the team's own prompt, or one derived from the fields. Either
// way the prompt names its values as {{name}} (the item as shown: {{text}}, or {{a}}, {{b}} and {{topic}}; the
// field list {{fields}}; the rubric {{rubric}}) and the answer is one JSON object of the fields.

export interface DeclaredPrompt {
  system?: string
  user: string
}

function quoted(values: ReadonlyArray<string>): string {
  return values.map((v) => `"${v}"`).join(', ')
}

function describe(f: DeclaredField, pair: boolean): string {
  const help = f.help ? ` ${f.help}` : ''
  const need = f.optional || f.required_when ? ' (may be null)' : ''
  switch (f.kind) {
    case 'choice':
      return `- "${f.name}" (${f.label}): one of ${quoted(f.options.map((o) => o.value))}${need}.${help} ${f.options.map((o) => `"${o.value}" = ${o.label}`).join('; ')}.`
    case 'multi':
      return `- "${f.name}" (${f.label}): a list of any of ${quoted(f.options.map((o) => o.value))}, possibly empty.${help} ${f.options.map((o) => `"${o.value}" = ${o.label}`).join('; ')}.`
    case 'scale': {
      const points = Object.entries(f.points ?? {}).map(([p, label]) => `${p} = ${label}`)
      return `- "${f.name}" (${f.label}): a whole number from ${f.min} to ${f.max}${need}.${help}${points.length ? ` ${points.join('; ')}.` : ''}`
    }
    case 'number': {
      const range = f.min !== undefined && f.max !== undefined ? ` from ${f.min} to ${f.max}` : f.min !== undefined ? ` of at least ${f.min}` : f.max !== undefined ? ` of at most ${f.max}` : ''
      return `- "${f.name}" (${f.label}): a number${range}${need}.${help}`
    }
    case 'text':
      return `- "${f.name}" (${f.label}): text${need}.${help}`
    case 'quote':
      return `- "${f.name}" (${f.label}): ${f.many ? 'a list of passages' : 'one passage'} copied exactly from the text${need}.${help}`
    case 'flaws': {
      const severities = severitiesOf(f)
      const side = pair ? '"side": "a" or "b" (the proposal it is in), ' : ''
      const evidence = f.evidence === 'optional' ? 'a passage copied exactly from the text it is about, or ""' : 'a passage copied exactly from the text it is about'
      return (
        `- "${f.name}" (${f.label}): a list of the flaws found, empty if there are none; each flaw an object {${side}"type": one of ${quoted(f.types.map((t) => t.value))}, ` +
        `"severity": one of ${quoted(severities.map((s) => s.value))} (least to most severe), "evidence": ${evidence}, "note": text}.${help} ` +
        `${f.types.map((t) => `"${t.value}" = ${t.label}`).join('; ')}.`
      )
    }
    case 'per_side': {
      const inner = f.fields.map((g) => `  ${describe(g, pair)}`).join('\n')
      return `- "${f.name}" (${f.label}): an object {"a": {...}, "b": {...}} with the same fields for proposal A and for proposal B:${help}\n${inner}`
    }
  }
}

/** The answer's fields in words, and how to write the answer. */
export function fieldInstructions(d: Declaration): string {
  return [
    'Answer with one JSON object and nothing else, with these fields:',
    ...d.fields.map((f) => describe(f, d.item === 'pair'))
  ].join('\n')
}

/** The prompt a declaration without its own gets. */
export function derivedPrompt(d: Declaration): DeclaredPrompt {
  const item = d.item === 'text' ? 'The text:\n\n{{text}}' : '{{topic}}\n\nProposal A:\n\n{{a}}\n\nProposal B:\n\n{{b}}'
  const task = d.description ?? d.title
  return {
    system: `You are a careful expert reviewer. ${task}`,
    user: [d.rubric ? '{{rubric}}' : undefined, item, '{{fields}}'].filter(Boolean).join('\n\n')
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** The values of one request, from the blinded view (what a person sees, never more). */
export function promptValues(d: Declaration, view: Record<string, unknown>): Record<string, string> {
  const common = { fields: fieldInstructions(d), rubric: d.rubric ?? '', title: d.title }
  if (d.item === 'text') return { ...common, text: str(view.text) }
  const side = (v: unknown) => str((v as { markdown?: unknown } | null)?.markdown)
  return { ...common, a: side(view.a), b: side(view.b), topic: str(view.topic) }
}
