import { z } from 'zod'
import { op } from './define'
import { instrumentIdSchema, nameSchema } from './annotation-schemas'
import { splitSchema } from '../items/kinds'
import { ANSWER_FORMATS } from '../templates/manifest'

// Schemas of judge configurations, templates, prices, keys and model runs, then the operations that use them.

export const providerKindSchema = z.enum(['openai', 'anthropic', 'google', 'openai-compatible'])

/** Letters, digits and underscores: a key's name becomes part of an environment variable (ASSAY_KEY_<NAME>). */
export const keyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'a key name is letters, digits and underscores, starting with a letter'))

export const judgeOptionsSchema = z
  .object({
    reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().max(1_000_000).optional(),
    structuredOutput: z.boolean().optional(),
    /** The name of the key this judge uses; never the key itself. */
    keyName: keyNameSchema.optional()
  })
  .strict()
export type JudgeOptions = z.infer<typeof judgeOptionsSchema>

export const judgeInputSchema = z
  .object({
    name: nameSchema.optional(),
    provider: providerKindSchema,
    model: z.string().trim().min(1).max(200),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      // A key in the URL would be stored in the project with the judge; keys belong in the key store.
      .refine((u) => {
        const url = new URL(u)
        return url.username === '' && url.password === '' && url.search === ''
      }, 'a base URL carries no credentials or query string; store the key as a key')
      .optional(),
    company: z.string().trim().min(1).max(100).optional(),
    options: judgeOptionsSchema.default({})
  })
  .strict()
export type JudgeInput = z.input<typeof judgeInputSchema>

export const judgeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  provider: providerKindSchema,
  model: z.string(),
  baseUrl: z.string().nullable(),
  company: z.string().nullable(),
  effectiveCompany: z.string(),
  options: judgeOptionsSchema,
  createdAt: z.string()
})
export type JudgeSummary = z.infer<typeof judgeSchema>

export const templateSummarySchema = z.object({
  ref: z.string(),
  id: z.string(),
  version: z.number().int(),
  instrument: z.string(),
  answerFormat: z.enum(ANSWER_FORMATS).nullable(),
  builtIn: z.boolean(),
  placeholders: z.array(z.string()),
  system: z.string().nullable(),
  user: z.string(),
  note: z.string().nullable()
})
export type TemplateSummary = z.infer<typeof templateSummarySchema>

export const userTemplateInputSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a template id is kebab-case'),
    version: z.number().int().positive().optional(),
    instrument: instrumentIdSchema,
    system: z.string().max(200_000).optional(),
    user: z.string().min(1).max(200_000),
    answerFormat: z.enum(ANSWER_FORMATS),
    note: z.string().max(2000).optional()
  })
  .strict()
export type UserTemplateInput = z.input<typeof userTemplateInputSchema>

export const priceSchema = z.object({
  provider: z.string().min(1).max(100),
  model: z.string().min(1).max(200),
  inputPerMtok: z.number().nonnegative(),
  outputPerMtok: z.number().nonnegative(),
  batchDiscount: z.number().min(0).max(1)
})
export type PriceRow = z.infer<typeof priceSchema>
/** The price table, and whether it is the project's own or the default list it will be given on its first run. */
const priceTable = z.object({ prices: z.array(priceSchema), source: z.enum(['project', 'default']) })

export const keyRefSchema = z.union([z.enum(['openai', 'anthropic', 'google']), z.string().regex(/^named:[A-Z][A-Z0-9_]{0,63}$/)])

export const keyStatusSchema = z.object({
  storage: z.object({ backend: z.string(), encrypted: z.boolean(), warning: z.string().nullable() }),
  /** Which keys are present and where; never any part of a key. */
  keys: z.array(z.object({ ref: z.string(), source: z.string() }))
})

export const generationSchemeSchema = z.enum(['single', 'multi-stage', 'omega-point'])
export const generationTargetSchema = z.enum(['hypotheses', 'ideas', 'tasks', 'responses'])

