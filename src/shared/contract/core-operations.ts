import { z } from 'zod'
import { op } from './define'
import {
  facetsSchema,
  itemDetailSchema,
  itemPageSchema,
  itemQuerySchema,
  projectViewSchema,
  roleSchema,
  sessionSchema
} from './schemas'
import {
  annotatorSummarySchema,
  assignInputSchema,
  assignResultSchema,
  blindedItemSchema,
  draftDataSchema,
  instrumentIdSchema,
  nameSchema,
  queueRowSchema,
  queueSummarySchema,
  revisionSchema,
  statusReasonSchema
} from './annotation-schemas'
import { splitInputSchema, splitPlanSchema } from './split-schemas'

// The operations of the project itself: the session, the project's counts and settings, items, annotators,
// assignments, queues, answers and worked checks (merged into the one contract in operations.ts).

const empty = z.object({}).strict()
const idInput = z.object({ id: z.number().int().positive() }).strict()

/**
 * The one contract: every operation any client may call, with its input, output and access.
 * IPC handlers, the preload bridge, the HTTP bridge and the renderer's client are all derived from this table.
 */
/** The core operations: who is using the window, the project, its items, and annotation. */
export const coreOperations = {
  'session.get': op({ input: empty, output: sessionSchema, access: 'any', summary: 'Who is using this window' }),
  'session.setRole': op({
    input: z.object({ role: roleSchema, annotator: nameSchema.optional() }).strict(),
    output: sessionSchema,
    access: 'any',
    summary: 'Switch between curator and annotator (refused in locked sessions)'
  }),
  'project.info': op({ input: empty, output: projectViewSchema, access: 'any', summary: 'Counts and schema of the open project (less for annotators)' }),
  'items.facets': op({ input: empty, output: facetsSchema, access: 'curator', summary: 'Kinds, sets and splits present' }),
  'items.list': op({ input: itemQuerySchema.strict(), output: itemPageSchema, access: 'curator', summary: 'A page of items, filtered' }),
  'items.get': op({ input: idInput, output: itemDetailSchema, access: 'curator', summary: 'One item, labels of test items withheld' }),
  'items.reveal': op({
    input: idInput,
    output: z.object({ labels: z.record(z.string(), z.unknown()) }),
    access: 'curator',
    summary: 'Reveal withheld labels of a test item (logged as an exposure)'
  }),

  'items.split': op({
    input: splitInputSchema,
    output: splitPlanSchema,
    access: 'curator',
    summary: 'A seeded dev/test split, stratified by set and label (as assay split; refused once the items are in use)'
  }),

  'annotators.list': op({ input: empty, output: z.object({ annotators: z.array(annotatorSummarySchema) }), access: 'curator', summary: 'Annotator profiles and progress' }),
  'annotators.create': op({
    input: z.object({ name: nameSchema, expertise: z.string().max(500).optional() }).strict(),
    output: annotatorSummarySchema,
    access: 'curator',
    summary: 'Add an annotator profile'
  }),
  'assignments.create': op({ input: assignInputSchema, output: assignResultSchema, access: 'curator', summary: 'Assign items to annotators with overlap k' }),

  'queue.summary': op({ input: empty, output: z.object({ queues: z.array(queueSummarySchema) }), access: 'annotator', summary: "The annotator's queues and progress" }),
  'queue.list': op({
    input: z.object({ instrument: instrumentIdSchema }).strict(),
    output: z.object({ rows: z.array(queueRowSchema) }),
    access: 'annotator',
    summary: 'One queue in its seeded order (no item content)'
  }),
  'queue.item': op({
    input: z.object({ assignmentId: z.number().int().positive() }).strict(),
    output: blindedItemSchema,
    access: 'annotator',
    summary: 'The blinded view of one assignment, with its draft and current answer'
  }),
  'queue.setStatus': op({
    input: z.object({ assignmentId: z.number().int().positive(), status: z.enum(['pending', 'skipped', 'flagged']), reason: statusReasonSchema.optional() }).strict(),
    output: z.object({ status: z.enum(['pending', 'skipped', 'flagged']) }),
    access: 'annotator',
    summary: 'Skip or flag an item with a reason, or put it back'
  }),
  'annotations.saveDraft': op({
    input: z
      .object({
        assignmentId: z.number().int().positive(),
        data: draftDataSchema,
        activeMs: z.number().int().nonnegative(),
        /** The layout token of the item the draft was entered in (queue.item); refused when the layout changed since. */
        layout: z.string().max(64).optional()
      })
      .strict(),
    output: z.object({ savedAt: z.string() }),
    access: 'annotator',
    summary: 'Save the form state while typing'
  }),
  'annotations.submit': op({
    input: z.object({ assignmentId: z.number().int().positive(), judgement: z.unknown(), activeMs: z.number().int().nonnegative() }).strict(),
    output: z.object({ annotationId: z.string(), supersedes: z.string().nullable() }),
    access: 'annotator',
    summary: 'Submit an answer (one transaction); a resubmission is a new revision'
  }),
  'annotations.undo': op({
    input: z.object({ annotationId: z.string().uuid() }).strict(),
    /** `restored`: the withdrawn answer corrected an earlier one, which is the answer again (the item stays done). */
    output: z.object({ assignmentId: z.number().int(), restored: z.boolean() }),
    access: 'annotator',
    summary: 'Withdraw a submission (kept in the history): a correction gives the earlier answer back; a first answer becomes the draft again'
  }),
  'checks.run': op({
    input: z.object({ code: z.string().min(1).max(20_000), timeoutMs: z.number().int().min(100).max(10_000).optional() }).strict(),
    output: z.object({ output: z.string(), error: z.string().nullable(), ms: z.number().int(), timedOut: z.boolean() }),
    access: 'any',
    summary: 'Run a worked check in QuickJS (WebAssembly) in a process of its own: no host functions, files or network; time, memory and output bounded'
  }),
  'annotations.history': op({
    input: z.object({ assignmentId: z.number().int().positive() }).strict(),
    output: z.object({ revisions: z.array(revisionSchema) }),
    access: 'annotator',
    summary: 'Every revision of one answer'
  })
} as const
