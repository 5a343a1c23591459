import { z } from 'zod'
import { splitSchema } from '../items/kinds'
import { reportSchema } from '../report/schema'
import { MAX_BOOTSTRAP_RESAMPLES, MIN_BOOTSTRAP_RESAMPLES } from '../report/limits'
import { calibrationRowSchema } from '../calibrate/schema'
import { op } from './define'
import { runCountsSchema } from './run-operations'

/** Seed of the paired bootstrap intervals of a fit's evaluation. */
const bootstrapSeed = z.number().int().min(0).max(0xffffffff).optional()

export const reportableInstrumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  item_kind: z.string(),
  n_annotations: z.number().int(),
  n_calls: z.number().int(),
  n_labelled_items: z.number().int()
})
export type ReportableInstrument = z.infer<typeof reportableInstrumentSchema>

/** Operations of the audit (merged into the one contract in operations.ts). */
export const reportOperations = {
  'report.instruments': op({
    input: z.object({}).strict(),
    output: z.object({ instruments: z.array(reportableInstrumentSchema), splits: z.array(z.string()) }),
    access: 'curator',
    summary: 'Instruments with answers, judge calls or labelled items to report on, and the splits present'
  }),
  'report.build': op({
    input: z
      .object({
        instrument: z.string().min(1).max(100),
        split: splitSchema.optional(),
        seed: z.number().int().min(0).max(0xffffffff).optional(),
        resamples: z.number().int().min(MIN_BOOTSTRAP_RESAMPLES).max(MAX_BOOTSTRAP_RESAMPLES).optional(),
        /** Keep only these judges (source ids); people and criteria always stay. */
        sources: z.array(z.string().min(1).max(300)).min(1).max(500).optional(),
        /** hypothesis-match: the cross-company panel's members (judge names, `run:<id>`, `model:<name>`); default: the newest judge of each company. */
        panel: z.array(z.string().min(1).max(300)).min(1).max(50).optional(),
        /** Also report archived runs and runs of archived judges. */
        includeArchived: z.boolean().optional(),
        /** Names the computation for progress events and `report.cancel`; a new request under the same id replaces it. */
        requestId: z.string().min(1).max(100).optional()
      })
      .strict(),
    output: reportSchema,
    access: 'curator',
    summary: 'The audit report of one instrument: every source against every criterion, with denominators, baselines and intervals'
  }),
  'report.calibrate': op({
    input: z
      .object({
        instrument: z.string().min(1).max(100),
        /** The judge: `run:<id>`, a run id, `model:<name>` or a judge's name. */
        source: z.string().min(1).max(300),
        method: z.enum(['both-orders', 'platt', 'isotonic', 'threshold']),
        criterion: z.string().min(1).max(300).optional(),
        field: z.string().min(1).max(100).optional(),
        target: z.string().min(1).max(100).optional(),
        positive: z.string().min(1).max(100).optional(),
        rule: z.enum(['conservative', 'average']).optional(),
        metric: z.enum(['balanced_accuracy', 'accuracy', 'f1', 'youden']).optional(),
        fitSplit: splitSchema.optional(),
        evalSplit: splitSchema.optional(),
        seed: bootstrapSeed
      })
      .strict(),
    output: z.object({
      fits: z.array(calibrationRowSchema),
      /** Fits already stored with the same specification, fit items and parameters: evaluated again, not stored twice. */
      already_stored: z.array(z.number().int())
    }),
    access: 'curator',
    summary: 'Fit a recalibration of a judge on the fit split (never test), store it (unless the same fit is stored already), and evaluate it on the eval split'
  }),
  'report.calibrateFewShot': op({
    input: z
      .object({
        instrument: z.string().min(1).max(100),
        source: z.string().min(1).max(300),
        criterion: z.string().min(1).max(300).optional(),
        target: z.string().min(1).max(100).optional(),
        fitSplit: splitSchema.optional(),
        evalSplit: splitSchema.optional(),
        /** Labelled examples of the fit split put in the prompt, chosen stratified by label. */
        shots: z.number().int().min(1).max(64).optional(),
        /** Seed of the choice of examples (default: the project's seed). */
        shotSeed: z.string().min(1).max(200).optional(),
        seed: bootstrapSeed
      })
      .strict(),
    output: z.object({
      fits: z.array(calibrationRowSchema),
      /** The run that asked the judge with the few-shot template on the eval split (resumable like any run). */
      run: z.object({ runId: z.number().int(), outcome: z.enum(['done', 'cancelled', 'failed']), fatal: z.string().nullable(), counts: runCountsSchema }),
      /** The fit already stored with the same specification and examples: its run resumed, nothing made again. */
      already_stored: z.array(z.number().int())
    }),
    access: 'curator',
    summary: 'Few-shot recalibration: labelled fit-split examples in a new version of the prompt, the judge run with it on the eval split, and compared'
  }),
  'report.cancel': op({
    input: z.object({ requestId: z.string().min(1).max(100) }).strict(),
    output: z.object({ cancelled: z.boolean() }),
    access: 'curator',
    summary: 'Stop a report being computed (by its request id)'
  })
} as const

/** Progress of a report computed off the main thread (pushed as the `report.progress` event). */
export const reportProgressSchema = z.object({
  requestId: z.string(),
  phase: z.enum(['reading', 'computing', 'resampling']),
  step: z.number().int(),
  steps: z.number().int(),
  detail: z.string()
})
