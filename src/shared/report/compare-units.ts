import type { FieldSpec } from '../instruments/types'
import { observedCategories, type Category } from '../stats'
import { ITEM_STATUS_ORDER, forEachUnit, unitValuesOf, type ItemStatus, type ResolvedSource, type Value } from './resolve'
import type { UnitDictionary } from './frame'
import type { ReportComparison } from './schema'

/**
 * A comparison's units, sorted by what the source did with each item the criterion labels: counted as failed,
 * unparseable, abstained, pending, without a value or not asked, or paired with the criterion's value (as columns);
 * the row's denominators from them; and a field's scale with any value found outside it.
 */

export interface Accounting<T> {
  inScope: number
  failed: number
  unparseable: number
  abstained: number
  pending: number
  noValue: number
  notAsked: number
  /** A majority's units its members split evenly on: left out of the comparison (outside every denominator). */
  tiedVotes: number
  /** Units both have a value for, as columns: each one's item, the criterion's value and the source's. */
  items: number[]
  criterion: T[]
  source: T[]
  /** Ties the source gave as its answer (see ResolvedSource.tieAnswers): judged, never correct. */
  tieAnswers: number
  /**
   * Units judged and never correct, the unparseable and the source's own ties: their items and the criterion's values
   * (they count in accuracy's denominator, and in no agreement statistic, having no value to compare).
   */
  judgedWrongItems: number[]
  judgedWrongCriterion: T[]
}

/** Where `pair` puts the two values it compares (one holder per comparison, not an object per unit). */
export interface Pair<T> {
  criterion: T
  source: T
}

/**
 * Walks the units the criterion has a value for and sorts each by what the source did with its item. `pair` puts
 * the two values to compare into its holder, or returns false when the source has none for that unit.
 */
export function account<T>(
  criterion: ReadonlyMap<string, Value>,
  source: ResolvedSource,
  pair: (key: string, code: number, criterionValue: Value, out: Pair<T>) => boolean,
  criterionOnly: (criterionValue: Value) => T,
  statuses?: ItemStatusCodes | undefined,
  tied?: ReadonlySet<string> | undefined,
  answeredTies?: ReadonlySet<string> | undefined
): Accounting<T> {
  const acc: Accounting<T> = { inScope: 0, failed: 0, unparseable: 0, abstained: 0, pending: 0, noValue: 0, notAsked: 0, tiedVotes: 0, items: [], criterion: [], source: [], tieAnswers: 0, judgedWrongItems: [], judgedWrongCriterion: [] }
  const values = {} as Pair<T>
  const units = unitValuesOf(criterion)?.units
  // Read by unit code where the codes were made on the criterion's dictionary as it is now; by item otherwise.
  const byCode = statuses && units && statuses.units === units && statuses.byCode.length === units.size ? statuses.byCode : null
  forEachUnit(criterion, (key, code, item, criterionValue) => {
    const status = byCode && code >= 0 ? STATUS_OF_CODE[byCode[code] as number] : source.itemStatus.get(item)
    if (status === undefined) {
      acc.notAsked++
      return
    }
    if (status === 'answered' && !pair(key, code, criterionValue, values)) {
      // The ties policy: a unit the majority's members split on is left out, never counted against the majority;
      // a tie a source gave as its answer is scored as given: judged, and not correct.
      if (tied?.has(key)) acc.tiedVotes++
      else if (answeredTies?.has(key)) {
        acc.inScope++
        acc.tieAnswers++
        acc.judgedWrongItems.push(item)
        acc.judgedWrongCriterion.push(criterionOnly(criterionValue))
      } else {
        acc.inScope++
        acc.noValue++
      }
      return
    }
    acc.inScope++
    if (status === 'answered') {
      acc.items.push(item)
      acc.criterion.push(values.criterion)
      acc.source.push(values.source)
    } else if (status === 'unparseable') {
      acc.unparseable++
      acc.judgedWrongItems.push(item)
      acc.judgedWrongCriterion.push(criterionOnly(criterionValue))
    } else acc[status]++
  })
  return acc
}

/** Item statuses coded by position in ITEM_STATUS_ORDER, one more than it (0: the item was not asked). */
const STATUS_OF_CODE: ReadonlyArray<ItemStatus | undefined> = [undefined, ...ITEM_STATUS_ORDER]
const CODE_OF_STATUS = new Map<ItemStatus, number>(ITEM_STATUS_ORDER.map((status, i) => [status, i + 1]))