/**
 * A run: instrument, judge, item selection, seed, and how its calls are made. `generation` asks the judge's model to
 * generate hypotheses for rediscovery tasks by a scheme, and stores each task's result as a new hypothesis set.
 */
export const runSpecSchema = z
  .object({
    instrument: z.union([instrumentIdSchema, z.literal('generation')]),
    judgeId: z.number().int().positive(),
    /** `id` or `id@version`; default: the instrument's first built-in template. */
    template: z.string().min(1).max(200).optional(),
    set: z.string().min(1).max(200).optional(),
    split: splitSchema.optional(),
    limit: z.number().int().positive().optional(),
    /** Default: the project's seed. */
    seed: z.string().min(1).max(200).optional(),
    /** Display-order key: '' (default) reproduces a published run keyed by the item id alone. */
    viewer: z.string().max(200).optional(),
    bothOrders: z.boolean().optional(),
    trials: z.number().int().min(1).max(1000).optional(),
    concurrency: z.number().int().min(1).max(1024).optional(),
    timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
    attempts: z.number().int().min(1).max(20).optional(),
    batch: z.boolean().optional(),
    pollIntervalMs: z.number().int().min(10).max(3_600_000).optional(),
    /** Generation only: the scheme, the set the new hypothesis sets go into, and (multi-stage) the Omega Point run whose generated tokens further requests approach. */
    scheme: generationSchemeSchema.optional(),
    outSet: z.string().min(1).max(200).optional(),
    tokenBudgetRun: z.number().int().positive().optional(),
    /** Generation only: hypotheses for rediscovery tasks (default), ideas for the keywords of idea items, rediscovery tasks composed from papers, or responses to FrontierScience problems (one per trial). */
    generate: generationTargetSchema.optional(),
    /** Hypothesis generation only: also generate for tasks a leak audit found leaking (left out by default, as the protocol drops them). */
    keepLeaky: z.boolean().optional()
  })
  .strict()
export type RunSpec = z.input<typeof runSpecSchema>

export const estimateSchema = z.object({
  items: z.number().int(),
  skipped: z.number().int(),
  calls: z.number().int(),
  cached: z.number().int(),
  toSend: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  price: priceSchema.extend({ source: z.enum(['project', 'default']) }).nullable(),
  batch: z.boolean(),
  template: z.string(),
  skippedItems: z.array(z.object({ itemId: z.number().int(), externalId: z.string(), reason: z.string() }))
})
export type RunEstimate = z.infer<typeof estimateSchema>

export const runStatusSchema = z.enum(['created', 'running', 'done', 'cancelled', 'failed'])
export const callStatusSchema = z.enum(['pending', 'ok', 'failed', 'unparseable'])

export const runCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  ok: z.number().int(),
  unparseable: z.number().int(),
  failed: z.number().int(),
  cached: z.number().int(),
  costUsd: z.number(),
  /** Calls answered (not from the cache) whose cost is unknown: no price for the model. Their cost is not in costUsd. */
  unpriced: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int()
})

export const runSummarySchema = z.object({
  id: z.number().int(),
  instrument: z.string(),
  judge: z.object({ id: z.number().int(), name: z.string(), provider: providerKindSchema, model: z.string(), company: z.string() }),
  template: z.string(),
  selection: z.object({ set: z.string().optional(), split: splitSchema.optional(), limit: z.number().int().optional() }),
  seed: z.string(),
  viewer: z.string(),
  bothOrders: z.boolean(),
  trials: z.number().int(),
  batch: z.boolean(),
  status: runStatusSchema,
  /** Executing in this process now; a `running` run that is not active was interrupted and can be resumed. */
  active: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: runCountsSchema,
  skipped: z.number().int(),
  /** The first items the run left out (RUN_SKIPPED_LISTED), with why: a leaking task names who found the leak. */
  skippedItems: z.array(z.object({ externalId: z.string(), reason: z.string() })),
  /** The most frequent error of its failed calls. */
  lastError: z.string().nullable()
})
export type RunSummary = z.infer<typeof runSummarySchema>

