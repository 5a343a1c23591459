import type { FieldSpec, MeasurementLevel } from '../instruments/types'
import type { ReportSourceInput, CallStatus } from './input'
import { ReportFrame, CALL_STATUSES, OK, type FieldColumn, type SourceColumns, type UnitDictionary } from './frame'
import { valuesOfTwin, withTwin, type Value } from './unit-values'
import { atOrAbove, numberFieldOf } from '../instruments/derived'

export { forEachUnit, itemOfUnitKey, unitKey, unitOfUnitKey, unitValueReader, unitValuesOf, valueOfUnit, valueReader, type UnitValues, type Value } from './unit-values'

/**
 * A source's answers reduced to one value per unit and field. Several answers on one unit (trials of a call, the
 * display orders of a run, the annotators behind a majority) are combined as the field's level says: categories
 * by vote (an even split leaves the unit without a value, counted), numbers by their mean.
 */

export type Aggregation = 'vote' | 'mean'

/** Of a source's answers on one item, the one that decides how the item counts (earlier wins). */
export const ITEM_STATUS_ORDER = ['answered', 'abstained', 'unparseable', 'failed', 'pending'] as const
export type ItemStatus = (typeof ITEM_STATUS_ORDER)[number]

export interface SourceCounts {
  calls: number
  answered: number
  failed: number
  unparseable: number
  abstained: number
  pending: number
  tiedVotes: number
}

