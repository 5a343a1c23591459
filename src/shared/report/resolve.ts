import type { FieldSpec, MeasurementLevel } from '../instruments/types'
import type { AuditSourceInput, CallStatus, SourceCall } from './input'

/**
 * A source's answers reduced to one value per unit and field. Several answers on one unit (trials of a call, the
 * display orders of a run, the annotators behind a majority) are combined as the field's level says: categories
 * by vote (an even split leaves the unit without a value, counted), numbers by their mean.
 */

export type Value = string | number | boolean
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
  input: AuditSourceInput
  itemStatus: Map<number, ItemStatus>
  /** field → unit key → value. */
  values: Map<string, Map<string, Value>>
  counts: SourceCounts
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

/** Unit keys are unique across the report: an item id and the instrument's unit id within it. */
export function unitKey(itemId: number, unit: string): string {
  return `${itemId}\u0000${unit}`
}

export function itemOfUnitKey(key: string): number {
  // Read digit by digit: every table walks its units by key, and a slice per unit adds up. Anything but plain
  // digits (a hand-built id) takes the general route.
  let item = 0
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i)
    if (code === 0) return i > 0 && i <= 15 ? item : Number(key.slice(0, i))
    if (code < 48 || code > 57) break
    item = item * 10 + (code - 48)
  }
  return Number(key.slice(0, key.indexOf('\u0000')))
}

/** The instrument's unit id within a unit key (see unitKey). */
export function unitOfUnitKey(key: string): string {
  return key.slice(key.indexOf('\u0000') + 1)
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

/**
 * The report and its recalibration sections resolve the same sources with the same fields and scope; this is the
 * largest pass over the answers, so a result is reused while the source's list of calls is the same.
 */
const resolvedOnce = new WeakMap<AuditSourceInput, { calls: SourceCall[]; length: number; fields: string; scope: ReadonlySet<number>; result: ResolvedSource }>()

function fieldsSignature(fields: ReadonlyArray<FieldSpec>): string {
  return fields.map((f) => `${f.name}\u0000${f.level}`).join('\u0001')
}

function sameScope(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a === b) return true
  if (a.size !== b.size) return false
  for (const id of a) if (!b.has(id)) return false
  return true
}

/** Reduces a source's calls (restricted to the items in scope) to item statuses and one value per unit and field. */
export function resolveSource(input: AuditSourceInput, fields: ReadonlyArray<FieldSpec>, inScope: ReadonlySet<number>): ResolvedSource {
  const signature = fieldsSignature(fields)
  const earlier = resolvedOnce.get(input)
  if (earlier && earlier.calls === input.calls && earlier.length === input.calls.length && earlier.fields === signature && sameScope(earlier.scope, inScope)) {
    return earlier.result
  }
  const result = resolveSourceOnce(input, fields, inScope)
  resolvedOnce.set(input, { calls: input.calls, length: input.calls.length, fields: signature, scope: inScope, result })
  return result
}

/**
 * Unit key strings of the items in one scope, shared by every source resolved over it: a key is built (and hashed,
 * on its first lookup) once, not once per source, and the tables that later look units up by key find the same
 * string. Per item, the last unit asked for (an item has one unit per instrument, or a few in turn).
 */
const unitKeysOfScope = new WeakMap<ReadonlySet<number>, Map<number, { unit: string; key: string }>>()

function unitKeysOf(scope: ReadonlySet<number>): Map<number, { unit: string; key: string }> {
  let keys = unitKeysOfScope.get(scope)
  if (!keys) unitKeysOfScope.set(scope, (keys = new Map()))
  return keys
}

function keyOf(keys: Map<number, { unit: string; key: string }>, item: number, unit: string): string {
  const known = keys.get(item)
  if (known && known.unit === unit) return known.key
  const key = unitKey(item, unit)
  keys.set(item, { unit, key })
  return key
}

/**
 * Answers per field, by unit index: the first answer on a unit, the second, and any further ones; and the units in
 * the order they received their first answer for this field (the order of the field's values).
 */
interface FieldAnswers {
  first: Array<Value | undefined>
  second: Array<Value | undefined>
  /** Rare (a third trial or annotator), so kept apart. */
  more: Map<number, Value[]>
  order: number[]
}