/**
 * The status a run is shown with, the same in every list: a `running` run no live process executes was killed
 * (`interrupted`); a finished run none of whose calls was answered is `failed` (every call failed), or `no answer`
 * where what came back could not be read, as the report lists it, never a plain `done`. `why` says which.
 */
export function runStatusShown(r: { status: string; active: boolean; counts: { total: number; pending: number; ok: number; unparseable: number; failed: number } }): { status: string; why: string | null } {
  if (r.status === 'running' && !r.active) return { status: 'interrupted', why: 'no live process runs it; the same command resumes it' }
  const c = r.counts
  if (r.status !== 'done' || c.total === 0 || c.ok > 0 || c.pending > 0) return { status: r.status, why: null }
  if (c.unparseable === 0) return { status: 'failed', why: `every call failed (${c.failed} of ${c.total})` }
  return { status: 'no answer', why: `no call was answered readably: ${c.unparseable} unparseable${c.failed ? `, ${c.failed} failed` : ''} of ${c.total}` }
}

/** Skipped items a run's summary lists; the count is always whole, and the run keeps up to a thousand. */
export const RUN_SKIPPED_LISTED = 20

/** A run as lists show it: archived runs (or runs of an archived judge) are kept but left out of reports. */
export const runListEntrySchema = runSummarySchema.extend({ archived: z.boolean(), judgeArchived: z.boolean() })
export type RunListEntry = z.infer<typeof runListEntrySchema>

export const judgeListEntrySchema = judgeSchema.extend({ archived: z.boolean() })
export type JudgeListEntry = z.infer<typeof judgeListEntrySchema>

export const callRowSchema = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  externalId: z.string(),
  split: splitSchema,
  trial: z.number().int(),
  orderIndex: z.number().int(),
  status: callStatusSchema,
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  costUsd: z.number().nullable(),
  latencyMs: z.number().int().nullable(),
  attempts: z.number().int(),
  cached: z.boolean(),
  error: z.string().nullable()
})
export type CallRow = z.infer<typeof callRowSchema>

export const callDetailSchema = callRowSchema.extend({
  runId: z.number().int(),
  requestHash: z.string(),
  template: z.string(),
  format: z.string(),
  display: z.record(z.string(), z.unknown()),
  prompt: z.object({ system: z.string().nullable(), user: z.string() }),
  rawAnswer: z.string().nullable(),
  judgement: z.unknown(),
  /** The answer read again now, in display order and canonical order, or why it cannot be read. */
  parse: z.object({ status: z.enum(['ok', 'unparseable']), error: z.string().nullable() }).nullable()
})
export type CallDetail = z.infer<typeof callDetailSchema>

export const panelOutcomeSchema = z.object({
  setId: z.string(),
  hypothesisId: z.string(),
  generatorCompany: z.string(),
  /** True/false by the rule; null when the panel is not complete (and why). */
  matched: z.boolean().nullable(),
  votesFor: z.number().int(),
  panel: z.array(z.object({ judge: z.string(), company: z.string(), match: z.number().nullable() })),
  reason: z.string().nullable()
})
export type PanelOutcome = z.infer<typeof panelOutcomeSchema>

const empty = z.object({}).strict()
const runIdInput = z.object({ runId: z.number().int().positive() }).strict()
const judgeIdInput = z.object({ judgeId: z.number().int().positive() }).strict()
const listInput = z.object({ includeArchived: z.boolean().optional() }).strict()

