import type { HypothesisSet } from '../items/kinds'
import { formatHypothesisText, labelledOrder, SHUFFLE_METHOD } from '../protocol'
import { canonicalUnitId, displayUnitLabel, viewerKey, type UnitLabelPrefix } from './common'
import type { BlindingContext } from './types'

// How the hypotheses of a set are shown to judges and forecasters: as the text
// "[statement] Mechanism: [mechanism] Prediction: [prediction]" under anonymous labels P1..Pn or H1..Hn, in a seeded
// per-viewer order. Hypothesis ids (kept in the display mapping, which stays in main), domain categories, the
// generator, its company and the scheme are not in the view.

export interface LabelledHypotheses {
  hypotheses: Array<{ id: string; text: string }>
  /** Stored with the answer: the canonical hypothesis id of each label, in label order, and the shuffle method. */
  display: { order: string[]; method: typeof SHUFFLE_METHOD }
}

/**
 * Order key `<prefix>:<viewer>:<set_id>` under the project or run seed (`<prefix>:<set_id>` for the empty viewer).
 * The label family (P or H) is part of the key, so a person who judges and forecasts the same set sees two
 * independent orders.
 */
export function labelHypotheses(set: HypothesisSet, ctx: BlindingContext, prefix: UnitLabelPrefix): LabelledHypotheses {
  const byId = new Map(set.hypotheses.map((h) => [h.id, h]))
  const ids = set.hypotheses.map((h) => h.id)
  const { shown, method } = labelledOrder(ctx.seed, `${prefix}:${viewerKey(ctx, set.set_id)}`, ids, prefix)
  return {
    hypotheses: shown.map(({ label, id }) => {
      const h = byId.get(id)
      return { id: label, text: h ? formatHypothesisText(h) : '' }
    }),
    display: { order: shown.map((s) => s.id), method }
  }
}

/** Maps the `id` of every unit of an answer between display labels and canonical hypothesis ids. */
export function mapUnitIds<U extends { id: string }>(
  units: ReadonlyArray<U>,
  display: Record<string, unknown>,
  prefix: UnitLabelPrefix,
  direction: 'toCanonical' | 'toDisplay'
): U[] {
  const map = direction === 'toCanonical' ? canonicalUnitId : displayUnitLabel
  return units.map((u) => ({ ...u, id: map(u.id, display, prefix) }))
}

/** The audit's unit of one hypothesis; shared by every instrument on hypothesis sets so their answers join. */
export function hypothesisUnit(set: HypothesisSet, hypothesisId: string): string {
  return `${set.set_id}:${hypothesisId}`
}

/** Labels of the units shown in a view, for empty drafts. */
export function unitIdsOf(view: Record<string, unknown>): string[] {
  const hypotheses = view.hypotheses
  if (!Array.isArray(hypotheses)) return []
  return hypotheses.map((h) => (h as { id?: unknown }).id).filter((id): id is string => typeof id === 'string')
}
