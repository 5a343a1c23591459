import { z } from 'zod'
import type { HypothesisSet } from '../items/kinds'
import { attachedTask, distinctIds, listOfText, quoteFragmentsIn, unitCoverageIssues, YES_NO_KEYS } from './common'
import { hypothesisUnit, labelHypotheses, mapUnitIds, unitIdsOf } from './hypothesis-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Forecast of experimental support for each hypothesis of a set (hypothesis benchmark, detailed instruction,
 * protocol "experimental-support-v1"). Forecasters see the background, the question and the hypotheses labelled
 * H1..Hn in a seeded per-viewer order; never the reference, the judges' scores, the generator or the scheme.
 * The task comes with the set as `payload.task` (its background and question are used, nothing else).
 */

export const FORECAST_PROTOCOL = 'experimental-support-v1'

/** The parts of the source instruction that define the fields, verbatim. */
export const FORECAST_GUIDANCE = `Assess EVERY hypothesis independently. Several different mechanisms may be supported, and none may be supported. There is no required number of recommendations and no requirement to recommend one hypothesis per question.

For each hypothesis estimate p_experimental_support between 0 and 1: your probability that a well-controlled discriminating experiment, competently performed in the species, tissue and scope stated in the hypothesis, would support its central causal claim. Evaluate that claim itself, including a plausible alternative mechanism. This is a subjective scientific forecast, not an observed frequency. If the supplied information cannot justify any numerical estimate, return null and explain the missing information.

Give recommend_for_testing as a separate boolean: would you advise a researcher to spend experimental resources testing this hypothesis now, given its scientific support, testability, assumptions and contradictions? You may recommend multiple hypotheses or none. A recommendation is not a guarantee of success. A numerical estimate is required for a positive recommendation. The comparison will retain your recommendation exactly as issued.

Use the existing scientific considerations: a specific causal chain; consistency with established biology; a feasible discriminating test; fit to the stated question and system; few unsupported assumptions. Novelty is descriptive and is not evidence for or against a claim. Ignore prose style, length, tone, gene-name density and the anonymous candidate order. Do not guess the contents of an undisclosed article or predict another evaluator's score.`

const testSchema = z.lazy(() => z.object({
  intervention: z.string(),
  measurement: z.string(),
  controls: z.string(),
  supports_if: z.string(),
  refutes_if: z.string()
}))

const forecastSchema = z.lazy(() => z
  .object({
    id: z.string().min(1),
    p_experimental_support: z.number().min(0).max(1).nullable(),
    recommend_for_testing: z.boolean(),
    /** Literal quotes of the background only. */
    support_from_background: z.array(z.string()),
    assumptions: z.array(z.string()),
    contradictions: z.array(z.string()),
    reason: z.string(),
    test: testSchema
  })
  .superRefine((f, ctx) => {
    if (f.recommend_for_testing && f.p_experimental_support === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['recommend_for_testing'],
        message: 'A numerical estimate is required for a positive recommendation.'
      })
    }
  }))

export const forecastDetailedJudgement = z.lazy(() => z.object({
  protocol: z.literal(FORECAST_PROTOCOL).default(FORECAST_PROTOCOL),
  forecasts: z.array(forecastSchema).min(1).superRefine(distinctIds)
}))
export type ForecastDetailedJudgement = z.infer<typeof forecastDetailedJudgement>

