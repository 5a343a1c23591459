import {
  getInstrument,
  INSTRUMENTS,
  isInstrumentId,
  type AnyInstrument,
  type InstrumentId,
  type JudgementIssue
} from '../../shared/instruments/index'
import { containsSpan } from '../../shared/instruments/common'

/**
 * The item checks a packet can run from the view alone, so an annotator working offline hears about a bad quote or a
 * missing unit at once instead of at merge time. Answers in a packet are in display terms and the view is in display
 * order, so each check below reads the view where the instrument's own check reads the payload. Where a view holds
 * exactly what the instrument's check reads, the check is called on a payload built from the view, so the rule stays
 * in one place; flaw quotes are checked directly (the view's Markdown has already lost its title).
 *
 * Not checkable offline: `fs-olympiad-grade` checks the problem's track, which the assignment already guarantees.
 * Every check runs again on the real item at merge time.
 */
type ViewCheck = (judgement: any, view: Record<string, unknown>) => JudgementIssue[]

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The display labels of the units shown (P1…, H1…), as the ids a unit-coverage check expects. */
function shownUnits(view: Record<string, unknown>): Array<{ id: string }> {
  const list = Array.isArray(view.hypotheses) ? view.hypotheses : []
  return list
    .map((h) => (h !== null && typeof h === 'object' ? (h as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string')
    .map((id) => ({ id }))
}

/** A payload holding just the fields an instrument's check reads (the view carries them under the same names). */
function asPayload(fields: Record<string, unknown>): never {
  return fields as never
}

function sideMarkdown(view: Record<string, unknown>, side: string): string {
  const shown = view[side]
  return shown !== null && typeof shown === 'object' ? text((shown as { markdown?: unknown }).markdown) : ''
}

const VIEW_CHECKS: Partial<Record<InstrumentId, ViewCheck>> = {
  'flaw-audit': (j: { flaws: Array<{ side: string; evidence: string }> }, view) =>
    j.flaws.flatMap((f, i) =>
      containsSpan(sideMarkdown(view, f.side), f.evidence)
        ? []
        : [{ path: `flaws.${i}.evidence`, message: `The evidence is not an exact quote of proposal ${f.side.toUpperCase()}.` }]
    ),
  'cue-rating': (j, view) => INSTRUMENTS['cue-rating'].check(j, asPayload({ question: text(view.question) })),
  'leak-audit': (j, view) => INSTRUMENTS['leak-audit'].check(j, asPayload({ background: text(view.background), question: text(view.question) })),
  'hypothesis-match': (j, view) => INSTRUMENTS['hypothesis-match'].check(j, asPayload({ hypotheses: shownUnits(view) })),
  'forecast-short': (j, view) => INSTRUMENTS['forecast-short'].check(j, asPayload({ hypotheses: shownUnits(view) })),
  'forecast-detailed': (j, view) =>
    INSTRUMENTS['forecast-detailed'].check(j, asPayload({ hypotheses: shownUnits(view), task: { background: text(view.background) } })),
  'fs-research-grade': (j, view) =>
    INSTRUMENTS['fs-research-grade'].check(j, asPayload({ track: 'research', rubric: Array.isArray(view.rubric) ? view.rubric : [] }))
}

/** Instruments whose `check` needs nothing of the item (they always pass) and so are fully checked offline too. */
const NO_ITEM_CHECK: ReadonlySet<InstrumentId> = new Set([
  'pairwise-preference',
  'idea-review',
  'idea-similarity',
  'preprint-same-study',
  'reference-comparison',
  'probe-check'
])

/** Issues of an answer (display terms) against the view it was given on. */
export function viewIssues(instrument: AnyInstrument, judgement: unknown, view: Record<string, unknown>): JudgementIssue[] {
  // A declared instrument checks its quotes against the view itself.
  if (instrument.declared) return instrument.declared.checkView(judgement, view)
  const check = VIEW_CHECKS[instrument.id]
  return check ? check(judgement, view) : []
}

/** How much of an instrument's item check a packet runs offline: all of it, part of it, or none (merge time only). */
export function offlineCheckCoverage(id: InstrumentId): 'full' | 'view' | 'merge-only' {
  if (NO_ITEM_CHECK.has(id) || (isInstrumentId(id) && getInstrument(id).declared)) return 'full'
  return VIEW_CHECKS[id] ? 'view' : 'merge-only'
}
