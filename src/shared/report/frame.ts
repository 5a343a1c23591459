import type { FieldSpec } from '../instruments/types'
import type { ReportSourceInput, CallStatus, SourceCall } from './input'
import type { Value } from './resolve'

/**
 * The answers of an audit held in columns, made once at gathering and read below both the report and the
 * calibration: one dictionary of units (an item and the instrument's unit id within it, each with one dense code
 * and one key string), and per source its calls as typed arrays (item, status, where its observations start) with
 * its observations' unit codes and, per field, value codes into a dictionary of the field's values. Resolving a
 * source to one value per unit reads these columns, not the calls' objects.
 */

/** Status codes of the call columns, in this order. */
export const CALL_STATUSES: readonly CallStatus[] = ['ok', 'failed', 'unparseable', 'abstained', 'pending']
const STATUS_CODE = new Map<CallStatus, number>(CALL_STATUSES.map((s, i) => [s, i]))
export const OK = 0

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

/** One source's calls as columns (see ReportFrame). */
export class SourceColumns {
  /** The calls the columns were made from: a source derived with other calls gets columns of its own. */
  readonly calls: readonly SourceCall[]
  readonly length: number
  readonly item: Int32Array
  readonly status: Uint8Array
  /** Display order index of each call, and the canonical side shown first (0: not recorded, 1: a, 2: b). */
  readonly order: Int32Array
  readonly shownFirst: Uint8Array
  /** Observations of call c: observationStart[c] up to observationStart[c + 1]. */
  readonly observationStart: Int32Array
  readonly unit: Int32Array
  private readonly fields = new Map<string, FieldColumn>()
  /** Resolutions already made of these columns, by fields and scope (the report and its fits ask the same). */
  readonly resolutions: Array<{ fields: string; scope: ReadonlySet<number>; result: unknown }> = []

  constructor(calls: readonly SourceCall[], readonly units: UnitDictionary) {
    this.calls = calls
    this.length = calls.length
    this.item = new Int32Array(calls.length)
    this.status = new Uint8Array(calls.length)
    this.order = new Int32Array(calls.length)
    this.shownFirst = new Uint8Array(calls.length)
    this.observationStart = new Int32Array(calls.length + 1)
    let observations = 0
    for (const call of calls) observations += call.observations.length
    this.unit = new Int32Array(observations)
    let o = 0
    for (let c = 0; c < calls.length; c++) {
      const call = calls[c] as SourceCall
      this.item[c] = call.itemId
      this.status[c] = STATUS_CODE.get(call.status) as number
      this.order[c] = call.order
      this.shownFirst[c] = call.shownFirst === 'a' ? 1 : call.shownFirst === 'b' ? 2 : 0
      this.observationStart[c] = o
      for (const observation of call.observations) this.unit[o++] = units.codeOf(call.itemId, observation.unit)
    }
    this.observationStart[calls.length] = o
  }

  /** The field's column, made on the first ask (values in the order they first appear). */
  field(name: string): FieldColumn {
    let column = this.fields.get(name)
    if (column) return column
    const codes = new Int32Array(this.unit.length).fill(-1)
    const values: Value[] = []
    // Values kept apart by type, as valueKey tells them apart ('1' and 1 are different answers).
    const codeOfValue = new Map<Value, number>()
    // Answers repeat a few values in long runs: the last one is kept (NaN never matches, and is looked up).
    let lastValue: Value | undefined
    let lastCode = -1
    let o = 0
    for (const call of this.calls) {
      for (const observation of call.observations) {
        const v = observation.values[name]
        if (v !== null && v !== undefined) {
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
        o++
      }
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
    const made = list?.find((c) => c.calls === source.calls && c.length === source.calls.length)
    if (made) return made
    const columns = new SourceColumns(source.calls, this.units)
    if (list) list.push(columns)
    else this.bySource.set(source.id, (list = [columns]))
    return columns
  }
}