export const forecastDetailed: Instrument<'hypothesis-set', ForecastDetailedJudgement> = {
  id: 'forecast-detailed',
  version: 1,
  title: 'Forecast of experimental support',
  description:
    'For each hypothesis, the probability that a discriminating experiment would support it, whether to test it ' +
    'now, the literal support in the background, assumptions, contradictions and the test you would run.',
  itemKind: 'hypothesis-set',
  judgement: forecastDetailedJudgement,
  fields: [
    { name: 'p_experimental_support', label: 'P(experimental support)', level: 'probability' },
    { name: 'recommend_for_testing', label: 'Recommend for testing', level: 'nominal', categories: [false, true] }
  ],
  form: {
    rubric: FORECAST_GUIDANCE,
    widgets: [
      {
        kind: 'units',
        field: 'forecasts',
        label: 'Candidate hypotheses',
        unitsFrom: 'hypotheses',
        unitIdField: 'id',
        widgets: [
          {
            kind: 'number',
            field: 'p_experimental_support',
            label: 'Probability that a discriminating experiment supports it, 0 to 1 (empty when no estimate is justified)',
            min: 0,
            max: 1,
            step: 0.01,
            nullable: true,
            requiredWhen: { field: 'recommend_for_testing', in: [true], says: 'required when you recommend testing' }
          },
          { kind: 'boolean', field: 'recommend_for_testing', label: 'Recommend for testing now', ...YES_NO_KEYS },
          {
            kind: 'quote',
            field: 'support_from_background',
            label: 'Support from the background (literal quotes)',
            source: ['background'],
            many: true,
            optional: true
          },
          listOfText('assumptions', 'Additional assumptions', 'Assumption'),
          listOfText('contradictions', 'Contradictions', 'Contradiction'),
          { kind: 'text', field: 'reason', label: 'Short justification', multiline: true },
          { kind: 'text', field: 'test.intervention', label: 'Test: intervention' },
          { kind: 'text', field: 'test.measurement', label: 'Test: measured readout' },
          { kind: 'text', field: 'test.controls', label: 'Test: necessary controls' },
          { kind: 'text', field: 'test.supports_if', label: 'Supports the claim if' },
          { kind: 'text', field: 'test.refutes_if', label: 'Refutes the claim if' }
        ]
      }
    ],
    empty: (view) => ({
      protocol: FORECAST_PROTOCOL,
      forecasts: unitIdsOf(view).map((id) => ({
        id,
        p_experimental_support: null,
        // Unanswered until the forecaster says yes or no: a preset answer would be recorded as theirs.
        recommend_for_testing: null,
        support_from_background: [],
        assumptions: [],
        contradictions: [],
        reason: '',
        test: { intervention: '', measurement: '', controls: '', supports_if: '', refutes_if: '' }
      }))
    })
  },
  templates: ['forecast-detailed'],
  blind(payload, ctx) {
    const task = attachedTask(payload, 'task')
    const labelled = labelHypotheses(payload, ctx, 'H')
    return {
      view: { background: task.background, question: task.question, hypotheses: labelled.hypotheses },
      display: labelled.display
    }
  },
  toCanonical: (j, display) => ({ ...j, forecasts: mapUnitIds(j.forecasts, display, 'H', 'toCanonical') }),
  toDisplay: (j, display) => ({ ...j, forecasts: mapUnitIds(j.forecasts, display, 'H', 'toDisplay') }),
  check(j, payload): JudgementIssue[] {
    const background = attachedTask(payload, 'optional').background
    const issues = unitCoverageIssues(
      j.forecasts.map((f) => f.id),
      payload.hypotheses.map((h) => h.id),
      'forecasts'
    )
    j.forecasts.forEach((f, i) => {
      if (f.recommend_for_testing && f.p_experimental_support === null) {
        issues.push({
          path: `forecasts.${i}.recommend_for_testing`,
          message: 'A numerical estimate is required for a positive recommendation.'
        })
      }
      f.support_from_background.forEach((quote, k) => {
        if (!quoteFragmentsIn([background], quote)) {
          issues.push({
            path: `forecasts.${i}.support_from_background.${k}`,
            message: 'Support must be a literal quote of the background.'
          })
        }
      })
    })
    return issues
  },
  observe(j, payload: HypothesisSet): Observation[] {
    return j.forecasts.map((f) => ({
      unit: hypothesisUnit(payload, f.id),
      values: { p_experimental_support: f.p_experimental_support, recommend_for_testing: f.recommend_for_testing }
    }))
  }
}
