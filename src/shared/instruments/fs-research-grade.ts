import { z } from 'zod'
import type { FsProblem, RubricItem } from '../items/kinds'
import { identity } from './common'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Points of a research-track answer against its rubric (FrontierScience, research grader). The rubric is the gold
 * standard; it totals 10 points and an answer succeeds at 7 or more. A person grades item by item (`points`, in
 * rubric order) and confirms the total; a model grader's `VERDICT: <points>` gives the total alone.
 *
 * The problem, the rubric and the response are shown; who wrote the response is not.
 */

/** The grading rule of the source grader, verbatim (its spelling kept). */
export const RESEARCH_GRADING_RULE = `Evaluate the attemped answer against the provided rubric. Pay close attention to detail and
grade it strictly, but fairly. Only evaluate against the rubric, as you yourself should not make
any judgements (e.g., even if you think the answer is correct but rubric is wrong, you should
treat the rubric as the gold standard).`

export const RESEARCH_MAX_POINTS = 10
export const RESEARCH_PASS_POINTS = 7
// Totals are decimals typed by hand or summed in floating point.
const SUM_TOLERANCE = 1e-6

export const fsResearchGradeJudgement = z.lazy(() => z.object({
  /** Points per rubric item, in the rubric's order; absent when only a total was given. */
  points: z.array(z.number().min(0)).optional(),
  total: z.number().min(0).max(RESEARCH_MAX_POINTS),
  rationale: z.string().optional()
}))
export type FsResearchGradeJudgement = z.infer<typeof fsResearchGradeJudgement>

export function rubricOf(problem: FsProblem): RubricItem[] {
  if (!problem.rubric?.length) {
    throw new Error('A research-track problem needs its parsed rubric in payload.rubric.')
  }
  return problem.rubric
}

export const fsResearchGrade: Instrument<'fs-problem', FsResearchGradeJudgement> = {
  id: 'fs-research-grade',
  version: 1,
  title: 'Rubric points (research track)',
  description:
    'Grade the response strictly but fairly against the rubric only, item by item. The rubric totals 10 points; ' +
    `${RESEARCH_PASS_POINTS} or more is a success.`,
  itemKind: 'fs-problem',
  accepts: (payload) => payload.track === 'research',
  grades: 'response',
  judgement: fsResearchGradeJudgement,
  fields: [
    { name: 'total', label: 'Total points', level: 'interval' },
    { name: 'passed', label: `Passed (≥ ${RESEARCH_PASS_POINTS})`, level: 'nominal', categories: [false, true], derivedFrom: { field: 'total', atLeast: RESEARCH_PASS_POINTS } }
  ],
  form: {
    rubric: RESEARCH_GRADING_RULE,
    widgets: [
      {
        kind: 'rubric',
        field: 'points',
        label: 'Points per rubric item',
        source: 'rubric',
        maxTotal: RESEARCH_MAX_POINTS,
        passAt: RESEARCH_PASS_POINTS
      },
      { kind: 'number', field: 'total', label: 'Total points', min: 0, max: RESEARCH_MAX_POINTS, step: 0.1 },
      { kind: 'text', field: 'rationale', label: 'Reasoning per rubric item', multiline: true, optional: true }
    ],
    empty: (view) => {
      const items = Array.isArray(view.rubric) ? view.rubric : []
      // Blank, not zero: an untouched rubric must not pass as a valid 0-point grade.
      return { points: items.map(() => null), total: null, rationale: '' }
    }
  },
  templates: ['fs-research-grade'],
  blind(payload) {
    return {
      view: {
        subject: payload.subject ?? null,
        problem: payload.problem,
        rubric: rubricOf(payload).map((r) => ({ points: r.points, item: r.item })),
        response: payload.response ?? null
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check(j, payload): JudgementIssue[] {
    if (payload.track !== 'research') return [{ path: '', message: 'This grade applies to research-track problems.' }]
    if (!j.points) return []
    const rubric = payload.rubric ?? []
    const issues: JudgementIssue[] = []
    if (j.points.length !== rubric.length) {
      issues.push({ path: 'points', message: `Give points for each of the ${rubric.length} rubric items.` })
    }
    j.points.forEach((p, i) => {
      const max = rubric[i]?.points
      if (max !== undefined && p > max + SUM_TOLERANCE) {
        issues.push({ path: `points.${i}`, message: `At most ${max} points for this item.` })
      }
    })
    const sum = j.points.reduce((a, b) => a + b, 0)
    if (sum > RESEARCH_MAX_POINTS + SUM_TOLERANCE) {
      issues.push({ path: 'points', message: `The points add up to ${round(sum)}, over ${RESEARCH_MAX_POINTS}.` })
    }
    if (Math.abs(sum - j.total) > SUM_TOLERANCE) {
      issues.push({ path: 'total', message: `The total must be the sum of the item points (${round(sum)}).` })
    }
    return issues
  },
  observe(j): Observation[] {
    return [{ unit: 'response', values: { total: j.total, passed: j.total >= RESEARCH_PASS_POINTS } }]
  },
  // "VERDICT: <total_points>" gives the total alone; a non-number is left for the schema to refuse.
  fromModelAnswer(parsed) {
    if (typeof parsed === 'number') return { total: parsed }
    if (typeof parsed === 'string' && /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(parsed)) return { total: Number(parsed) }
    return parsed
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
