import { AssayError } from '../../shared/errors'
import type { AnyInstrument } from '../../shared/instruments'

/** The mirror image of a canonical pair verdict (a_better ↔ b_better), for the rejected side of a preference. */
export function mirroredVerdict(verdict: string): string {
  return verdict.startsWith('a_') ? `b_${verdict.slice(2)}` : verdict.startsWith('b_') ? `a_${verdict.slice(2)}` : verdict
}

/**
 * A label written as the instrument's template asks a model to answer, so a judge fine-tuned on it answers in a
 * form the instrument parses. JSON templates only: the judgement mapped to the prompt's display order (labels as
 * shown, e.g. P1..P5), pair sides in the template's capitals (`A_better`, proposal `A`).
 */
export function answerText(instrument: AnyInstrument, answerFormat: string | null, judgement: Record<string, unknown>, display: Record<string, unknown>): string {
  if (answerFormat !== 'json') {
    throw new AssayError('invalid_input', `${instrument.id} answers in the "${answerFormat ?? 'none'}" format; training exports write JSON answers only`, [
      { field: '--instrument', message: 'not a JSON-answer instrument' }
    ])
  }
  const shown = instrument.toDisplay(judgement as never, display) as Record<string, unknown>
  if (instrument.id !== 'pairwise-preference') return JSON.stringify(shown)
  const side = (s: unknown) => (typeof s === 'string' ? s.replace(/^([ab])(?=_|$)/, (m) => m.toUpperCase()) : s)
  const flaws = Array.isArray(shown.fatal_flaws) ? (shown.fatal_flaws as Array<Record<string, unknown>>) : []
  // The keys in the order the template's answer line lists them.
  return JSON.stringify({
    analysis: typeof shown.analysis === 'string' ? shown.analysis : '',
    verdict: side(shown.verdict),
    fatal_flaws: flaws.map((f) => ({ proposal: side(f.proposal), description: String(f.description ?? '') }))
  })
}