export interface ResolvedSource {
  id: string
  input: ReportSourceInput
  itemStatus: Map<number, ItemStatus>
  /** field → unit key → value. */
  values: Map<string, Map<string, Value>>
  counts: SourceCounts
  /** The frame's columns of the calls it was resolved from (absent for a source combining others). */
  columns?: SourceColumns
  /** The frame's dictionary of the units its values are keyed by. */
  units?: UnitDictionary
  /**
   * A majority's units on which its members split evenly, by field: without a value, and left out of every
   * comparison of the majority (the ties policy), never counted against it. Only sources that combine others.
   */
  tiedUnits?: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * A source whose tie is its answer (a both-orders fit's conservative rule), by field: the units it answered with a
   * tie, without a value but judged, and never correct (the ties policy: a tie given as an answer is scored as given).
   */
  tieAnswers?: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * Fields the source gave any answer on, a value or a split: a judge whose every answer on a field split has no value
   * there, but is still scored on it (its units without a value), never dropped as if it had not been asked.
   */
  answeredFields?: ReadonlySet<string>
}

/** Whether a source answered a field at all: a value on some unit, or answers that split. */
export function answersField(source: ResolvedSource, field: string): boolean {
  return (source.values.get(field)?.size ?? 0) > 0 || source.answeredFields?.has(field) === true
}

/**
 * Whether a source's split vote is an answer of its own: a both-orders fit writes a tie verdict as two trials, one for
 * each side (calibrate/apply.ts), where a run's split is two answers that disagree.
 */
export function tiesAreAnswers(input: ReportSourceInput): boolean {
  return input.kind === 'calibrated' && input.detail.method === 'both-orders'
}

export function aggregationOf(level: MeasurementLevel): Aggregation | null {
  if (level === 'nominal' || level === 'ordinal') return 'vote'
  if (level === 'interval' || level === 'ratio' || level === 'probability') return 'mean'
  return null
}

/** Fields the report compares: every field with a level it can aggregate. */
export function comparableFields(fields: ReadonlyArray<FieldSpec>): FieldSpec[] {
  // An abstention is a status, reported in every denominator; as a field it would only repeat those counts.
  return fields.filter((f) => aggregationOf(f.level) !== null && f.name !== 'abstained')
}

export function valueKey(value: Value): string {
  return `${typeof value}:${String(value)}`
}

/** Whether two values have the same valueKey, without building the keys (NaN is the one value unequal to itself). */
export function sameValue(a: Value, b: Value): boolean {
  return a === b || (a !== a && b !== b)
}

/** Combines several answers on one unit; null with tied=true when a vote splits evenly. */
export function combine(values: readonly Value[], how: Aggregation): { value: Value | null; tied: boolean } {
  if (values.length === 0) return { value: null, tied: false }
  if (values.length === 1) return { value: values[0] as Value, tied: false }
  if (how === 'mean') {
    const numbers = values.filter((v): v is number => typeof v === 'number')
    if (numbers.length === 0) return { value: null, tied: false }
    return { value: numbers.reduce((s, v) => s + v, 0) / numbers.length, tied: false }
  }
  if (values.length === 2) {
    // The usual case (a run asked in both display orders): agreeing answers, or an even split.
    const [first, second] = values as [Value, Value]
    return sameValue(first, second) ? { value: first, tied: false } : { value: null, tied: true }
  }
  return values.length <= SMALL_VOTE ? voteAmongFew(values) : voteAmongMany(values)
}

/** Up to this many answers are tallied by comparing values pairwise, without a key string per value. */
const SMALL_VOTE = 16

/** The vote of `voteAmongMany`, for a few answers: distinct values in order of first appearance, same rule. */
function voteAmongFew(values: readonly Value[]): { value: Value | null; tied: boolean } {
  const distinct: Value[] = []
  const counts: number[] = []
  for (const v of values) {
    let d = 0
    while (d < distinct.length && !sameValue(distinct[d] as Value, v)) d++
    if (d === distinct.length) {
      distinct.push(v)
      counts.push(1)
    } else counts[d] = (counts[d] as number) + 1
  }
  let best = -1
  let tied = false
  for (let d = 0; d < distinct.length; d++) {
    if (best < 0 || (counts[d] as number) > (counts[best] as number)) {
      best = d
      tied = false
    } else if (counts[d] === counts[best]) tied = true
  }
  return tied || best < 0 ? { value: null, tied: true } : { value: distinct[best] as Value, tied: false }
}

function voteAmongMany(values: readonly Value[]): { value: Value | null; tied: boolean } {
  const tally = new Map<string, { value: Value; count: number }>()
  for (const v of values) {
    const key = valueKey(v)
    const entry = tally.get(key)
    if (entry) entry.count++
    else tally.set(key, { value: v, count: 1 })
  }
  let best: { value: Value; count: number } | null = null
  let tied = false
  for (const entry of tally.values()) {
    if (!best || entry.count > best.count) {
      best = entry
      tied = false
    } else if (entry.count === best.count) tied = true
  }
  return tied || !best ? { value: null, tied: true } : { value: best.value, tied: false }
}

function statusOfCall(status: CallStatus): ItemStatus {
  return status === 'ok' ? 'answered' : status
}

const STATUS_RANK = Object.fromEntries(ITEM_STATUS_ORDER.map((status, i) => [status, i])) as Record<ItemStatus, number>

export function betterStatus(a: ItemStatus | undefined, b: ItemStatus): ItemStatus {
  if (a === undefined) return b
  return STATUS_RANK[a] <= STATUS_RANK[b] ? a : b
}

function emptyCounts(): SourceCounts {
  return { calls: 0, answered: 0, failed: 0, unparseable: 0, abstained: 0, pending: 0, tiedVotes: 0 }
}

function fieldsSignature(fields: ReadonlyArray<FieldSpec>): string {
  return fields.map((f) => `${f.name}\u0000${f.level}`).join('\u0001')
}

function sameScope(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a === b) return true
  if (a.size !== b.size) return false
  for (const id of a) if (!b.has(id)) return false
  return true
}

/**
 * Reduces a source's calls (restricted to the items in scope) to item statuses and one value per unit and field,
 * read from the source's columns in the audit's frame. The report and its recalibration sections resolve the same
 * sources with the same fields and scope, so the frame keeps a resolution with the columns it was made from.
 */
export function resolveSource(input: ReportSourceInput, fields: ReadonlyArray<FieldSpec>, inScope: ReadonlySet<number>, frame: ReportFrame = new ReportFrame()): ResolvedSource {
  const columns = frame.columnsOf(input)
  const signature = fieldsSignature(fields)
  const earlier = columns.resolutions.find((r) => r.fields === signature && sameScope(r.scope, inScope))
  if (earlier) {
    const result = earlier.result as ResolvedSource
    // The same calls under another source object (a copy of the input): the same figures, told as that source.
    return result.input === input ? result : { ...result, input }
  }
  const result = resolveColumns(input, columns, frame.units, fields, inScope)
  columns.resolutions.push({ fields: signature, scope: inScope, result })
  return result
}

/** The first answer on a unit (by unit code), the second, any further ones, and the units in order of first answer. */
interface FieldAnswers {
  first: Int32Array
  second: Int32Array
  /** Rare (a third trial or annotator), so kept apart. */
  more: Map<number, number[]>
  order: number[]
}

