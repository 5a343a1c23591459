import { valueAt, walkFields } from './form-walk'
import type { AnyInstrument, JudgementIssue, Widget } from './types'

// What a person's form must hold before it is accepted. Every text and quote field is required unless it is
// declared optional, or required only when another answer makes it so (`requiredWhen`: a reason to abstain, a cue
// excerpt once a cue is rated present). The form shows the same rule beside each field, and main applies it to
// every human answer, so an answer that reached main another way is refused as well. Model answers are held to the
// judgement schema only: they follow the published prompt, not the form.

type Requirable = Extract<Widget, { kind: 'text' | 'quote' | 'code' | 'number' }>

/** 'required', 'optional', or the condition under which the field is required, in words. */
export function requirementOf(widget: Widget): { kind: 'required' } | { kind: 'optional' } | { kind: 'when'; says: string } {
  // A number that may stay empty (no estimate) is optional; the schema and the instrument's own rules say when not.
  if (widget.kind === 'number') {
    if (widget.requiredWhen) return { kind: 'when', says: widget.requiredWhen.says }
    return widget.nullable ? { kind: 'optional' } : { kind: 'required' }
  }
  if (widget.kind === 'choice') {
    if (!widget.optional) return { kind: 'required' }
    return widget.says ? { kind: 'when', says: widget.says } : { kind: 'optional' }
  }
  if (widget.kind !== 'text' && widget.kind !== 'quote' && widget.kind !== 'code') return { kind: 'required' }
  if (widget.kind !== 'code' && widget.requiredWhen) return { kind: 'when', says: widget.requiredWhen.says }
  if (widget.kind === 'code' || widget.optional) return { kind: 'optional' }
  return { kind: 'required' }
}

function isEmpty(widget: Requirable, value: unknown): boolean {
  if (widget.kind === 'quote' && widget.many) return !Array.isArray(value) || !value.some((q) => typeof q === 'string' && q.trim())
  if (widget.kind === 'code') return value === undefined || value === null
  if (widget.kind === 'number') return typeof value !== 'number'
  return typeof value !== 'string' || !value.trim()
}

function isRequired(widget: Requirable, entry: unknown): boolean {
  if (widget.kind === 'code') return false
  const when = widget.requiredWhen
  if (when) return when.in.includes(valueAt(entry, when.field) as never)
  // Other numbers are held to the schema, which names an empty one itself.
  if (widget.kind === 'number') return false
  return !widget.optional
}

/** Fields a human answer leaves empty although the form requires them, with display-order paths. */
export function missingRequired(instrument: AnyInstrument, answer: unknown): JudgementIssue[] {
  const issues: JudgementIssue[] = []
  walkFields(instrument.form.widgets, answer, (w, path, entry) => {
    if (w.kind !== 'text' && w.kind !== 'quote' && w.kind !== 'code' && w.kind !== 'number') return
    if (!isRequired(w, entry) || !isEmpty(w, valueAt(answer, path))) return
    const when = w.kind !== 'code' ? w.requiredWhen : undefined
    issues.push({ path, message: when ? `Required ${when.says.replace(/^required\s+/i, '')}.` : 'Required.' })
  })
  issues.push(...(instrument.formRules?.(answer) ?? []))
  return issues
}
