import type { AnyInstrument, Observation } from '../../shared/instruments'
import { atOrAbove, numberFieldOf } from '../../shared/instruments/derived'

// The human majority of an item's current answers: per field for the instrument's nominal and ordinal fields, and
// how many answers agree with a final label.

/** A value a majority is taken of. */
export type Value = string | number | boolean

/**
 * How a majority came out: `decided` (every value has a single most frequent answer), `tie` (the main choice, or
 * for per-field majorities at least one value, is tied), `all_abstained`, `no_answers` (none could be read), or
 * `no_rule` (the instrument has no nominal or ordinal field to take a majority of).
 */
export const MAJORITY_OUTCOMES = ['decided', 'tie', 'all_abstained', 'no_answers', 'no_rule'] as const
export type MajorityOutcome = (typeof MAJORITY_OUTCOMES)[number]

/** One current human answer as the majority counts it (canonical judgement). */
export interface CountedAnswer {
  id: string | null
  judgement: unknown
  createdAt: string | null
}

export interface MajorityResult {
  majority: MajorityOutcome
  /** A judgement of the instrument, where its rule yields one (pairwise-preference: the verdict). */
  judgement: Record<string, unknown> | null
  /** Per-field majorities by unit and field (null where tied), for instruments without a judgement rule. */
  values: Record<string, Record<string, Value | null>> | null
  /** Answers the rule could read (abstentions included). */
  nAnswers: number
  /** Answers behind the majority: those naming the winning side; per field, the fewest behind any decided value. */
  nAgreeing: number | null
  nAbstained: number
  /** Ids of the answers counted. */
  basedOn: string[]
}

interface ReadAnswer {
  answer: CountedAnswer
  abstained: boolean
  observations: Observation[]
}

function readAnswers(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, payload: Record<string, unknown>): ReadAnswer[] {
  const out: ReadAnswer[] = []
  for (const answer of answers) {
    const parsed = instrument.judgement.safeParse(answer.judgement)
    if (!parsed.success) continue
    if (instrument.isAbstention?.(parsed.data)) {
      out.push({ answer, abstained: true, observations: [] })
      continue
    }
    try {
      out.push({ answer, abstained: false, observations: instrument.observe(parsed.data, payload as never) })
    } catch {
      // An answer the instrument cannot read on this item takes no part in the majority.
    }
  }
  return out
}

/** Fields a majority is well defined for: nominal, or ordinal on a declared scale. */
function majorityFields(instrument: AnyInstrument): string[] {
  return instrument.fields.filter((f) => f.level === 'nominal' || (f.level === 'ordinal' && f.categories)).map((f) => f.name)
}

/** The single most frequent value, or null when two or more share the top count. */
function mode<T>(counts: ReadonlyMap<T, number>): { value: T; count: number } | null {
  let best: { value: T; count: number } | null = null
  let tied = false
  for (const [value, count] of counts) {
    if (!best || count > best.count) {
      best = { value, count }
      tied = false
    } else if (count === best.count) tied = true
  }
  return best && !tied ? best : null
}

/**
 * The majority of the current human answers of one item. Pairwise preference: the side (`winner`) most
 * non-abstaining answers chose, with the strength most of those answers gave (the milder `_better` when their
 * strengths tie: every one of them claims at least that). Other instruments: per unit and nominal/ordinal field, the
 * most frequent value; a pass read from points (FrontierScience research) from the answers' mean points, as the
 * report reads it.
 */
