import type { ItemKind, ItemPayload } from '../items/kinds'
import { cueRating } from './cue-rating'
import { flawAudit } from './flaw-audit'
import { forecastDetailed } from './forecast-detailed'
import { forecastShort } from './forecast-short'
import { fsOlympiadGrade } from './fs-olympiad-grade'
import { fsResearchGrade } from './fs-research-grade'
import { hypothesisMatch } from './hypothesis-match'
import { ideaReview } from './idea-review'
import { ideaSimilarity } from './idea-similarity'
import { leakAudit } from './leak-audit'
import { pairwisePreference } from './pairwise-preference'
import { preprintSameStudy } from './preprint-same-study'
import { probeCheck } from './probe-check'
import { referenceComparison } from './reference-comparison'
import { INSTRUMENT_IDS, type AnyInstrument, type InstrumentId } from './types'

/** The built-in instruments. Adding one is adding its file, its tests and one line here. */
export const INSTRUMENTS: Record<InstrumentId, AnyInstrument> = {
  'pairwise-preference': pairwisePreference,
  'flaw-audit': flawAudit,
  'hypothesis-match': hypothesisMatch,
  'leak-audit': leakAudit,
  'cue-rating': cueRating,
  'forecast-detailed': forecastDetailed,
  'forecast-short': forecastShort,
  'fs-research-grade': fsResearchGrade,
  'fs-olympiad-grade': fsOlympiadGrade,
  'idea-review': ideaReview,
  'idea-similarity': ideaSimilarity,
  'preprint-same-study': preprintSameStudy,
  'reference-comparison': referenceComparison,
  'probe-check': probeCheck
}

export function isInstrumentId(id: string): id is InstrumentId {
  return (INSTRUMENT_IDS as ReadonlyArray<string>).includes(id)
}

export function getInstrument(id: string): AnyInstrument {
  if (!isInstrumentId(id)) throw new Error(`Unknown instrument "${id}".`)
  return INSTRUMENTS[id]
}

/** Instruments that can be asked about an item: its kind matches and, where declared, `accepts` agrees. */
export function instrumentsFor<K extends ItemKind>(kind: K, payload?: ItemPayload<K>): AnyInstrument[] {
  return INSTRUMENT_IDS.map((id) => INSTRUMENTS[id]).filter(
    (inst) => inst.itemKind === kind && (payload === undefined || !inst.accepts || inst.accepts(payload))
  )
}

export * from './types'
export { MissingContextError } from './common'
export { FLAW_SEVERITIES, FLAW_TAXONOMY, FLAW_TYPES } from './flaw-audit'
export { CUE_RUBRIC } from './cue-rating'
export { MATCH_RUBRIC, MATCH_THRESHOLD } from './hypothesis-match'
export { FORECAST_PROTOCOL } from './forecast-detailed'
export { RESEARCH_MAX_POINTS, RESEARCH_PASS_POINTS } from './fs-research-grade'
export { SIMILARITY_OPTIONS } from './idea-similarity'
export { PAIRWISE_CHOICES } from './pairwise-preference'
