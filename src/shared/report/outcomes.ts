/**
 * The binary outcome a probability field is scored against (Brier, log loss, calibration, AUROC), per instrument.
 * A probability of an event is scored against the criterion's answer about that event; a confidence in one's own
 * answer is scored against whether that answer agrees with the criterion's.
 */
export type OutcomeRule =
  /** The criterion's value of a boolean field of the same unit, e.g. p_same_study against same_study. */
  | { kind: 'criterion_field'; field: string }
  /** Whether the source's value of a field equals the criterion's, e.g. confidence against same_study. */
  | { kind: 'correctness'; field: string }

export const PROBABILITY_OUTCOMES: Readonly<Record<string, Readonly<Record<string, OutcomeRule>>>> = {
  'preprint-same-study': {
    p_same_study: { kind: 'criterion_field', field: 'same_study' },
    confidence: { kind: 'correctness', field: 'same_study' }
  }
}

export function outcomeRuleFor(instrumentId: string, field: string): OutcomeRule | undefined {
  return PROBABILITY_OUTCOMES[instrumentId]?.[field]
}

/** The outcome a field's values are scored against, where it is a probability with a rule (else compared as numbers). */
export function probabilityOutcome(instrumentId: string, field: { name: string; level: string }): OutcomeRule | undefined {
  return field.level === 'probability' ? outcomeRuleFor(instrumentId, field.name) : undefined
}

export function describeOutcome(rule: OutcomeRule): string {
  return rule.kind === 'criterion_field'
    ? `${rule.field} of the criterion`
    : `whether the source's ${rule.field} agrees with the criterion's`
}
