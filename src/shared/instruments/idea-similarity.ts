import { z } from 'zod'
import { SIMILARITY_LETTERS, similarityScore, type SimilarityLetter } from '../protocol'
import { caseInsensitiveEnum, identity } from './common'
import type { Instrument, Observation } from './types'

/**
 * How similar two ideas on one keyword are, as one letter A-D (LiveIdeaBench similarity request), scored
 * A=10, B=7, C=4, D=1. The question is symmetric, so the ideas keep their order.
 */

/** The answer options of the source, verbatim. */
export const SIMILARITY_OPTIONS: Record<SimilarityLetter, string> = {
  A: 'Completely different ideas addressing different problems, despite relating to the same keyword.',
  B: 'Different ideas but addressing similar problems.',
  C: 'Similar ideas addressing similar or identical problems.',
  D: 'Academically identical ideas with the same core approach and problem statement.'
}

export const ideaSimilarityJudgement = z.lazy(() => z.object({ letter: caseInsensitiveEnum(SIMILARITY_LETTERS) }))
export type IdeaSimilarityJudgement = z.infer<typeof ideaSimilarityJudgement>

export const ideaSimilarity: Instrument<'idea-pair', IdeaSimilarityJudgement> = {
  id: 'idea-similarity',
  version: 1,
  title: 'Similarity of two ideas',
  description: 'Evaluate the similarity between two ideas that relate to the same keyword.',
  itemKind: 'idea-pair',
  judgement: ideaSimilarityJudgement,
  fields: [
    { name: 'letter', label: 'Answer', level: 'ordinal', categories: SIMILARITY_LETTERS },
    { name: 'score', label: 'Similarity score', level: 'interval', categories: [10, 7, 4, 1] }
  ],
  form: {
    widgets: [
      {
        kind: 'choice',
        field: 'letter',
        label: 'Similarity',
        options: SIMILARITY_LETTERS.map((l) => ({ value: l, label: `${l}. ${SIMILARITY_OPTIONS[l]}`, key: l.toLowerCase() }))
      }
    ],
    empty: () => ({ letter: null })
  },
  templates: ['idea-similarity'],
  blind(payload) {
    const keywords = Array.isArray(payload.keywords) ? payload.keywords.join(', ') : (payload.keywords ?? null)
    return { view: { keyword: keywords, first: payload.idea_a, second: payload.idea_b }, display: {} }
  },
  toCanonical: identity,
  toDisplay: identity,
  check: () => [],
  observe(j): Observation[] {
    return [{ unit: 'pair', values: { letter: j.letter, score: similarityScore(j.letter) } }]
  },
  // The answer is a single letter.
  fromModelAnswer: (parsed) => (typeof parsed === 'string' ? { letter: parsed } : parsed)
}
