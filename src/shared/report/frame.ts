import type { FieldSpec } from '../instruments/types'
import type { ReportSourceInput, SourceCall } from './input'
import { CALL_STATUSES, CallRows, OK, gatheredRowsOf, type ObservedValues } from './call-rows'
import type { Value } from './unit-values'

/**
 * The answers of an audit held in columns, made once at gathering and read below both the report and the
 * calibration: one dictionary of units (an item and the instrument's unit id within it, each with one dense code
 * and one key string), and per source its calls as typed arrays (item, status, where its observations start) with
 * its observations' unit codes and, per field, value codes into a dictionary of the field's values. Resolving a
 * source to one value per unit reads these columns, not the calls' objects.
 */

export { CALL_STATUSES, OK }

/** Unit keys are unique across the report: an item id and the instrument's unit id within it. */
export function unitKey(itemId: number, unit: string): string {
  return `${itemId}\u0000${unit}`
}

/** Every unit of the audit, coded densely in order of first appearance, with its item and its key string. */
export class UnitDictionary {
  private readonly codeOfKey = new Map<string, number>()
  private readonly keys: string[] = []
  private items = new Int32Array(1024)
  /** Per item, the last unit coded (an item has one unit per instrument, or a few in turn). */
  private readonly lastOfItem = new Map<number, { unit: string; code: number }>()

  get size(): number {
    return this.keys.length
  }

  codeOf(itemId: number, unit: string): number {
    const last = this.lastOfItem.get(itemId)
    if (last && last.unit === unit) return last.code
    const key = unitKey(itemId, unit)
    let code = this.codeOfKey.get(key)
    if (code === undefined) {
      code = this.keys.length
      this.codeOfKey.set(key, code)
      this.keys.push(key)
      if (code >= this.items.length) {
        const grown = new Int32Array(this.items.length * 2)
        grown.set(this.items)
        this.items = grown
      }
      this.items[code] = itemId
    }
    this.lastOfItem.set(itemId, { unit, code })
    return code
  }

  /** The code of a unit already coded, or -1. */
  find(itemId: number, unit: string): number {
    const last = this.lastOfItem.get(itemId)
    if (last && last.unit === unit) return last.code
    return this.codeOfKey.get(unitKey(itemId, unit)) ?? -1
  }

  /** The code of a unit key already coded, or -1. */
  findKey(key: string): number {
    return this.codeOfKey.get(key) ?? -1
  }

  key(code: number): string {
    return this.keys[code] as string
  }

  item(code: number): number {
    return this.items[code] as number
  }
}

/** One field's values over a source's observations: a code per observation (-1: no value) into `values`. */
export interface FieldColumn {
  codes: Int32Array
  values: Value[]
}

/** One source's calls as columns (see ReportFrame), with their units coded in the frame's dictionary. */
export class SourceColumns {
  readonly rows: CallRows
  readonly length: number
  readonly item: Int32Array
  readonly status: Int32Array
  /** Display order index of each call, and the canonical side shown first (0: not recorded, 1: a, 2: b). */
  readonly order: Int32Array
  readonly shownFirst: Int32Array
  /** Observations of call c: observationStart[c] up to observationStart[c + 1]. */
  readonly observationStart: Int32Array
  readonly unit: Int32Array
  private readonly fields = new Map<string, FieldColumn>()
  /** Resolutions already made of these columns, by fields and scope (the report and its fits ask the same). */
  readonly resolutions: Array<{ fields: string; scope: ReadonlySet<number>; result: unknown }> = []

  constructor(rows: CallRows | readonly SourceCall[], readonly units: UnitDictionary) {
    this.rows = rows instanceof CallRows ? rows : CallRows.of(rows)
    const columns = this.rows.columns()
    this.length = this.rows.length
    this.item = columns.item
    this.status = columns.status
    this.order = columns.order
    this.shownFirst = columns.shownFirst
    this.observationStart = columns.observationStart
    const names = this.rows.unitNames
    this.unit = new Int32Array(names.length)
    for (let c = 0; c < this.length; c++) {
      const itemId = this.item[c] as number
      const end = this.observationStart[c + 1] as number
      for (let o = this.observationStart[c] as number; o < end; o++) this.unit[o] = units.codeOf(itemId, names[o] as string)
    }
  }

  /** The field's column, made on the first ask (values in the order they first appear). */
  field(name: string): FieldColumn {
    let column = this.fields.get(name)
    if (column) return column
    const observed = this.rows.values
    const codes = new Int32Array(observed.length).fill(-1)
    const values: Value[] = []
    // Values kept apart by type, as valueKey tells them apart ('1' and 1 are different answers).
    const codeOfValue = new Map<Value, number>()
    // Answers repeat a few values in long runs: the last one is kept (NaN never matches, and is looked up).
    let lastValue: Value | undefined
    let lastCode = -1
    for (let o = 0; o < observed.length; o++) {
      const v = (observed[o] as ObservedValues)[name]
      if (v === null || v === undefined) continue
      if (v !== lastValue) {
        let code = codeOfValue.get(v)
        if (code === undefined) {
          code = values.length
          codeOfValue.set(v, code)
          values.push(v)
        }
        lastValue = v
        lastCode = code
      }
      codes[o] = lastCode
    }
    column = { codes, values }
    this.fields.set(name, column)
    return column
  }
}

/** The audit's columns: the unit dictionary shared by every source, and each source's call columns. */
export class ReportFrame {
  readonly units = new UnitDictionary()
  private readonly bySource = new Map<string, SourceColumns[]>()

  /** Made at gathering over the gathered sources, with the fields the report compares. */
  static of(sources: readonly ReportSourceInput[], fields: ReadonlyArray<FieldSpec> = []): ReportFrame {
    const frame = new ReportFrame()
    for (const source of sources) {
      const columns = frame.columnsOf(source)
      for (const field of fields) columns.field(field.name)
    }
    return frame
  }

  /** A source's columns; a source derived from a gathered one with other calls (a filter) is added in turn. */
  columnsOf(source: ReportSourceInput): SourceColumns {
    let list = this.bySource.get(source.id)
    // A gathered source by its rows (its call objects are never made for this); one made by hand by its calls.
    const rows = gatheredRowsOf(source)
    const made = rows ? list?.find((c) => c.rows === rows) : list?.find((c) => c.rows.madeCalls === source.calls && c.length === source.calls.length)
    if (made) return made
    const columns = new SourceColumns(rows ?? source.calls, this.units)
    if (list) list.push(columns)
    else this.bySource.set(source.id, (list = [columns]))
    return columns
  }
}
