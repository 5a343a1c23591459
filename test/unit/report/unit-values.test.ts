import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '../../../src/shared/instruments/types'
import type { ReportSourceInput, SourceCall } from '../../../src/shared/report'
import { ReportFrame } from '../../../src/shared/report/frame'
import { combineSources, forEachUnit, resolveSource, unitKey, unitValuesOf, valueReader, type ResolvedSource, type Value } from '../../../src/shared/report/resolve'

// The coded twin of a resolved values map must say exactly what the map says: the comparisons, strengths and
// judge-vs-judge tests read it instead of the map wherever both sides were resolved on one frame.

const fields: FieldSpec[] = [
  { name: 'choice', label: 'Choice', level: 'nominal', categories: ['x', 'y'] },
  { name: 'score', label: 'Score', level: 'interval' }
]

function call(itemId: number, trial: number, values: Record<string, string | number>, unit = 'u'): SourceCall {
  return { itemId, trial, order: 0, status: 'ok', observations: [{ unit, values }] }
}

function source(id: string, calls: SourceCall[]): ReportSourceInput {
  return { id, kind: 'annotator', name: id, detail: {}, calls }
}

/** What walking the map's entries gives: key, item, value, in order. */
function walkedByKey(values: ReadonlyMap<string, Value>): Array<[string, number, Value]> {
  return [...values].map(([key, value]) => [key, Number(key.slice(0, key.indexOf('\u0000'))), value])
}

function walked(values: ReadonlyMap<string, Value>): Array<[string, number, Value]> {
  const out: Array<[string, number, Value]> = []
  forEachUnit(values, (key, _code, item, value) => out.push([key, item, value]))
  return out
}

describe('coded values', () => {
  const frame = new ReportFrame()
  const scope = new Set([1, 2, 3, 4])
  // Lone answers, a vote of three (one unit tied and left without a value), means, and a second unit on one item.
  const first = resolveSource(
    source('annotator:a', [
      call(3, 0, { choice: 'y', score: 2 }),
      call(1, 0, { choice: 'x', score: 1 }),
      call(1, 1, { choice: 'y', score: 4 }),
      call(2, 0, { choice: 'x', score: 3 }),
      call(2, 1, { choice: 'x', score: 5 }),
      call(2, 2, { choice: 'y', score: 1 }),
      call(2, 0, { choice: 'y' }, 'other')
    ]),
    fields,
    scope,
    frame
  )
  const second = resolveSource(source('annotator:b', [call(4, 0, { choice: 'x', score: 7 }), call(3, 0, { choice: 'x', score: 2 }), call(2, 0, { choice: 'y' }, 'other')]), fields, scope, frame)

  it('walks every resolved field in the map\'s order, with the same keys, items and values', () => {
    for (const resolved of [first, second]) {
      for (const field of fields) {
        const values = resolved.values.get(field.name) as ReadonlyMap<string, Value>
        expect(unitValuesOf(values)).toBeDefined()
        expect(walked(values)).toEqual(walkedByKey(values))
      }
    }
    // The tied unit (item 1: x against y) has no value, in the map and in its twin alike.
    expect(first.values.get('choice')?.has(unitKey(1, 'u'))).toBe(false)
    expect(walked(first.values.get('choice') as ReadonlyMap<string, Value>).map(([key]) => key)).not.toContain(unitKey(1, 'u'))
  })

  it('reads another source\'s values on those units as the map does, none where it has none', () => {
    for (const field of fields) {
      const along = first.values.get(field.name) as ReadonlyMap<string, Value>
      const other = second.values.get(field.name) as ReadonlyMap<string, Value>
      const read = valueReader(other, along)
      const byCode: Array<Value | undefined> = []
      forEachUnit(along, (key, code) => byCode.push(read(key, code)))
      expect(byCode).toEqual([...along.keys()].map((key) => other.get(key)))
    }
    // The first's units in order of first answer (3, then 2 and 2's other unit; 1 tied): the second's values there.
    expect([...(first.values.get('choice') as ReadonlyMap<string, Value>).values()]).toEqual(['y', 'x', 'y'])
    expect(byCodeOf(first, second, 'choice')).toEqual(['x', undefined, 'y'])
  })

  it('gives a majority of sources its own twin, and leaves a hand-built map to be read by key', () => {
    const majority = combineSources([first, second], fields, { id: 'majority', kind: 'human_majority', name: 'majority', detail: {}, calls: [] })
    for (const field of fields) {
      const values = majority.values.get(field.name) as ReadonlyMap<string, Value>
      expect(unitValuesOf(values)).toBeDefined()
      expect(walked(values)).toEqual(walkedByKey(values))
    }
    const handBuilt = new Map<string, Value>([[unitKey(3, 'u'), 'x'], [unitKey(9, 'u'), 'y']])
    expect(unitValuesOf(handBuilt)).toBeUndefined()
    expect(walked(handBuilt)).toEqual(walkedByKey(handBuilt))
    const read = valueReader(first.values.get('choice'), handBuilt)
    expect([...handBuilt.keys()].map((key) => read(key, -1))).toEqual(['y', undefined])
    // A map with a twin read along a hand-built one is read by key too.
    const readOther = valueReader(handBuilt, first.values.get('choice') as ReadonlyMap<string, Value>)
    const got: Array<Value | undefined> = []
    forEachUnit(first.values.get('choice') as ReadonlyMap<string, Value>, (key, code) => got.push(readOther(key, code)))
    expect(got).toEqual([...(first.values.get('choice') as ReadonlyMap<string, Value>).keys()].map((key) => handBuilt.get(key)))
  })
})

/** The second source's choices on the first source's units, by code. */
function byCodeOf(along: ResolvedSource, other: ResolvedSource, field: string): Array<Value | undefined> {
  const read = valueReader(other.values.get(field), along.values.get(field) as ReadonlyMap<string, Value>)
  const out: Array<Value | undefined> = []
  forEachUnit(along.values.get(field) as ReadonlyMap<string, Value>, (key, code) => out.push(read(key, code)))
  return out
}
