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
import { INSTRUMENT_IDS, type AnyInstrument, type BuiltInInstrumentId, type InstrumentId } from './types'
import { scopedDeclared } from './declared-scope'

/** The built-in instruments. Adding one is adding its file, its tests and one line here. */
export const INSTRUMENTS: Record<BuiltInInstrumentId, AnyInstrument> = {
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

// The instruments the open project declared, by id (built from their stored declarations when the project is opened,
// in main, and from `instruments.list` in the window). Built-in ids are never among them.
const declared = new Map<string, AnyInstrument>()

/** The current operation's project's own instruments (see ./declared-scope), else the ones registered here. */
const table = (): ReadonlyMap<string, AnyInstrument> => scopedDeclared() ?? declared

/**
 * Makes a project's declared instruments known, each replacing one of the same id. Others stay: a packet or a second
 * file opened beside the project (a merge, an import) must not take the project's own instruments away.
 */
export function registerDeclaredInstruments(list: ReadonlyArray<AnyInstrument>): void {
  for (const inst of list) {
    if (isBuiltInInstrumentId(inst.id)) throw new Error(`"${inst.id}" is a built-in instrument.`)
    declared.set(inst.id, inst)
  }
}

export function declaredInstruments(): AnyInstrument[] {
  return [...table().values()]
}

/** Every instrument: the built-in ones, then the project's own. */
export function allInstruments(): AnyInstrument[] {
  return [...INSTRUMENT_IDS.map((id) => INSTRUMENTS[id]), ...table().values()]
}

export function isBuiltInInstrumentId(id: string): id is BuiltInInstrumentId {
  return (INSTRUMENT_IDS as ReadonlyArray<string>).includes(id)
}

/** A built-in id or one the open project declared. */
export function isInstrumentId(id: string): id is InstrumentId {
  return isBuiltInInstrumentId(id) || table().has(id)
}

/** What every command says of an instrument id it does not know: the id, and the ids it would know. */
export function unknownInstrumentMessage(id: string): string {
  return `Unknown instrument "${id}"; instruments: ${allInstruments().map((i) => i.id).join(', ')}`
}

export function getInstrument(id: string): AnyInstrument {
  if (isBuiltInInstrumentId(id)) return INSTRUMENTS[id]
  const own = table().get(id)
  if (!own) throw new Error(unknownInstrumentMessage(id))
  return own
}

/** Instruments that can be asked about an item: its kind matches and, where declared, `accepts` agrees. */
export function instrumentsFor<K extends ItemKind>(kind: K, payload?: ItemPayload<K>): AnyInstrument[] {
  return allInstruments().filter(
    (inst) => inst.itemKind === kind && (payload === undefined || !inst.accepts || inst.accepts(payload))
  )
}

export * from './types'
export { MissingContextError, hasGradedText } from './common'
export { FLAW_SEVERITIES, FLAW_TAXONOMY, FLAW_TYPES } from './flaw-audit'
export { CUE_RUBRIC } from './cue-rating'
export { MATCH_RUBRIC, MATCH_THRESHOLD } from './hypothesis-match'
export { FORECAST_PROTOCOL } from './forecast-detailed'
export { RESEARCH_MAX_POINTS, RESEARCH_PASS_POINTS } from './fs-research-grade'
export { SIMILARITY_OPTIONS } from './idea-similarity'
export { PAIRWISE_CHOICES } from './pairwise-preference'