/** A source's item status on each unit of a dictionary, by unit code (see STATUS_OF_CODE). */
export interface ItemStatusCodes {
  units: UnitDictionary
  byCode: Int8Array
}

/**
 * The status of the item of each unit code, for a source resolved on `units` (null otherwise): every comparison of
 * a source walks the criterion's units, and looks each one's item up here rather than in a map. Made once per source
 * by the report, and handed to its comparisons.
 */
export function itemStatusCodes(source: ResolvedSource, units: UnitDictionary): ItemStatusCodes | null {
  if (source.units !== units) return null
  const byCode = new Int8Array(units.size)
  let lastItem = Number.NaN
  let last = 0
  for (let u = 0; u < units.size; u++) {
    const item = units.item(u)
    if (item !== lastItem) {
      lastItem = item
      const status = source.itemStatus.get(item)
      last = status === undefined ? 0 : (CODE_OF_STATUS.get(status) as number)
    }
    byCode[u] = last
  }
  return { units, byCode }
}

export function baseRow(field: FieldSpec, source: ResolvedSource, criterionId: string, acc: Accounting<unknown>): ReportComparison {
  return {
    field: field.name,
    level: field.level,
    source: source.id,
    criterion: criterionId,
    n_in_scope: acc.inScope,
    n_judged: acc.items.length + acc.judgedWrongItems.length,
    n: acc.items.length,
    n_items: distinctCount(acc.items, acc.judgedWrongItems),
    n_failed: acc.failed,
    n_unparseable: acc.unparseable,
    n_abstained: acc.abstained,
    n_pending: acc.pending,
    n_no_value: acc.noValue,
    n_not_asked: acc.notAsked,
    ...(source.tiedUnits ? { n_tied_votes: acc.tiedVotes } : {}),
    ...(source.tieAnswers ? { n_ties: acc.tieAnswers } : {}),
    ci: {},
    reasons: {}
  }
}

/** Ids below this many per id counted (plus the slack) are marked in an array rather than a set. */
const DENSE_IDS_PER_ID = 8
const DENSE_IDS_SLACK = 4096

/** How many distinct item ids two lists hold between them (a project's ids are small whole numbers: marked in place). */
export function distinctCount(a: readonly number[], b: readonly number[]): number {
  let largest = -1
  for (const list of [a, b]) {
    for (const id of list) {
      if (!(Number.isInteger(id) && id >= 0)) return new Set([...a, ...b]).size
      if (id > largest) largest = id
    }
  }
  if (largest >= DENSE_IDS_PER_ID * (a.length + b.length) + DENSE_IDS_SLACK) return new Set([...a, ...b]).size
  const seen = new Uint8Array(largest + 1)
  let count = 0
  for (const list of [a, b]) {
    for (const id of list) {
      if (seen[id] === 0) {
        seen[id] = 1
        count++
      }
    }
  }
  return count
}

/** The declared scale, with any value found outside it appended (and named in the reasons). */
export function scaleOf(field: FieldSpec, raw: Accounting<Value>): { categories: Value[]; outside: Value[] } {
  const declared: Value[] = field.categories ? [...field.categories] : []
  // Map and Set keys tell 1, '1' and true apart (as valueKey does) without building a string per value.
  const known = new Set<Value>(declared)
  const outside: Value[] = []
  // Units repeat a few values: the last two seen (already known) are passed over without a lookup.
  let last: Value | undefined
  let before: Value | undefined
  const see = (v: Value): void => {
    if (v === last || v === before) return
    before = last
    last = v
    if (!known.has(v)) {
      known.add(v)
      outside.push(v)
    }
  }
  // In order: each unit's criterion value then the source's, then the criterion values of unparseable units.
  for (let i = 0; i < raw.items.length; i++) {
    see(raw.criterion[i] as Value)
    see(raw.source[i] as Value)
  }
  for (const c of raw.judgedWrongCriterion) see(c)
  const extra = observedCategories<Category>(outside)
  return { categories: declared.length ? [...declared, ...extra] : extra, outside }
}

/** Per item, in order of first unit: the sum of a term over its units and their count (a ratio's bootstrap rows). */
export function sumsPerItem(items: readonly number[], term: (unit: number) => number): Array<{ item: number; numerator: number; denominator: number }> {
  const sums = new Map<number, { item: number; numerator: number; denominator: number }>()
  items.forEach((item, i) => {
    const unit = sums.get(item) ?? { item, numerator: 0, denominator: 0 }
    unit.numerator += term(i)
    unit.denominator++
    sums.set(item, unit)
  })
  return [...sums.values()]
}
