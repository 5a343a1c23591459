import { z } from 'zod'
import { identity, YES_NO_KEYS } from './common'
import type { Instrument, Observation } from './types'

/**
 * Do two statements of a paper's main finding agree (hypothesis benchmark, reference comparison)? Reader A and
 * reader B keep their places: the questions are not symmetric (B adds / B omits) and `differences` is free text
 * that names them. Which model composed each reference is not shown, nor the abstract (the source request has none).
 */

export const REFERENCE_FLAGS = [
  'same_core_finding',
  'same_mechanism_or_target',
  'same_direction_of_effect',
  'b_adds_elements',
  'b_omits_elements'
] as const

const FLAG_LABELS: Record<(typeof REFERENCE_FLAGS)[number], string> = {
  same_core_finding: 'Same core finding',
  same_mechanism_or_target: 'Same mechanism or target',
  same_direction_of_effect: 'Same direction of effect',
  b_adds_elements: 'B adds elements',
  b_omits_elements: 'B omits elements'
}

export const referenceComparisonJudgement = z.lazy(() => z.object({
  same_core_finding: z.boolean(),
  same_mechanism_or_target: z.boolean(),
  same_direction_of_effect: z.boolean(),
  b_adds_elements: z.boolean(),
  b_omits_elements: z.boolean(),
  /** One or two sentences, or empty. */
  differences: z.string()
}))
export type ReferenceComparisonJudgement = z.infer<typeof referenceComparisonJudgement>

export const referenceComparison: Instrument<'reference-pair', ReferenceComparisonJudgement> = {
  id: 'reference-comparison',
  version: 1,
  title: 'Two versions of a reference',
  description: 'Compare two readers’ statements of the main experimentally confirmed finding of the same paper.',
  itemKind: 'reference-pair',
  judgement: referenceComparisonJudgement,
  fields: REFERENCE_FLAGS.map((name) => ({
    name,
    label: FLAG_LABELS[name],
    level: 'nominal' as const,
    categories: [false, true]
  })),
  form: {
    widgets: [
      ...REFERENCE_FLAGS.map((name) => ({ kind: 'boolean' as const, field: name, label: FLAG_LABELS[name], ...YES_NO_KEYS })),
      { kind: 'text', field: 'differences', label: 'Differences (one or two sentences, or empty)', multiline: true, optional: true }
    ],
    empty: () => ({ ...Object.fromEntries(REFERENCE_FLAGS.map((f) => [f, null])), differences: '' })
  },
  templates: ['reference-comparison'],
  blind(payload) {
    return {
      view: {
        reader_a: { finding: payload.reference_a.finding, key_points: payload.reference_a.key_points },
        reader_b: { finding: payload.reference_b.finding, key_points: payload.reference_b.key_points }
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check: () => [],
  observe(j): Observation[] {
    return [{ unit: 'pair', values: Object.fromEntries(REFERENCE_FLAGS.map((f) => [f, j[f]])) }]
  }
}
