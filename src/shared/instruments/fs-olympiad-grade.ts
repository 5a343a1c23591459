import { z } from 'zod'
import { identity, YES_NO_KEYS } from './common'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Is an olympiad-track answer equivalent to the reference answer (FrontierScience, olympiad grader)? The reference
 * answer and the response are what graders compare, so both are shown; who wrote the response is not.
 */

/** The equivalence rule of the source grader, verbatim. */
export const OLYMPIAD_EQUIVALENCE = `The reference answer is either a single number or expression in latex formatting, a chemical
formula, a compound name, or a phrase referring to a specific name, entity, or method.
Mark the attempted answer as correct if it fully matches the reference answer or is otherwise
equivalent (e.g., an equivalent algebraic expression, a numerical number within 1 decimal
place rounding of the reference answer (e.g., 6.69 ≈ 6.7), an equivalent name for a compound/formula,
equivalent when accounting for units, etc.). Mark it as incorrect if it is not equivalent to the reference answer.`

export const fsOlympiadGradeJudgement = z.lazy(() => z.object({
  correct: z.boolean(),
  rationale: z.string().optional()
}))
export type FsOlympiadGradeJudgement = z.infer<typeof fsOlympiadGradeJudgement>

export const fsOlympiadGrade: Instrument<'fs-problem', FsOlympiadGradeJudgement> = {
  id: 'fs-olympiad-grade',
  version: 1,
  title: 'Correct answer (olympiad track)',
  description: 'Decide whether the attempted answer matches the reference answer or is equivalent to it.',
  itemKind: 'fs-problem',
  accepts: (payload) => payload.track === 'olympiad',
  grades: 'response',
  judgement: fsOlympiadGradeJudgement,
  fields: [{ name: 'correct', label: 'Correct', level: 'nominal', categories: [false, true] }],
  form: {
    rubric: OLYMPIAD_EQUIVALENCE,
    widgets: [
      { kind: 'boolean', field: 'correct', label: 'Correct', ...YES_NO_KEYS },
      { kind: 'text', field: 'rationale', label: 'Reasoning', multiline: true, optional: true }
    ],
    empty: () => ({ correct: null, rationale: '' })
  },
  templates: ['fs-olympiad-grade'],
  blind(payload) {
    return {
      view: {
        subject: payload.subject ?? null,
        problem: payload.problem,
        reference_answer: payload.answer,
        response: payload.response ?? null
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check(_j, payload): JudgementIssue[] {
    return payload.track === 'olympiad' ? [] : [{ path: '', message: 'This grade applies to olympiad-track problems.' }]
  },
  observe(j): Observation[] {
    return [{ unit: 'response', values: { correct: j.correct } }]
  },
  // "VERDICT: CORRECT" / "VERDICT: INCORRECT"; anything else is left for the schema to refuse.
  fromModelAnswer(parsed) {
    if (typeof parsed !== 'string') return parsed
    const verdict = parsed.trim().toUpperCase()
    return verdict === 'CORRECT' ? { correct: true } : verdict === 'INCORRECT' ? { correct: false } : parsed
  }
}
