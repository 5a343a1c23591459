import { z } from 'zod'
import { containsSpan, identity } from './common'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * How much a research question already tells a proposer about the hidden reference finding (hypothesis benchmark,
 * cue rating). The rater sees the question, the background and the reference; the rubric is the source's, verbatim.
 * `score` rates the question alone, `input_score` background plus question, `alternative_score` the adjacent
 * category where the rating is genuinely ambiguous.
 */

/** The cue rubric, verbatim (Markdown included): inserted unchanged into the model request and shown to raters. */
export const CUE_RUBRIC = `Rate overlap of the question with the hidden reference, not biological plausibility or whether the question is grammatically closed. The rating measures how much the search is constrained; it is not a determination that a task violates the benchmark protocol. A feature may be legitimate prior knowledge.

- **0, phenomenon only:** identifies the organism, disease, measured outcome or phenomenon to explain, with no proposed explanatory class or intervention. Generic words such as molecular mechanism, causal mechanism or ageing do not count as cues.
- **1, explanatory class:** specifies a broad source, process, compartment or explanatory family matching the reference, or an upstream exposure-to-phenotype relation. The identifying mediator, intervention or causal mechanism must still be supplied.
- **2, substantive answer supplied in part:** states a concrete intervention or specific mechanistic element with its expected directional effect; names reference-specific molecular nodes to connect; or supplies a restrictive multi-part causal pattern for which affirming the relation and identifying an unnamed actor would recover the central reference claim. Unknown mediators still prevent treating this as a complete answer.`

/** The source's recording instructions that apply to every task (its run-specific disclosures are left out). */
export const CUE_RECORDING = 
  'For every task record the exact cue excerpt, a rationale and what remains hidden. Record `input_score` for background plus question using the same rubric. Record `alternative_score` for genuine adjacent-category ambiguity before looking at outcomes. Do not revise scores to improve a correlation.'

const cueLevel = z.lazy(() => z.union([z.literal(0), z.literal(1), z.literal(2)]))
const CUE_ANCHORS = { 0: 'phenomenon only', 1: 'explanatory class', 2: 'substantive answer supplied in part' }

export const cueRatingJudgement = z.lazy(() => z.object({
  score: cueLevel,
  input_score: cueLevel,
  alternative_score: cueLevel,
  /** Exact words of the question that carry the cue, or empty. */
  cue_excerpt: z.string(),
  rationale: z.string(),
  hidden: z.string()
}))
export type CueRatingJudgement = z.infer<typeof cueRatingJudgement>

export const cueRating: Instrument<'research-question', CueRatingJudgement> = {
  id: 'cue-rating',
  // 2: rationale and what remains hidden are required of raters, the excerpt whenever a cue is rated present.
  version: 2,
  title: 'Cue in the research question',
  description: 'Rate how much the question, and the background plus the question, constrain the search for the hidden finding.',
  itemKind: 'research-question',
  judgement: cueRatingJudgement,
  fields: [
    { name: 'score', label: 'Question score', level: 'ordinal', categories: [0, 1, 2] },
    { name: 'input_score', label: 'Background + question score', level: 'ordinal', categories: [0, 1, 2] },
    { name: 'alternative_score', label: 'Alternative score', level: 'ordinal', categories: [0, 1, 2] }
  ],
  form: {
    rubric: `${CUE_RUBRIC}\n\n${CUE_RECORDING}`,
    widgets: [
      { kind: 'scale', field: 'score', label: 'Score (question)', min: 0, max: 2, anchors: CUE_ANCHORS },
      {
        kind: 'quote',
        field: 'cue_excerpt',
        label: 'Cue excerpt (exact words of the question)',
        source: ['question'],
        // The protocol records the excerpt whenever a cue is present; a score of 0 means there is none to quote.
        requiredWhen: { field: 'score', in: [1, 2], says: 'required when a cue is present (score 1 or 2)' }
      },
      { kind: 'scale', field: 'input_score', label: 'Input score (background + question)', min: 0, max: 2, anchors: CUE_ANCHORS },
      { kind: 'scale', field: 'alternative_score', label: 'Alternative score', min: 0, max: 2, anchors: CUE_ANCHORS },
      { kind: 'text', field: 'rationale', label: 'Rationale (one sentence)' },
      { kind: 'text', field: 'hidden', label: 'What remains hidden', multiline: true }
    ],
    empty: () => ({ score: null, input_score: null, alternative_score: null, cue_excerpt: '', rationale: '', hidden: '' })
  },
  templates: ['cue-rating'],
  blind(payload) {
    const keyPoints = Array.isArray(payload.key_points) ? payload.key_points.filter((k) => typeof k === 'string') : []
    return {
      view: {
        background: payload.background ?? '',
        question: payload.question,
        reference: { finding: payload.reference_answer ?? null, key_points: keyPoints }
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check(j, payload): JudgementIssue[] {
    const excerpt = j.cue_excerpt.trim()
    if (!excerpt) {
      // A cue rated above 0 sits in the question, so its words can be quoted.
      return j.score > 0 ? [{ path: 'cue_excerpt', message: 'A score above 0 needs the cue excerpt.' }] : []
    }
    return containsSpan(payload.question, excerpt)
      ? []
      : [{ path: 'cue_excerpt', message: 'The cue excerpt must be exact words of the question.' }]
  },
  observe(j, payload): Observation[] {
    return [
      {
        unit: payload.question_id,
        values: { score: j.score, input_score: j.input_score, alternative_score: j.alternative_score }
      }
    ]
  }
}
