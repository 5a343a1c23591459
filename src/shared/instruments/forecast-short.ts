import { z } from 'zod'
import type { HypothesisSet } from '../items/kinds'
import { attachedTask, distinctIds, unitCoverageIssues, YES_NO_KEYS } from './common'
import { hypothesisUnit, labelHypotheses, mapUnitIds, unitIdsOf } from './hypothesis-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Will each hypothesis be confirmed experimentally, yes or no (hypothesis benchmark, short question). Shown like
 * the detailed forecast: hypotheses labelled H1..Hn in a seeded per-viewer order, with the background and question
 * of `payload.task` when the set carries one; a single claim without a task is asked on its own, as in the source.
 */

const shortForecastSchema = z.lazy(() => z.object({ id: z.string().min(1), confirmed: z.boolean() }))

export const forecastShortJudgement = z.lazy(() => z.object({
  forecasts: z.array(shortForecastSchema).min(1).superRefine(distinctIds)
}))
export type ForecastShortJudgement = z.infer<typeof forecastShortJudgement>

export const forecastShort: Instrument<'hypothesis-set', ForecastShortJudgement> = {
  id: 'forecast-short',
  version: 1,
  title: 'Will it be confirmed',
  description: 'For each hypothesis, say whether it will be confirmed experimentally.',
  itemKind: 'hypothesis-set',
  judgement: forecastShortJudgement,
  fields: [{ name: 'confirmed', label: 'Confirmed', level: 'nominal', categories: [false, true] }],
  form: {
    widgets: [
      {
        kind: 'units',
        field: 'forecasts',
        label: 'Hypotheses',
        unitsFrom: 'hypotheses',
        unitIdField: 'id',
        widgets: [{ kind: 'boolean', field: 'confirmed', label: 'Will it be confirmed experimentally?', ...YES_NO_KEYS }]
      }
    ],
    empty: (view) => ({ forecasts: unitIdsOf(view).map((id) => ({ id, confirmed: null })) })
  },
  templates: ['forecast-short-set', 'forecast-short-claim'],
  blind(payload, ctx) {
    const hasTask = payload.task != null
    const task = attachedTask(payload, 'optional')
    const labelled = labelHypotheses(payload, ctx, 'H')
    return {
      view: {
        ...(hasTask ? { background: task.background, question: task.question } : {}),
        hypotheses: labelled.hypotheses
      },
      display: labelled.display
    }
  },
  toCanonical: (j, display) => ({ ...j, forecasts: mapUnitIds(j.forecasts, display, 'H', 'toCanonical') }),
  toDisplay: (j, display) => ({ ...j, forecasts: mapUnitIds(j.forecasts, display, 'H', 'toDisplay') }),
  check(j, payload): JudgementIssue[] {
    return unitCoverageIssues(
      j.forecasts.map((f) => f.id),
      payload.hypotheses.map((h) => h.id),
      'forecasts'
    )
  },
  observe(j, payload: HypothesisSet): Observation[] {
    return j.forecasts.map((f) => ({ unit: hypothesisUnit(payload, f.id), values: { confirmed: f.confirmed } }))
  }
}