export function majorityLabel(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, payload: Record<string, unknown>): MajorityResult {
  const read = readAnswers(instrument, answers, payload)
  const nAbstained = read.filter((r) => r.abstained).length
  const base = {
    nAnswers: read.length,
    nAbstained,
    basedOn: read.map((r) => r.answer.id).filter((id): id is string => id !== null)
  }
  const choices = read.filter((r) => !r.abstained)
  const empty = (majority: MajorityOutcome): MajorityResult => ({ ...base, majority, judgement: null, values: null, nAgreeing: null })
  if (instrument.id === 'pairwise-preference') {
    if (!read.length) return empty('no_answers')
    const winners = new Map<string, string[]>()
    for (const r of choices) {
      const o = r.observations.find((x) => typeof x.values.winner === 'string' && typeof x.values.verdict === 'string')
      if (!o) continue
      const side = o.values.winner as string
      winners.set(side, [...(winners.get(side) ?? []), o.values.verdict as string])
    }
    if (!winners.size) return empty(nAbstained ? 'all_abstained' : 'no_answers')
    const side = mode(new Map([...winners].map(([s, verdicts]) => [s, verdicts.length])))
    if (!side) return empty('tie')
    const verdicts = winners.get(side.value)!
    const strength = mode(countOf(verdicts))
    return { ...base, majority: 'decided', judgement: { verdict: strength?.value ?? `${side.value}_better` }, values: null, nAgreeing: side.count }
  }
  const fields = majorityFields(instrument)
  if (!fields.length) return empty('no_rule')
  if (!read.length) return empty('no_answers')
  const counts = new Map<string, Map<string, Map<string, { value: Value; n: number }>>>()
  for (const r of choices) {
    for (const o of r.observations) {
      for (const field of fields) {
        const v = o.values[field]
        if (v === null || v === undefined) continue
        let byField = counts.get(o.unit)
        if (!byField) counts.set(o.unit, (byField = new Map()))
        let byValue = byField.get(field)
        if (!byValue) byField.set(field, (byValue = new Map()))
        const key = JSON.stringify(v)
        byValue.set(key, { value: v, n: (byValue.get(key)?.n ?? 0) + 1 })
      }
    }
  }
  if (!counts.size) return empty(choices.length ? 'no_rule' : 'all_abstained')
  const values: Record<string, Record<string, Value | null>> = {}
  let tie = false
  let fewest: number | null = null
  const derived = derivedFields(instrument)
  for (const [unit, byField] of counts) {
    values[unit] = {}
    for (const field of fields) {
      const byValue = byField.get(field)
      if (!byValue) continue
      const from = derived.get(field)
      if (from) {
        // As the report reads it: from the answers' mean points, never a vote of their passes apart.
        const numbers = choices.flatMap((r) => r.observations.filter((o) => o.unit === unit).map((o) => o.values[from.field])).filter((v): v is number => typeof v === 'number')
        if (numbers.length === 0) continue
        const value = atOrAbove(numbers.reduce((a, b) => a + b, 0) / numbers.length, from.atLeast)
        values[unit]![field] = value
        const agreeing = byValue.get(JSON.stringify(value))?.n ?? 0
        fewest = fewest === null ? agreeing : Math.min(fewest, agreeing)
        continue
      }
      const top = mode(new Map([...byValue.values()].map((e) => [e.value, e.n])))
      values[unit]![field] = top ? top.value : null
      if (!top) tie = true
      else fewest = fewest === null ? top.count : Math.min(fewest, top.count)
    }
  }
  return { ...base, majority: tie ? 'tie' : 'decided', judgement: null, values, nAgreeing: fewest }
}

/** Fields read from another field's number (FieldSpec.derivedFrom), by name. */
function derivedFields(instrument: AnyInstrument): Map<string, { field: string; atLeast: number }> {
  return new Map(instrument.fields.flatMap((f) => (f.derivedFrom && numberFieldOf(f, instrument.fields) ? [[f.name, f.derivedFrom] as const] : [])))
}

function countOf<T>(list: ReadonlyArray<T>): Map<T, number> {
  const out = new Map<T, number>()
  for (const v of list) out.set(v, (out.get(v) ?? 0) + 1)
  return out
}

/** The fields whose agreement makes an answer agree with a final label: the main choice where there is one. */
function agreementFields(instrument: AnyInstrument): string[] {
  return instrument.id === 'pairwise-preference' ? ['winner', 'abstained'] : majorityFields(instrument)
}

/** Answers that agree with a (curator's) judgement on every agreement field both give a value for. */
export function answersAgreeing(instrument: AnyInstrument, answers: ReadonlyArray<CountedAnswer>, judgement: unknown, payload: Record<string, unknown>): number {
  const [final] = readAnswers(instrument, [{ id: null, judgement, createdAt: null }], payload)
  if (!final) return 0
  const fields = agreementFields(instrument)
  const valuesOf = (r: ReadAnswer): Map<string, Value> => {
    const out = new Map<string, Value>()
    if (r.abstained) out.set('*:abstained', true)
    for (const o of r.observations) for (const f of fields) if (o.values[f] !== null && o.values[f] !== undefined) out.set(`${o.unit}:${f}`, o.values[f]!)
    return out
  }
  const target = valuesOf(final)
  return readAnswers(instrument, answers, payload).filter((r) => {
    const own = valuesOf(r)
    if (own.has('*:abstained') !== target.has('*:abstained')) return false
    for (const [k, v] of own) if (target.has(k) && target.get(k) !== v) return false
    return true
  }).length
}

