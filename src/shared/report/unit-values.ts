import { unitKey, type UnitDictionary } from './frame'

/**
 * A resolved source's values per unit, in the two forms the tables read: a map by unit key, and its coded twin over
 * the frame's unit codes (the units that have a value, and the value at each code), which tables that walk units in
 * bulk index instead of looking key strings up.
 */

export type Value = string | number | boolean

export { unitKey }

/**
 * One field's values of a resolved source as the frame codes them: the unit codes that have a value, in the order of
 * the values map, and the value at each code (undefined: none). Readers that walk units in bulk (every comparison,
 * strength and judge-vs-judge test) index these arrays instead of looking unit key strings up, which slows as the
 * audit grows.
 */
export interface UnitValues {
  units: UnitDictionary
  codes: Int32Array
  at: ReadonlyArray<Value | undefined>
}

/** The coded twin a values map carries, where it was resolved on a frame and not changed since. */
function codedOf(values: ReadonlyMap<string, Value>): UnitValues | undefined {
  return values instanceof UnitValueMap ? (values.coded ?? undefined) : undefined
}

/** The coded twin of a field's values map, where it was resolved on a frame. */
export function unitValuesOf(values: ReadonlyMap<string, Value> | undefined): UnitValues | undefined {
  return values ? codedOf(values) : undefined
}

/**
 * Walks a field's values in the map's order: each unit's key, its code in the frame's dictionary (-1 where the map
 * was not resolved on a frame), its item and its value.
 */
export function forEachUnit(values: ReadonlyMap<string, Value>, visit: (key: string, code: number, item: number, value: Value) => void): void {
  const coded = codedOf(values)
  if (!coded) {
    for (const [key, value] of values) visit(key, -1, itemOfUnitKey(key), value)
    return
  }
  const { units, codes, at } = coded
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number
    visit(units.key(code), code, units.item(code), at[code] as Value)
  }
}

/**
 * Reads another source's field values on the units `forEachUnit` walks over `along`: by code where both maps were
 * resolved on the same dictionary, by key otherwise.
 */
export function valueReader(values: ReadonlyMap<string, Value> | undefined, along: ReadonlyMap<string, Value>): (key: string, code: number) => Value | undefined {
  if (!values) return () => undefined
  const own = codedOf(values)
  const theirs = codedOf(along)
  if (own && theirs && own.units === theirs.units) {
    const at = own.at
    return (_key, code) => at[code]
  }
  return (key) => values.get(key)
}

/**
 * Reads a field's value on one unit of an item: by its code where the map has a coded twin (found once, for readers
 * of many items), by its key otherwise.
 */
export function unitValueReader(values: ReadonlyMap<string, Value> | undefined): (itemId: number, unit: string) => Value | undefined {
  if (!values) return () => undefined
  const coded = codedOf(values)
  if (!coded) return (itemId, unit) => values.get(unitKey(itemId, unit))
  const { units, at } = coded
  return (itemId, unit) => {
    const code = units.find(itemId, unit)
    return code >= 0 ? at[code] : undefined
  }
}

/** A field's value on one unit of an item (see unitValueReader). */
export function valueOfUnit(values: ReadonlyMap<string, Value> | undefined, itemId: number, unit: string): Value | undefined {
  return unitValueReader(values)(itemId, unit)
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

/**
 * A resolved field's values by unit key, carrying its coded twin: the tables that walk units in bulk read the twin,
 * and the keyed map is filled from it on the first read by key, so a source's keyed map is made only where something
 * looks a unit up by its key. A change by key (none is made once a source is resolved) drops the twin, so that it
 * never disagrees with the map.
 */
class UnitValueMap extends Map<string, Value> {
  private twin: UnitValues | null
  private unfilled = true

  constructor(twin: UnitValues) {
    super()
    this.twin = twin
  }

  /** The coded twin; null once the map was changed by key. */
  get coded(): UnitValues | null {
    return this.twin
  }

  private filled(): this {
    if (this.unfilled) {
      this.unfilled = false
      const { units, codes, at } = this.twin as UnitValues
      for (let i = 0; i < codes.length; i++) super.set(units.key(codes[i] as number), at[codes[i] as number] as Value)
    }
    return this
  }

  private changed(): this {
    this.filled()
    this.twin = null
    return this
  }

  override get size(): number {
    return this.unfilled ? (this.twin as UnitValues).codes.length : super.size
  }

  override get(key: string): Value | undefined {
    return this.filled() && super.get(key)
  }

  override has(key: string): boolean {
    return this.filled() && super.has(key)
  }

  override set(key: string, value: Value): this {
    return this.changed() && super.set(key, value)
  }

  override delete(key: string): boolean {
    return this.changed() && super.delete(key)
  }

  override clear(): void {
    this.changed()
    super.clear()
  }

  override forEach(visit: (value: Value, key: string, map: Map<string, Value>) => void, thisArg?: unknown): void {
    this.filled()
    super.forEach(visit, thisArg)
  }

  override entries(): MapIterator<[string, Value]> {
    return this.filled() && super.entries()
  }

  override keys(): MapIterator<string> {
    return this.filled() && super.keys()
  }

  override values(): MapIterator<Value> {
    return this.filled() && super.values()
  }

  override [Symbol.iterator](): MapIterator<[string, Value]> {
    return this.filled() && super[Symbol.iterator]()
  }
}

/** A values map made from its coded twin (filled by key on its first read by key). */
export function valuesOfTwin(twin: UnitValues): Map<string, Value> {
  return new UnitValueMap(twin)
}

/**
 * A combined values map with its coded twin, where every unit is in the dictionary: the same entries in the same
 * order. Else the map as given, read by key.
 */
export function withTwin(values: Map<string, Value>, units: UnitDictionary): Map<string, Value> {
  const at = new Array<Value | undefined>(units.size).fill(undefined)
  const codes = new Int32Array(values.size)
  let i = 0
  for (const [key, value] of values) {
    const c = units.findKey(key)
    if (c < 0) return values
    codes[i++] = c
    at[c] = value
  }
  return new UnitValueMap({ units, codes, at })
}
