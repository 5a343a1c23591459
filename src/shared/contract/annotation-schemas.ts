import { z } from 'zod'
import type { InstrumentId } from '../instruments/types'
import { splitSchema } from '../items/kinds'

/**
 * A built-in instrument's id or one a project declared (kebab-case); whether the project knows it is for the
 * operation to say, with the instrument registry of the open project.
 */
export const instrumentIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'an instrument id is kebab-case')
  .max(64) as unknown as z.ZodType<InstrumentId, string>

export const queueSummarySchema = z.object({
  instrument_id: instrumentIdSchema,
  title: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  skipped: z.number().int(),
  flagged: z.number().int()
})

export const assignmentStatusSchema = z.enum(['pending', 'done', 'skipped', 'flagged'])

export const queueRowSchema = z.object({
  assignmentId: z.number().int(),
  index: z.number().int(),
  status: assignmentStatusSchema
})

/** What an annotator receives for one assignment: only the blinded view, never the item's payload. */
export const blindedItemSchema = z.object({
  assignmentId: z.number().int(),
  instrument: instrumentIdSchema,
  instrumentVersion: z.number().int(),
  index: z.number().int(),
  total: z.number().int(),
  status: assignmentStatusSchema,
  statusReason: z.string().nullable(),
  view: z.record(z.string(), z.unknown()),
  draft: z.object({ data: z.unknown(), activeMs: z.number().int(), updatedAt: z.string() }).nullable(),
  /**
   * Opaque token of the layout shown (which side is left, the order of units): drafts are saved with it, and a copy
   * kept in the browser for another layout is not read against this one. It names no side or origin.
   */
  layout: z.string().optional(),
  /**
   * A draft of this item made for an earlier layout that could not be carried over: kept aside, not put in the form.
   * `texts` is what was written in it (notes, reasons, quotes, code) with the labels of its fields.
   */
  draftSetAside: z
    .object({ updatedAt: z.string(), texts: z.array(z.object({ label: z.string(), text: z.string() })).default([]) })
    .nullable()
    .optional(),
  /** The current answer, in this annotator's display order. */
  answer: z.object({ id: z.string(), judgement: z.unknown(), createdAt: z.string() }).nullable()
})
export type BlindedItem = z.infer<typeof blindedItemSchema>

export const revisionSchema = z.object({
  id: z.string(),
  judgement: z.unknown(),
  createdAt: z.string(),
  retracted: z.boolean(),
  activeMs: z.number().int().nullable(),
  supersedes: z.string().nullable()
})

/** The most characters a name (an annotator's, a judge's) has, after the spaces around it are dropped. */
export const MAX_NAME_CHARS = 200
/** A line break, tab or other control character, or a Unicode line or paragraph separator. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u

/**
 * A name people read in lists, reports and exports: one line of 1 to 200 characters, without the spaces around it.
 * Every door that takes an annotator's name checks it with this one schema.
 */
export const nameSchema = z
  .string()
  .trim()
  .min(1, 'a name needs at least one character')
  .max(MAX_NAME_CHARS, `a name has at most ${MAX_NAME_CHARS} characters`)
  .refine((name) => !NOT_ONE_LINE.test(name), 'a name is one line of text, without line breaks, tabs or other control characters')

export const assignInputSchema = z
  .object({
    instrument: instrumentIdSchema,
    annotators: z.array(nameSchema).min(1).max(500),
    overlap: z.number().int().min(1),
    set: z.string().min(1).optional(),
    split: splitSchema.optional(),
    seed: z.string().min(1).max(100).optional(),
    /** Refuse names without a profile instead of creating one (the workbench's Assign form: a typo is not a person). */
    existingOnly: z.boolean().optional()
  })
  .strict()

export const assignResultSchema = z.object({
  items: z.number().int(),
  created: z.number().int(),
  perAnnotator: z.record(z.string(), z.number().int()),
  seed: z.string()
})

export const annotatorSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  expertise: z.string().nullable(),
  pseudonym: z.string(),
  assignments: z.number().int(),
  done: z.number().int()
})

/** The most characters a skip or flag reason holds, as given (before the spaces around it are dropped). */
export const STATUS_REASON_MAX_CHARS = 2000
export const statusReasonSchema = z.string().max(STATUS_REASON_MAX_CHARS)

/**
 * What is wrong with the reason given for an assignment's status, or null when nothing is: a skip or a flag needs a
 * reason that is not blank, and no reason is over the cap. The one rule for queue.setStatus and for the statuses a
 * merged packet brings back.
 */
export function statusReasonProblem(status: string, reason: string | null | undefined): string | null {
  if (typeof reason === 'string' && !statusReasonSchema.safeParse(reason).success) return `${reason.length} characters; at most ${STATUS_REASON_MAX_CHARS}`
  if ((status === 'skipped' || status === 'flagged') && !reason?.trim()) return `a ${status === 'skipped' ? 'skip' : 'flag'} needs a reason`
  return null
}

/** A status reason as it is kept: without the spaces around it, and none when blank. */
export function keptStatusReason(reason: string | null | undefined): string | null {
  return reason?.trim() || null
}

/** Drafts are the form's state; bounded so a runaway client cannot fill the file. */
export const draftDataSchema = z.unknown().refine((v) => JSON.stringify(v ?? null).length <= 1_000_000, 'draft too large (over 1 MB)')
