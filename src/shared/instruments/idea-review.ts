import { z } from 'zod'
import { identity } from './common'
import type { Instrument, Observation } from './types'

/**
 * Originality, feasibility and clarity of one idea, 1 to 10 each (LiveIdeaBench reviewer, as adapted in the
 * hypothesis benchmark). Only the idea is shown: never its generator, its keywords' critic or earlier scores.
 */

/** The dimensions and scale of the source reviewer, verbatim. */
export const IDEA_REVIEW_RUBRIC = `1. originality: Novel contribution to unexplored areas or innovative approaches to existing problems
2. feasibility: Technical implementation and practicality
3. clarity: How well-articulated and easy to understand the idea is

First, provide your brief analysis (less than 100 words) of the idea. Then, for each dimension, provide a score from 1 to 10 where 1-3 = poor, 4-6 = average, 7-10 = excellent.`

const tenPoint = z.lazy(() => z.int().min(1).max(10))
const TEN_POINT_CATEGORIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const TEN_POINT_ANCHORS = { 1: 'poor', 4: 'average', 7: 'excellent' }

export const ideaReviewJudgement = z.lazy(() => z.object({
  originality: tenPoint,
  feasibility: tenPoint,
  clarity: tenPoint,
  /** The short analysis that precedes the scores. */
  analysis: z.string().optional()
}))
export type IdeaReviewJudgement = z.infer<typeof ideaReviewJudgement>

export const ideaReview: Instrument<'idea', IdeaReviewJudgement> = {
  id: 'idea-review',
  version: 1,
  title: 'Review of an idea',
  description: 'Score one scientific idea for originality, feasibility and clarity, 1 (poor) to 10 (excellent).',
  itemKind: 'idea',
  judgement: ideaReviewJudgement,
  fields: [
    { name: 'originality', label: 'Originality', level: 'ordinal', categories: TEN_POINT_CATEGORIES },
    { name: 'feasibility', label: 'Feasibility', level: 'ordinal', categories: TEN_POINT_CATEGORIES },
    { name: 'clarity', label: 'Clarity', level: 'ordinal', categories: TEN_POINT_CATEGORIES }
  ],
  form: {
    rubric: IDEA_REVIEW_RUBRIC,
    widgets: [
      { kind: 'text', field: 'analysis', label: 'Brief analysis (under 100 words)', multiline: true, optional: true },
      // On a 1..10 scale the key 0 stands for 10.
      { kind: 'scale', field: 'originality', label: 'Originality', min: 1, max: 10, anchors: TEN_POINT_ANCHORS },
      { kind: 'scale', field: 'feasibility', label: 'Feasibility', min: 1, max: 10, anchors: TEN_POINT_ANCHORS },
      { kind: 'scale', field: 'clarity', label: 'Clarity', min: 1, max: 10, anchors: TEN_POINT_ANCHORS }
    ],
    empty: () => ({ originality: null, feasibility: null, clarity: null, analysis: '' })
  },
  templates: ['idea-review'],
  blind(payload) {
    return { view: { idea: payload.idea }, display: {} }
  },
  toCanonical: identity,
  toDisplay: identity,
  check: () => [],
  observe(j): Observation[] {
    return [{ unit: 'idea', values: { originality: j.originality, feasibility: j.feasibility, clarity: j.clarity } }]
  }
}
