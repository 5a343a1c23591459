import { z } from 'zod'
import { identity, YES_NO_KEYS } from './common'
import type { Instrument, Observation } from './types'

/**
 * Is a preprint an earlier version of a published paper, the same study whose results the paper reports
 * (hypothesis benchmark, preprint check)? Titles, authors and abstracts of both are shown; nothing else.
 */

export const SAME_STUDY_QUESTION =
  'Is the preprint an earlier version of this paper, that is the same study whose results the paper reports? ' +
  'A different paper by the same group on a related topic is NOT the same study.'

export const preprintSameStudyJudgement = z.lazy(() => z.object({
  same_study: z.boolean(),
  confidence: z.number().min(0).max(1),
  reason: z.string()
}))
export type PreprintSameStudyJudgement = z.infer<typeof preprintSameStudyJudgement>

function paperView(paper: Record<string, unknown>) {
  const authors = paper.authors
  return {
    title: typeof paper.title === 'string' ? paper.title : '',
    authors: typeof authors === 'string' || Array.isArray(authors) ? authors : null,
    abstract: typeof paper.abstract === 'string' ? paper.abstract : ''
  }
}

export const preprintSameStudy: Instrument<'preprint-pair', PreprintSameStudyJudgement> = {
  id: 'preprint-same-study',
  version: 1,
  title: 'Preprint of the same study',
  description: 'Decide whether the preprint is an earlier version of the same study as the published paper.',
  itemKind: 'preprint-pair',
  judgement: preprintSameStudyJudgement,
  fields: [
    { name: 'same_study', label: 'Same study', level: 'nominal', categories: [false, true] },
    { name: 'confidence', label: 'Confidence', level: 'probability' },
    // The stated confidence turned into a probability of "same study", for calibration.
    { name: 'p_same_study', label: 'P(same study)', level: 'probability' }
  ],
  form: {
    rubric: SAME_STUDY_QUESTION,
    widgets: [
      { kind: 'boolean', field: 'same_study', label: 'Same study', ...YES_NO_KEYS },
      { kind: 'number', field: 'confidence', label: 'Confidence', min: 0, max: 1, step: 0.05 },
      { kind: 'text', field: 'reason', label: 'Reason (one sentence)' }
    ],
    empty: () => ({ same_study: null, confidence: null, reason: '' })
  },
  templates: ['preprint-check'],
  blind(payload) {
    return { view: { paper: paperView(payload.paper), preprint: paperView(payload.preprint) }, display: {} }
  },
  toCanonical: identity,
  toDisplay: identity,
  check: () => [],
  observe(j): Observation[] {
    return [
      {
        unit: 'pair',
        values: {
          same_study: j.same_study,
          confidence: j.confidence,
          p_same_study: j.same_study ? j.confidence : 1 - j.confidence
        }
      }
    ]
  }
}
