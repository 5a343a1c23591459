import { z } from 'zod'
import type { HypothesisSet } from '../items/kinds'
import { attachedTask, distinctIds, unitCoverageIssues, YES_NO_KEYS } from './common'
import { hypothesisUnit, labelHypotheses, mapUnitIds, unitIdsOf } from './hypothesis-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Match of each hypothesis of a set with the published finding (hypothesis benchmark, judge request).
 *
 * The set does not carry its reference: the caller attaches the task as `payload.task` (background, question,
 * finding, key_points) and, to judge against a second reference, `payload.reference` ({ finding, key_points }),
 * which replaces the task's own finding. The judge sees background, question, reference and the hypotheses in a
 * seeded per-viewer order labelled P1..Pn; the answer's ids are mapped back to hypothesis ids before storage.
 */

/** The three judgements of the source, verbatim. */
export const MATCH_RUBRIC = `For each proposed hypothesis give three judgements.

1. match, an integer from 0 to 5:
5 - states the same causal finding, including every key point
4 - states the central causal finding; at most one secondary key point missing or vaguer
3 - identifies the right core mechanism or target but misses or contradicts important key points
2 - related to the finding's topic or mechanism class, but a different causal claim
1 - only loosely related
0 - unrelated, or contradicts the finding

2. compatible, true or false: could this hypothesis and the published finding both be true at the same time? A different mechanism acting alongside the finding is compatible; a claim the finding refutes is not.

3. plausibility, an integer from 1 to 5, judging the hypothesis as a scientific claim in its own right, regardless of whether it matches the finding:
5 - well supported by established biology; a strong, specific, testable explanation for the question
4 - consistent with established biology and testable; a credible competitor explanation
3 - possible but speculative or weakly connected to the question
2 - strained; relies on unsupported links
1 - conflicts with established biology or does not answer the question

Judge content only. Ignore style, length, boldness and wording.`

/** The outcome rule counts a judge's `match` of 3 or more as a match. */
export const MATCH_THRESHOLD = 3

const matchScoreSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  match: z.int().min(0).max(5),
  compatible: z.boolean(),
  plausibility: z.int().min(1).max(5),
  reason: z.string()
}))

export const hypothesisMatchJudgement = z.lazy(() => z.object({
  scores: z.array(matchScoreSchema).min(1).superRefine(distinctIds)
}))
export type HypothesisMatchJudgement = z.infer<typeof hypothesisMatchJudgement>

export const hypothesisMatch: Instrument<'hypothesis-set', HypothesisMatchJudgement> = {
  id: 'hypothesis-match',
  version: 1,
  title: 'Match with the published finding',
  description:
    'Grade each proposed hypothesis against the published finding (match 0-5, compatible) and as a scientific ' +
    'claim in its own right (plausibility 1-5).',
  itemKind: 'hypothesis-set',
  judgement: hypothesisMatchJudgement,
  fields: [
    { name: 'match', label: 'Match', level: 'ordinal', categories: [0, 1, 2, 3, 4, 5] },
    { name: 'matched', label: `Match ≥ ${MATCH_THRESHOLD}`, level: 'nominal', categories: [false, true] },
    { name: 'compatible', label: 'Compatible', level: 'nominal', categories: [false, true] },
    { name: 'plausibility', label: 'Plausibility', level: 'ordinal', categories: [1, 2, 3, 4, 5] }
  ],
  form: {
    rubric: MATCH_RUBRIC,
    widgets: [
      {
        kind: 'units',
        field: 'scores',
        label: 'Proposed hypotheses',
        unitsFrom: 'hypotheses',
        unitIdField: 'id',
        widgets: [
          {
            kind: 'scale',
            field: 'match',
            label: 'Match',
            min: 0,
            max: 5,
            anchors: { 0: 'unrelated or contradicts', 3: 'right core mechanism', 5: 'same causal finding' }
          },
          { kind: 'boolean', field: 'compatible', label: 'Compatible with the finding', ...YES_NO_KEYS },
          {
            kind: 'scale',
            field: 'plausibility',
            label: 'Plausibility',
            min: 1,
            max: 5,
            anchors: { 1: 'conflicts with biology', 3: 'speculative', 5: 'well supported' }
          },
          { kind: 'text', field: 'reason', label: 'Reason', multiline: true }
        ]
      }
    ],
    empty: (view) => ({
      scores: unitIdsOf(view).map((id) => ({ id, match: null, compatible: null, plausibility: null, reason: '' }))
    })
  },
  templates: ['match-judge'],
  blind(payload, ctx) {
    const task = attachedTask(payload, 'task+reference')
    const labelled = labelHypotheses(payload, ctx, 'P')
    return {
      view: {
        background: task.background,
        question: task.question,
        reference: task.reference,
        hypotheses: labelled.hypotheses
      },
      display: labelled.display
    }
  },
  toCanonical: (j, display) => ({ ...j, scores: mapUnitIds(j.scores, display, 'P', 'toCanonical') }),
  toDisplay: (j, display) => ({ ...j, scores: mapUnitIds(j.scores, display, 'P', 'toDisplay') }),
  check(j, payload): JudgementIssue[] {
    return unitCoverageIssues(
      j.scores.map((s) => s.id),
      payload.hypotheses.map((h) => h.id),
      'scores'
    )
  },
  observe(j, payload: HypothesisSet): Observation[] {
    return j.scores.map((s) => ({
      unit: hypothesisUnit(payload, s.id),
      values: {
        match: s.match,
        matched: s.match >= MATCH_THRESHOLD,
        compatible: s.compatible,
        plausibility: s.plausibility
      }
    }))
  }
}
