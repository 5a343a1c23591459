import type { AnyInstrument } from '../../shared/instruments'
import { parseAnswer } from '../../shared/parse'
import type { AnswerFormat } from '../../shared/templates'

export type AnswerStatus = 'ok' | 'unparseable'

export interface Interpretation {
  status: AnswerStatus
  /** Canonical order, in the instrument's judgement schema; null when unparseable. */
  judgement: unknown
  /** Why the answer is unparseable, or notes on an accepted answer that breaks an item check. */
  error: string | null
}

// An answer that names units the item does not have, or leaves some out, cannot be normalised: like an unreadable
// answer it is a completed call that counts as wrong (IdeaEval's rule), not a failure to retry.
const COVERAGE_PATH = /^(scores|forecasts)(\.\d+\.id)?$/

function zodSummary(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(answer)'}: ${i.message}`)
    .join('; ')
}

/** Maps the anonymous id of a claim asked on its own to the H1 label its display order knows. */
function claimToLabel(candidate: unknown, claimId: string): unknown {
  if (!candidate || typeof candidate !== 'object') return candidate
  const forecasts = (candidate as { forecasts?: unknown }).forecasts
  if (!Array.isArray(forecasts)) return candidate
  return {
    ...candidate,
    forecasts: forecasts.map((f) =>
      f && typeof f === 'object' && typeof (f as { id?: unknown }).id === 'string' && (f as { id: string }).id.trim().replace(/^\[|\]$/g, '') === claimId
        ? { ...f, id: 'H1' }
        : f
    )
  }
}

/**
 * Reads a model's answer as the instrument's judgement: the template's answer format, the instrument's reading of a
 * verdict line or letter, the judgement schema, then the display order mapped back to canonical order.
 */
export function interpretAnswer(
  instrument: AnyInstrument,
  format: AnswerFormat,
  text: string,
  display: Record<string, unknown>,
  payload: Record<string, unknown>,
  truncated = false
): Interpretation {
  const cut = truncated ? ' (the answer was cut at the token limit)' : ''
  const parsed = parseAnswer(format, text)
  if (!parsed.ok) return { status: 'unparseable', judgement: null, error: `${parsed.error}${cut}` }
  let candidate = instrument.fromModelAnswer ? instrument.fromModelAnswer(parsed.value) : parsed.value
  const claimId = typeof display.claimId === 'string' ? display.claimId : null
  if (claimId) candidate = claimToLabel(candidate, claimId)
  const valid = instrument.judgement.safeParse(candidate)
  if (!valid.success) return { status: 'unparseable', judgement: null, error: `not a ${instrument.id} answer: ${zodSummary(valid.error.issues)}${cut}` }
  let canonical = instrument.toCanonical(valid.data, display)
  let issues = claimId ? claimIssues(canonical, display) : instrument.check(canonical, payload as never)
  if (instrument.setAsideModelIssues) ({ judgement: canonical, issues } = instrument.setAsideModelIssues(canonical, issues))
  const coverage = issues.filter((i) => COVERAGE_PATH.test(i.path))
  if (coverage.length) {
    return { status: 'unparseable', judgement: null, error: `answer does not cover the item: ${coverage.map((i) => i.message).join('; ')}${cut}` }
  }
  const notes = issues.map((i) => `${i.path || '(answer)'}: ${i.message}`).join('; ')
  return { status: 'ok', judgement: canonical, error: notes ? `check: ${notes}` : null }
}

function claimIssues(canonical: unknown, display: Record<string, unknown>): { path: string; message: string }[] {
  const expected = Array.isArray(display.order) ? String(display.order[0]) : ''
  const ids = ((canonical as { forecasts?: { id: string }[] }).forecasts ?? []).map((f) => f.id)
  if (ids.length === 1 && ids[0] === expected) return []
  return [{ path: 'forecasts', message: `expected one forecast for the claim asked, got ${ids.length === 0 ? 'none' : ids.join(', ')}` }]
}