/** Operations of judge configurations and model runs (merged into the one contract in operations.ts). */
export const runOperations = {
  'judges.list': op({
    input: listInput,
    output: z.object({ judges: z.array(judgeListEntrySchema) }),
    access: 'curator',
    summary: 'Judge configurations (archived ones only when asked for)'
  }),
  'judges.archive': op({ input: judgeIdInput, output: judgeListEntrySchema, access: 'curator', summary: 'Archive a judge: kept, with its runs left out of reports and lists' }),
  'judges.restore': op({ input: judgeIdInput, output: judgeListEntrySchema, access: 'curator', summary: 'Restore an archived judge' }),
  'judges.create': op({ input: judgeInputSchema, output: judgeSchema, access: 'curator', summary: 'Add a judge configuration (provider, model, options)' }),
  'templates.list': op({
    input: z.object({ instrument: instrumentIdSchema.optional() }).strict(),
    output: z.object({ templates: z.array(templateSummarySchema) }),
    access: 'curator',
    summary: 'Prompt templates: built-in (read-only) and the project’s own'
  }),
  'templates.create': op({ input: userTemplateInputSchema, output: templateSummarySchema, access: 'curator', summary: 'Add a template, or a new version of one' }),
  'prices.list': op({
    input: empty,
    output: priceTable,
    access: 'curator',
    summary: 'The project’s price table, or the default list it will be given on its first run (nothing is written)'
  }),
  'prices.set': op({ input: priceSchema.strict(), output: priceTable, access: 'curator', summary: 'Set the price of a model (the default list is written into the project first)' }),
  'keys.status': op({ input: empty, output: keyStatusSchema, access: 'curator', summary: 'Which API keys are present and how they are stored (never the keys)' }),
  'keys.set': op({
    input: z.object({ ref: keyRefSchema, key: z.string().trim().min(1).max(1000) }).strict(),
    output: keyStatusSchema,
    access: 'curator',
    summary: 'Store an API key in main; it is never sent back'
  }),
  'keys.delete': op({ input: z.object({ ref: keyRefSchema }).strict(), output: keyStatusSchema, access: 'curator', summary: 'Forget a stored API key' }),
  'runs.estimate': op({ input: runSpecSchema, output: estimateSchema, access: 'curator', summary: 'Dry run: calls and estimated cost; nothing is sent or written' }),
  'runs.start': op({
    input: runSpecSchema,
    output: z.object({ runId: z.number().int(), resumed: z.boolean() }),
    access: 'curator',
    summary: 'Start a run (or resume the unfinished run with the same definition) in the background'
  }),
  'runs.resume': op({ input: runIdInput, output: z.object({ runId: z.number().int(), resumed: z.boolean() }), access: 'curator', summary: 'Resume a stopped run' }),
  'runs.cancel': op({ input: runIdInput, output: z.object({ cancelled: z.boolean() }), access: 'curator', summary: 'Cancel a running run; finished calls are kept' }),
  'runs.list': op({
    input: listInput,
    output: z.object({ runs: z.array(runListEntrySchema) }),
    access: 'curator',
    summary: 'Every run with its counts (archived ones only when asked for)'
  }),
  'runs.archive': op({ input: runIdInput, output: runListEntrySchema, access: 'curator', summary: 'Archive a run: kept in the file, left out of reports and lists' }),
  'runs.restore': op({ input: runIdInput, output: runListEntrySchema, access: 'curator', summary: 'Restore an archived run' }),
  'runs.get': op({ input: runIdInput, output: runSummarySchema, access: 'curator', summary: 'One run with its counts' }),
  'runs.calls': op({
    input: z
      .object({
        runId: z.number().int().positive(),
        status: callStatusSchema.optional(),
        offset: z.number().int().nonnegative().default(0),
        limit: z.number().int().positive().max(1000).default(100)
      })
      .strict(),
    output: z.object({ total: z.number().int(), rows: z.array(callRowSchema) }),
    access: 'curator',
    summary: 'The calls of a run (status, tokens, cost; no answers)'
  }),
  'runs.call': op({
    input: z.object({ callId: z.number().int().positive() }).strict(),
    output: callDetailSchema,
    access: 'curator',
    summary: 'One call: rendered prompt, raw answer, parse result (viewing a test item’s output is logged)'
  }),
  'panel.match': op({
    input: z.object({ runIds: z.array(z.number().int().positive()).min(1).max(50) }).strict(),
    output: z.object({ outcomes: z.array(panelOutcomeSchema) }),
    access: 'curator',
    summary: 'The match panel: ≥ 2 of the 3 judges from other companies than the generator’s give match ≥ 3'
  })
} as const
