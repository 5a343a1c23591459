import type { AnyInstrument, Observation } from '../../shared/instruments'
import { flawRecordsOf, type CallStatus, type SourceCall } from '../../shared/report'

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

  private validate(json: string): Validated {
    const parsed = this.instrument.judgement.safeParse(JSON.parse(json))
    return parsed.success ? { success: true, data: parsed.data } : { success: false }
  }
}

/** Turns a stored canonical judgement into a call: parsed by the instrument, abstentions and bad rows marked. */
export function callOf(
  instrument: AnyInstrument,
  itemId: number,
  payload: Record<string, unknown>,
  judgementJson: string | null,
  display: string | null,
  status: CallStatus,
  trial: number,
  order: number,
  reader?: JudgementReader
): { call: SourceCall; invalid: boolean } {
  const shownFirst = swappedOf(display)
  if (status !== 'ok') return { call: callWith(itemId, trial, order, shownFirst, status, []), invalid: false }
  if (judgementJson === null) return { call: callWith(itemId, trial, order, shownFirst, 'unparseable', []), invalid: false }
  const parsed = reader ? reader.read(judgementJson) : instrument.judgement.safeParse(JSON.parse(judgementJson))
  if (!parsed.success) return { call: callWith(itemId, trial, order, shownFirst, 'unparseable', []), invalid: true }
  if (instrument.isAbstention?.(parsed.data)) return { call: callWith(itemId, trial, order, shownFirst, 'abstained', []), invalid: false }
  let observations: Observation[]
  try {
    observations = instrument.observe(parsed.data, payload as never)
  } catch {
    return { call: callWith(itemId, trial, order, shownFirst, 'unparseable', []), invalid: true }
  }
  const result = callWith(itemId, trial, order, shownFirst, 'ok', observations)
  const flawList = instrument.id === 'flaw-audit' ? flawRecordsOf(parsed.data) : null
  if (flawList) {
    result.flaws = flawList.flaws
    result.unparseableFlaws = flawList.unparseableFlaws
  }
  return { call: result, invalid: false }
}

/** A call of one status; `shownFirst` only where the display order was recorded (made once per stored row). */
function callWith(itemId: number, trial: number, order: number, shownFirst: 'a' | 'b' | undefined, status: CallStatus, observations: Observation[]): SourceCall {
  return shownFirst ? { itemId, trial, order, shownFirst, status, observations } : { itemId, trial, order, status, observations }
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
