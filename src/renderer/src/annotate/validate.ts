import type { z } from 'zod'
import { missingRequired } from '../../../shared/instruments/requirements'
import type { AnyInstrument, Widget } from '../../../shared/instruments/types'
import { getAt, isWithin, joinPath, removeAt, setAt } from './paths'
import { quoteProblem, quoteSources } from './quotes'

// The form validates before anything is sent, with the instrument's own judgement schema plus the checks it can do
// on the shown text (exact quotes, rubric limits). Main validates again on submit; its messages arrive with a field
// path and are shown the same way.

export interface FieldIssue {
  path: string
  message: string
}

export interface CodeValue {
  code: string
  output: string
  ran_at: string
}

export function isCodeValue(v: unknown): v is CodeValue {
  return v !== null && typeof v === 'object' && typeof (v as CodeValue).code === 'string'
}

/** Widgets with the data path they apply to, every unit and list entry expanded. */
export function eachWidget(
  widgets: ReadonlyArray<Widget>,
  data: unknown,
  visit: (w: Widget, path: string, entry: unknown) => void,
  prefix = '',
  entry: unknown = undefined
): void {
  for (const w of widgets) {
    const path = joinPath(prefix, w.field)
    visit(w, path, entry)
    if (w.kind === 'units' || w.kind === 'list') {
      const items = getAt(data, path)
      if (Array.isArray(items)) items.forEach((item, i) => eachWidget(w.widgets, data, visit, joinPath(path, i), item))
    }
  }
}

/** The form state as an answer: blank optional checks dropped, empty quotes of a list left out. */
export function prepareJudgement(widgets: ReadonlyArray<Widget>, data: unknown): unknown {
  let out = data
  const edits: Array<(d: unknown) => unknown> = []
  eachWidget(widgets, data, (w, path) => {
    const value = getAt(data, path)
    if (w.kind === 'code' && (!isCodeValue(value) || !value.code.trim())) edits.push((d) => removeAt(d, path))
    if (w.kind === 'quote' && w.many && Array.isArray(value)) {
      edits.push((d) => setAt(d, path, value.filter((q) => typeof q === 'string' && q.trim())))
    }
  })
  // Removals splice arrays, so apply from the deepest and last path backwards.
  for (const edit of edits.reverse()) out = edit(out)
  return out
}

function friendly(issue: z.core.$ZodIssue, answer: unknown): string {
  const msg = issue.message
  const value = getAt(answer, issue.path.map(String).join('.'))
  if (value === null || value === undefined || /received (null|undefined)/.test(msg)) return 'Required.'
  if (issue.code === 'invalid_value') return 'Choose one.'
  if (issue.code === 'too_small' && issue.origin === 'string') return 'Required.'
  if (/expected number, received string/.test(msg)) return 'Enter a number.'
  return msg
}

/** Checks that need the shown item: exact quotes, rubric limits, checks that were never run. */
export function formChecks(instrument: AnyInstrument, data: unknown, view: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = []
  eachWidget(instrument.form.widgets, data, (w, path, entry) => {
    const value = getAt(data, path)
    if (w.kind === 'quote') {
      const sources = quoteSources(w, view, entry)
      const sideFixed = sources.length < w.source.length
      const quotes = w.many ? (Array.isArray(value) ? value : []) : [value]
      quotes.forEach((q, i) => {
        if (typeof q !== 'string') return
        const problem = quoteProblem(w, q, sources, sideFixed)
        if (problem) issues.push({ path: w.many ? joinPath(path, i) : path, message: problem })
      })
    }
    if (w.kind === 'rubric' && Array.isArray(value)) {
      const items = getAt(view, w.source)
      const maxima = Array.isArray(items) ? items.map((it) => Number((it as { points?: unknown }).points)) : []
      let sum = 0
      value.forEach((p, i) => {
        if (typeof p !== 'number') return
        sum += p
        const max = maxima[i]
        if (max !== undefined && Number.isFinite(max) && p > max + 1e-9) issues.push({ path: joinPath(path, i), message: `At most ${max} points for this item.` })
      })
      if (sum > w.maxTotal + 1e-9) issues.push({ path, message: `The points add up to ${round(sum)}, over ${w.maxTotal}.` })
    }
    if (w.kind === 'code' && isCodeValue(value) && value.code.trim() && !value.ran_at) {
      issues.push({ path, message: 'Run the check (r) so its output is stored with it.' })
    }
  })
  return issues
}

export interface FormResult {
  judgement: unknown
  issues: FieldIssue[]
}

export function validateForm(instrument: AnyInstrument, data: unknown, view: Record<string, unknown>): FormResult {
  const judgement = prepareJudgement(instrument.form.widgets, data)
  const issues: FieldIssue[] = []
  const own = formChecks(instrument, data, view)
  // A check that was never run has no time stamp: say "run it" once instead of the schema's date complaint.
  const unrun = own.filter((i) => i.message.startsWith('Run the check')).map((i) => i.path)
  const parsed = instrument.judgement.safeParse(judgement)
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const path = i.path.map(String).join('.')
      if (!unrun.some((u) => isWithin(path, u))) issues.push({ path, message: friendly(i, judgement) })
    }
  }
  // Required fields left empty, by the same rule main applies (the schema alone accepts an empty reason).
  for (const i of missingRequired(instrument, judgement)) issues.push({ path: i.path, message: i.message })
  issues.push(...own)
  const seen = new Set<string>()
  return {
    judgement: parsed.success ? parsed.data : judgement,
    issues: issues.filter((i) => {
      const key = `${i.path}\u0000${i.message}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
