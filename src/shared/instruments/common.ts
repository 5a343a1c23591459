import { z } from 'zod'
import type { BlindingContext, JudgementIssue, Widget } from './types'
import { BadDataError } from '../errors'

// Shared pieces of the built-in instruments: quote checks, labelled display orders, uniform keys.

/** Keys of every yes/no question, so a hand learns them once. */
export const YES_NO_KEYS = { trueKey: 'y', falseKey: 'n' } as const

/** Side keys: the outer home-row keys under the left and the right hand, matching the screen layout. */
export const SIDE_KEYS = { a: 'a', b: 'l' } as const

/** An enum that also accepts its values in any letter case and with surrounding space ("A_better", " b "). */
export function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const byLowerCase = new Map(values.map((v) => [v.toLowerCase(), v]))
  return z.preprocess(
    (v) => (typeof v === 'string' ? (byLowerCase.get(v.trim().toLowerCase()) ?? v) : v),
    z.enum(values)
  )
}

/** Whether an item carries what a grading instrument grades (`grades`): a non-empty text in that payload field. */
export function hasGradedText(payload: Readonly<Record<string, unknown>> | undefined, field: string): boolean {
  const value = payload?.[field]
  return typeof value === 'string' && value.trim().length > 0
}

export function identity<J>(judgement: J): J {
  return judgement
}

/**
 * The key of a viewer's display order. Each viewer gets an independent order of the same item; the empty viewer
 * reproduces a published run keyed by the item id alone (IdeaEval: `${seed}:${pair_id}`).
 */
export function viewerKey(ctx: BlindingContext, itemId: string): string {
  return ctx.viewer ? `${ctx.viewer}:${itemId}` : itemId
}

// Rendered Markdown and model answers re-wrap lines, so a quote is compared with runs of whitespace collapsed;
// every other character must be exact.
function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** True when `span` is a non-empty run of `text` (whitespace runs compared as one space). */
export function containsSpan(text: string, span: string): boolean {
  const needle = collapseSpace(span)
  return needle.length > 0 && collapseSpace(text).includes(needle)
}

/** True when `span` is a run of any of `texts`. */
export function spanInAny(texts: ReadonlyArray<string | null | undefined>, span: string): boolean {
  return texts.some((t) => typeof t === 'string' && containsSpan(t, span))
}

/**
 * Models quote several fragments in one string ("… ; …", "a ... b"). Accepts the whole string, or else every
 * fragment between ellipses, semicolons or line breaks, each stripped of surrounding quotation marks.
 */
export function quoteFragmentsIn(texts: ReadonlyArray<string | null | undefined>, quote: string): boolean {
  const whole = stripQuotes(quote)
  if (spanInAny(texts, whole)) return true
  const fragments = whole
    .split(/\s*(?:\.\.\.|…|;|\n)\s*/)
    .map(stripQuotes)
    .filter((f) => f.length > 0)
  return fragments.length > 0 && fragments.every((f) => spanInAny(texts, f))
}

function stripQuotes(s: string): string {
  return s.trim().replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '').trim()
}

// ---------------------------------------------------------------------------------------------------------------
// Labelled display orders (P1..P5, H1..H5): display = { order: [canonical id shown as label 1, label 2, ...] }

export type UnitLabelPrefix = 'P' | 'H'

export function orderOf(display: Record<string, unknown>): string[] {
  const order = display.order
  return Array.isArray(order) ? order.filter((x): x is string => typeof x === 'string') : []
}

/** Display label -> canonical id; an unknown label is returned unchanged so `check` can report it. */
export function canonicalUnitId(label: string, display: Record<string, unknown>, prefix: UnitLabelPrefix): string {
  const match = new RegExp(`^${prefix}(\\d+)$`).exec(label.trim())
  if (!match) return label
  return orderOf(display)[Number(match[1]) - 1] ?? label
}

/** Canonical id -> display label; an id outside the order is returned unchanged. */
export function displayUnitLabel(id: string, display: Record<string, unknown>, prefix: UnitLabelPrefix): string {
  const index = orderOf(display).indexOf(id)
  return index < 0 ? id : `${prefix}${index + 1}`
}

/** Every unit answered exactly once, none unknown. */
export function unitCoverageIssues(
  answeredIds: ReadonlyArray<string>,
  expectedIds: ReadonlyArray<string>,
  path: string
): JudgementIssue[] {
  const issues: JudgementIssue[] = []
  const expected = new Set(expectedIds)
  const seen = new Set<string>()
  answeredIds.forEach((id, i) => {
    if (!expected.has(id)) issues.push({ path: `${path}.${i}.id`, message: `Unknown hypothesis "${id}".` })
    else if (seen.has(id)) issues.push({ path: `${path}.${i}.id`, message: `Hypothesis "${id}" is answered twice.` })
    seen.add(id)
  })
  for (const id of expectedIds) {
    if (!seen.has(id)) issues.push({ path, message: `Hypothesis "${id}" has no answer.` })
  }
  return issues
}

/** Ids in a judgement's unit list must be distinct (a schema-level rule, independent of the item). */
export function distinctIds<T extends { id: string }>(units: ReadonlyArray<T>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>()
  units.forEach((u, i) => {
    if (seen.has(u.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `Duplicate id "${u.id}".` })
    seen.add(u.id)
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The task a hypothesis set answers. Hypothesis sets do not carry it; the caller attaches it as `payload.task`
// (a rediscovery task: background, question, finding, key_points) and, for judging against a second reference,
// `payload.reference` ({ finding, key_points }), which then replaces the task's own finding.

const referenceOnlySchema = z.lazy(() => z.object({ finding: z.string(), key_points: z.array(z.string()).default([]) }))

const attachedTaskSchema = z.lazy(() => z.looseObject({
  background: z.string().nullish(),
  question: z.string().nullish(),
  finding: z.string().nullish(),
  key_points: z.array(z.string()).nullish()
}))

export interface AttachedTask {
  background: string
  question: string
  reference: { finding: string; key_points: string[] } | null
}

export class MissingContextError extends BadDataError {}

export function attachedTask(payload: Record<string, unknown>, requirement: 'task' | 'task+reference' | 'optional'): AttachedTask {
  const task = attachedTaskSchema.safeParse(payload.task ?? {})
  if (!task.success || (requirement !== 'optional' && payload.task == null)) {
    throw new MissingContextError('This instrument needs the task of the hypothesis set in payload.task.')
  }
  const override = payload.reference == null ? null : referenceOnlySchema.safeParse(payload.reference)
  if (override && !override.success) throw new MissingContextError('payload.reference must be { finding, key_points }.')
  const reference = override?.data
    ?? (typeof task.data.finding === 'string' ? { finding: task.data.finding, key_points: task.data.key_points ?? [] } : null)
  if (requirement === 'task+reference' && !reference) {
    throw new MissingContextError('This instrument needs the reference finding (payload.task.finding or payload.reference).')
  }
  return { background: task.data.background ?? '', question: task.data.question ?? '', reference }
}

// ---------------------------------------------------------------------------------------------------------------
// Widgets used by several instruments.

export function listOfText(field: string, label: string, itemLabel: string): Widget {
  // A list of plain strings: the inner widget's empty field path is the list element itself.
  return { kind: 'list', field, label, itemLabel, widgets: [{ kind: 'text', field: '', label: itemLabel }] }
}