function resolveColumns(input: ReportSourceInput, columns: SourceColumns, units: UnitDictionary, fields: ReadonlyArray<FieldSpec>, inScope: ReadonlySet<number>): ResolvedSource {
  const counts = emptyCounts()
  const itemStatus = new Map<number, ItemStatus>()
  const fieldColumns = fields.map((f) => columns.field(f.name))
  const unitCount = units.size
  const answers: FieldAnswers[] = fields.map(() => ({ first: new Int32Array(unitCount).fill(-1), second: new Int32Array(unitCount).fill(-1), more: new Map(), order: [] }))
  const { item, status, observationStart, unit } = columns
  // An item's calls usually come one after another: its scope and status are looked up once per run of them.
  let lastItem = Number.NaN
  let lastInScope = false
  let lastStatus: ItemStatus | undefined
  for (let c = 0; c < columns.length; c++) {
    const itemId = item[c] as number
    if (itemId !== lastItem) {
      lastItem = itemId
      lastInScope = inScope.has(itemId)
      lastStatus = lastInScope ? itemStatus.get(itemId) : undefined
    }
    if (!lastInScope) continue
    const callStatus = CALL_STATUSES[status[c] as number] as CallStatus
    counts.calls++
    if (callStatus === 'ok') counts.answered++
    else counts[callStatus]++
    const next = betterStatus(lastStatus, statusOfCall(callStatus))
    if (next !== lastStatus) {
      itemStatus.set(itemId, next)
      lastStatus = next
    }
    if (status[c] !== OK) continue
    const end = observationStart[c + 1] as number
    for (let o = observationStart[c] as number; o < end; o++) {
      const u = unit[o] as number
      for (let f = 0; f < fieldColumns.length; f++) {
        const code = (fieldColumns[f] as FieldColumn).codes[o] as number
        if (code < 0) continue
        const field = answers[f] as FieldAnswers
        if ((field.first[u] as number) < 0) {
          field.first[u] = code
          field.order.push(u)
        } else if ((field.second[u] as number) < 0) field.second[u] = code
        else {
          const more = field.more.get(u)
          if (more) more.push(code)
          else field.more.set(u, [code])
        }
      }
    }
  }
  const values = new Map<string, Map<string, Value>>()
  const tied = new Uint8Array(unitCount)
  let tiedVotes = 0
  const tieAnswers = tiesAreAnswers(input) ? new Map<string, Set<string>>() : null
  const answeredHere = (name: string) => ((answers[fields.findIndex((x) => x.name === name)] as FieldAnswers | undefined)?.order.length ?? 0) > 0
  fields.forEach((field, f) => {
    // Taken from its number once that is combined (below), never voted on apart; a source that gives the pass without
    // the number (a threshold fit aimed at it) keeps its own.
    if (derivedHere(field, fields, answeredHere)) return
    const tiesHere = tieAnswers ? new Set<string>() : null
    if (tiesHere) tieAnswers?.set(field.name, tiesHere)
    const how = aggregationOf(field.level) as Aggregation
    const { first, second, more, order } = answers[f] as FieldAnswers
    const dictionary = (fieldColumns[f] as FieldColumn).values
    const at = new Array<Value | undefined>(unitCount).fill(undefined)
    const coded = new Int32Array(order.length)
    let valued = 0
    for (const u of order) {
      let value: Value | null = dictionary[first[u] as number] as Value
      const nextCode = second[u] as number
      const rest = nextCode >= 0 && more.size > 0 ? more.get(u) : undefined
      if (nextCode >= 0 && !rest && how === 'vote') {
        // Two answers (a run's two display orders): combine's vote of two, without a list and a result per unit.
        if (!sameValue(value, dictionary[nextCode] as Value)) {
          if (tied[u] === 0) {
            tied[u] = 1
            tiedVotes++
          }
          tiesHere?.add(units.key(u))
          value = null
        }
      } else if (nextCode >= 0) {
        const answered = [value, dictionary[nextCode] as Value]
        if (rest) for (const code of rest) answered.push(dictionary[code] as Value)
        const combined = combine(answered, how)
        if (combined.tied && tied[u] === 0) {
          tied[u] = 1
          tiedVotes++
        }
        if (combined.tied) tiesHere?.add(units.key(u))
        value = combined.value
      }
      if (value === null) continue
      at[u] = value
      coded[valued++] = u
    }
    values.set(field.name, valuesOfTwin({ units, codes: coded.subarray(0, valued), at }))
  })
  counts.tiedVotes = tiedVotes
  deriveFields(fields, values, units, tieAnswers, answeredHere)
  // A field read from its number is answered where the number is; one a source gives without it, where it gives it.
  const answeredFields = new Set(fields.filter((field) => answeredHere(derivedHere(field, fields, answeredHere) ? (field.derivedFrom?.field as string) : field.name)).map((field) => field.name))
  return { id: input.id, input, itemStatus, values, counts, columns, units, answeredFields, ...(tieAnswers ? { tieAnswers } : {}) }
}

