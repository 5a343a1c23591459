import { z } from 'zod'
import { BOTH_ORDER_RULES } from './both-orders'
import { THRESHOLD_METRICS } from './threshold'

/** Recalibration methods: each is fitted on the fit split (never test) and evaluated on the eval split. */
export const CALIBRATION_METHODS = ['both-orders', 'platt', 'isotonic', 'threshold', 'few-shot'] as const
export type CalibrationMethod = (typeof CALIBRATION_METHODS)[number]

const splitName = z.enum(['dev', 'test', 'none'])
const value = z.union([z.string(), z.number(), z.boolean()])

/**
 * The human label a fit aims at: a field of the criterion, and (for a binary event) which values count as
 * positive: one category, or numbers at least a bound. No positive on a boolean field means `true`; no positive on a
 * numeric field means the field's own scale (isotonic regression onto it).
 */
export const targetSpecSchema = z.object({
  field: z.string().min(1),
  positive: z.union([value, z.object({ at_least: z.number() })]).nullable()
})
export type TargetSpec = z.infer<typeof targetSpecSchema>

export const fitSpecSchema = z.object({
  method: z.enum(CALIBRATION_METHODS),
  instrument: z.string(),
  /** The raw source, as the report names it: `run:<id>` or `model:<name>`. */
  source: z.string(),
  /** The criterion the fit aims at, as the report names it (`label`, `adjudicated`, `human-majority`, ...). */
  criterion: z.string(),
  /** The source's numeric field read as the score (platt, isotonic, threshold); `verdict` for both-orders. */
  score_field: z.string(),
  target: targetSpecSchema,
  fit_split: splitName,
  eval_split: splitName,
  rule: z.enum(BOTH_ORDER_RULES).optional(),
  metric: z.enum(THRESHOLD_METRICS).optional()
})
export type FitSpec = z.infer<typeof fitSpecSchema>

export const fitParametersSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('platt'), a: z.number(), b: z.number(), targets: z.object({ positive: z.number(), negative: z.number() }), iterations: z.number().int() }),
  z.object({ kind: z.literal('isotonic'), output: z.enum(['probability', 'scale']), x: z.array(z.number()), y: z.array(z.number()) }),
  z.object({ kind: z.literal('threshold'), threshold: z.number(), metric: z.enum(THRESHOLD_METRICS), fit_value: z.number(), candidates: z.number().int() }),
  z.object({ kind: z.literal('both-orders'), rule: z.enum(BOTH_ORDER_RULES) }),
  z.object({
    kind: z.literal('few-shot'),
    /** The new template version (id@version) and the one it extends. */
    template: z.string(),
    base_template: z.string(),
    k: z.number().int().positive(),
    seed: z.string(),
    /** The dev items shown as examples, in the order shown, with the label each carried. */
    examples: z.array(z.object({ item: z.string(), label: z.string() })),
    /** The judge run of the new template on the eval split. */
    run_id: z.number().int().positive()
  })
])
export type FitParameters = z.infer<typeof fitParametersSchema>

/** A fit as stored in the project: what was fitted, on which items, when. */
export interface StoredFit {
  id: number
  spec: FitSpec
  parameters: FitParameters
  /** Items whose labels the fit used (empty for both-orders, which learns nothing from labels). */
  fitItems: number[]
  /**
   * Items made from the same originals as the fit items (probes of a fit item, the original of a fit probe, probes of
   * one family with it): never evidence about the fit, whatever their split. Absent when the project has no probes.
   */
  relatedItems?: number[]
  /** The fit items by the split each is in now; a count outside the fit split means a split moved them after the fit. */
  fitItemSplits?: Partial<Record<'dev' | 'test' | 'none', number>>
  nFitUnits: number
  createdAt: string
}