function resolveSourceOnce(input: AuditSourceInput, fields: ReadonlyArray<FieldSpec>, inScope: ReadonlySet<number>): ResolvedSource {
  const counts = emptyCounts()
  const itemStatus = new Map<number, ItemStatus>()
  // Looked up once, not per observation: this loop runs over every answer of every source.
  const names = fields.map((f) => f.name)
  const answers: FieldAnswers[] = names.map(() => ({ first: [], second: [], more: new Map(), order: [] }))
  // Each unit gets an index once (one lookup per observation, whatever the number of fields); its key string is
  // built once per item and unit for all sources of the same scope (see keyOf).
  const keys = unitKeysOf(inScope)
  const unitIndex = new Map<string, number>()
  const unitKeys: string[] = []
  const lastOfItem = new Map<number, { unit: string; index: number }>()
  for (const call of input.calls) {
    if (!inScope.has(call.itemId)) continue
    countCall(counts, call)
    const earlierStatus = itemStatus.get(call.itemId)
    const status = betterStatus(earlierStatus, statusOfCall(call.status))
    if (status !== earlierStatus) itemStatus.set(call.itemId, status)
    if (call.status !== 'ok') continue
    for (const observation of call.observations) {
      let last = lastOfItem.get(call.itemId)
      if (!last || last.unit !== observation.unit) {
        const key = keyOf(keys, call.itemId, observation.unit)
        let index = unitIndex.get(key)
        if (index === undefined) {
          index = unitKeys.length
          unitIndex.set(key, index)
          unitKeys.push(key)
          // Every field's slots grow with the units, so the arrays stay dense.
          for (const field of answers) {
            field.first.push(undefined)
            field.second.push(undefined)
          }
        }
        last = { unit: observation.unit, index }
        lastOfItem.set(call.itemId, last)
      }
      const u = last.index
      for (let f = 0; f < names.length; f++) {
        const v = observation.values[names[f] as string]
        if (v === null || v === undefined) continue
        const field = answers[f] as FieldAnswers
        if (field.first[u] === undefined) {
          field.first[u] = v
          field.order.push(u)
        } else if (field.second[u] === undefined) field.second[u] = v
        else {
          const more = field.more.get(u)
          if (more) more.push(v)
          else field.more.set(u, [v])
        }
      }
    }
  }
  const values = new Map<string, Map<string, Value>>()
  const tiedUnits = new Set<string>()
  fields.forEach((field, f) => {
    const how = aggregationOf(field.level) as Aggregation
    const { first, second, more, order } = answers[f] as FieldAnswers
    const perUnit = new Map<string, Value>()
    for (const u of order) {
      const key = unitKeys[u] as string
      const lone = first[u] as Value
      const next = second[u]
      if (next === undefined) {
        perUnit.set(key, lone)
        continue
      }
      const rest = more.get(u)
      const { value, tied } = combine(rest ? [lone, next, ...rest] : [lone, next], how)
      if (tied) tiedUnits.add(key)
      if (value !== null) perUnit.set(key, value)
    }
    values.set(field.name, perUnit)
  })
  counts.tiedVotes = tiedUnits.size
  return { id: input.id, input, itemStatus, values, counts }
}

function countCall(counts: SourceCounts, call: SourceCall): void {
  counts.calls++
  if (call.status === 'ok') counts.answered++
  else counts[call.status]++
}

/**
 * One source combining several (the human majority): per unit, one value from each member, combined as the level
 * says; an item counts as answered when any member answered it.
 */
export function combineSources(
  members: readonly ResolvedSource[],
  fields: ReadonlyArray<FieldSpec>,
  input: AuditSourceInput
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
  const tiedUnits = new Set<string>()
  for (const field of fields) {
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
    for (const [key, list] of collected) {
      const { value, tied } = combine(list, how)
      if (tied) tiedUnits.add(key)
      if (value !== null) out.set(key, value)
    }
    values.set(field.name, out)
  }
  counts.tiedVotes = tiedUnits.size
  return { id: input.id, input, itemStatus, values, counts }
}