/**
 * Whether a field is taken from another's number here (see FieldSpec.derivedFrom): the number is a field of the same
 * report and the source answered it.
 */
function derivedHere(field: FieldSpec, fields: ReadonlyArray<FieldSpec>, answered: (field: string) => boolean): boolean {
  const from = numberFieldOf(field, fields)
  return from !== undefined && answered(from.name)
}

/**
 * Each derived field's values from its number's combined values (passed: total ≥ 7), so the two never disagree; a
 * unit whose number was left without a value (or split) is so for the derived field too.
 */
function deriveFields(
  fields: ReadonlyArray<FieldSpec>,
  values: Map<string, Map<string, Value>>,
  units: UnitDictionary | undefined,
  split: Map<string, ReadonlySet<string>> | null,
  answered: (field: string) => boolean
): void {
  for (const field of fields) {
    if (!derivedHere(field, fields, answered)) continue
    const { field: from, atLeast } = field.derivedFrom as NonNullable<FieldSpec['derivedFrom']>
    const derived = new Map<string, Value>()
    for (const [key, v] of values.get(from) ?? []) if (typeof v === 'number') derived.set(key, atOrAbove(v, atLeast))
    values.set(field.name, units ? withTwin(derived, units) : derived)
    const splitFrom = split?.get(from)
    if (split && splitFrom) split.set(field.name, new Set(splitFrom))
  }
}

/**
 * One source combining several (the human majority): per unit, one value from each member, combined as the level
 * says; an item counts as answered when any member answered it.
 */
export function combineSources(
  members: readonly ResolvedSource[],
  fields: ReadonlyArray<FieldSpec>,
  input: ReportSourceInput
): ResolvedSource {
  const counts = emptyCounts()
  const itemStatus = new Map<number, ItemStatus>()
  for (const member of members) {
    for (const [item, status] of member.itemStatus) itemStatus.set(item, betterStatus(itemStatus.get(item), status))
  }
  for (const status of itemStatus.values()) {
    counts.calls++
    if (status === 'answered') counts.answered++
    else counts[status]++
  }
  const values = new Map<string, Map<string, Value>>()
  const tiedUnits = new Map<string, Set<string>>()
  const units = members.find((m) => m.units)?.units
  const answeredByMembers = (field: string) => members.some((m) => answersField(m, field))
  for (const field of fields) {
    if (derivedHere(field, fields, answeredByMembers)) continue
    const how = aggregationOf(field.level) as Aggregation
    const collected = new Map<string, Value[]>()
    for (const member of members) {
      for (const [key, v] of member.values.get(field.name) ?? []) {
        const list = collected.get(key)
        if (list) list.push(v)
        else collected.set(key, [v])
      }
    }
    const out = new Map<string, Value>()
    const tiedHere = new Set<string>()
    for (const [key, list] of collected) {
      const { value, tied } = combine(list, how)
      if (tied) tiedHere.add(key)
      if (value !== null) out.set(key, value)
    }
    values.set(field.name, units ? withTwin(out, units) : out)
    tiedUnits.set(field.name, tiedHere)
  }
  deriveFields(fields, values, units, tiedUnits, answeredByMembers)
  // A unit counts once, however many of its fields split.
  counts.tiedVotes = new Set([...tiedUnits.values()].flatMap((keys) => [...keys])).size
  const answeredFields = new Set(fields.filter((f) => members.some((m) => answersField(m, f.name))).map((f) => f.name))
  return units ? { id: input.id, input, itemStatus, values, counts, units, tiedUnits, answeredFields } : { id: input.id, input, itemStatus, values, counts, tiedUnits, answeredFields }
}
