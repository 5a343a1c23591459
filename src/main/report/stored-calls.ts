import type { AnyInstrument, Observation } from '../../shared/instruments'
import { CallRows, STATUS_CODE, flawRecordsOf, shownFirstCode, type CallStatus, type FlawList } from '../../shared/report'

/**
 * Stored answers read into the report's calls: a judgement validated by its instrument and observed, with
 * abstentions and rows that no longer validate marked, and the display order the call was shown in.
 */

type Validated = { success: true; data: unknown } | { success: false }

/** The longest stored judgement whose validation is remembered, and how many are remembered in one gathering. */
const MAX_REMEMBERED_LENGTH = 512
const MAX_REMEMBERED_JUDGEMENTS = 10_000

/**
 * Validates stored judgements for one gathering. Short ones (a bare verdict, an imported label, a reference answer)
 * repeat across thousands of calls, and validating the same text gives the same result, so each is validated once;
 * long ones (with a model's analysis) are unique and read as they come. The validated value is shared between the
 * calls that stored the same text: instruments only read it.
 */
export class JudgementReader {
  private readonly known = new Map<string, Validated>()
  private lastData: unknown = undefined
  private lastPayload: unknown = undefined
  private lastObservations: Observation[] = []

  constructor(private readonly instrument: AnyInstrument) {}

  read(json: string): Validated {
    if (json.length > MAX_REMEMBERED_LENGTH) return this.validate(json)
    let validated = this.known.get(json)
    if (validated === undefined) {
      validated = this.validate(json)
      if (this.known.size < MAX_REMEMBERED_JUDGEMENTS) this.known.set(json, validated)
    }
    return validated
  }

  /**
   * The instrument's observations of a validated answer on an item. An item's calls are read one after another, and
   * its calls that stored the same answer share the validated value, so the last observations are given again.
   */
  observe(data: unknown, payload: Record<string, unknown>): Observation[] {
    if (data === this.lastData && payload === this.lastPayload) return this.lastObservations
    const observations = this.instrument.observe(data as never, payload as never)
    this.lastData = data
    this.lastPayload = payload
    this.lastObservations = observations
    return observations
  }

  private validate(json: string): Validated {
    return validate(this.instrument, json)
  }
}

/** A stored answer as the report reads it: its status, and the instrument's observations where it is ok. */
export interface ReadAnswer {
  status: CallStatus
  observations: Observation[]
  /** Stored but no longer valid under the instrument (counted per source). */
  invalid: boolean
  flaws: FlawList | null
}

const NO_OBSERVATIONS: Observation[] = []

/**
 * Reads a stored canonical judgement: parsed by the instrument, abstentions and bad rows marked. With a reader, the
 * observations of the same validated answer on the same item (both display orders agreeing, say) are made once.
 */
export function readAnswer(
  instrument: AnyInstrument,
  payload: Record<string, unknown>,
  judgementJson: string | null,
  status: CallStatus,
  reader?: JudgementReader
): ReadAnswer {
  if (status !== 'ok') return { status, observations: NO_OBSERVATIONS, invalid: false, flaws: null }
  if (judgementJson === null) return { status: 'unparseable', observations: NO_OBSERVATIONS, invalid: false, flaws: null }
  const parsed = reader ? reader.read(judgementJson) : validate(instrument, judgementJson)
  if (!parsed.success) return { status: 'unparseable', observations: NO_OBSERVATIONS, invalid: true, flaws: null }
  if (instrument.isAbstention?.(parsed.data)) return { status: 'abstained', observations: NO_OBSERVATIONS, invalid: false, flaws: null }
  let observations: Observation[]
  try {
    observations = reader ? reader.observe(parsed.data, payload) : instrument.observe(parsed.data, payload as never)
  } catch {
    return { status: 'unparseable', observations: NO_OBSERVATIONS, invalid: true, flaws: null }
  }
  return { status: 'ok', observations, invalid: false, flaws: instrument.id === 'flaw-audit' ? flawRecordsOf(parsed.data) : null }
}

/** Writes a stored answer into a source's rows; true where it no longer validates (counted per source). */
export function addAnswer(
  rows: CallRows,
  instrument: AnyInstrument,
  itemId: number,
  payload: Record<string, unknown>,
  judgementJson: string | null,
  display: string | null,
  status: CallStatus,
  trial: number,
  order: number,
  reader: JudgementReader
): boolean {
  const answer = readAnswer(instrument, payload, judgementJson, status, reader)
  rows.add(itemId, trial, order, shownFirstCode(swappedOf(display)), STATUS_CODE.get(answer.status) as number, answer.observations, answer.flaws)
  return answer.invalid
}

function validate(instrument: AnyInstrument, json: string): Validated {
  const parsed = instrument.judgement.safeParse(JSON.parse(json))
  return parsed.success ? { success: true, data: parsed.data } : { success: false }
}

/** Display mappings read so far: a run stores a handful of distinct ones, repeated on every call. */
const shownFirstOfDisplay = new Map<string, 'a' | 'b' | undefined>()
const MAX_REMEMBERED_DISPLAYS = 256

function swappedOf(display: string | null): 'a' | 'b' | undefined {
  if (!display) return undefined
  if (shownFirstOfDisplay.has(display)) return shownFirstOfDisplay.get(display)
  const shownFirst = readSwapped(display)
  if (shownFirstOfDisplay.size < MAX_REMEMBERED_DISPLAYS) shownFirstOfDisplay.set(display, shownFirst)
  return shownFirst
}

function readSwapped(display: string): 'a' | 'b' | undefined {
  try {
    const d = JSON.parse(display) as Record<string, unknown>
    if (typeof d.swapped !== 'boolean') return undefined
    return d.swapped ? 'b' : 'a'
  } catch {
    return undefined
  }
}
