import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '../../../src/shared/instruments/types'
import type { ReportSourceInput, SourceCall } from '../../../src/shared/report'
import { ReportFrame } from '../../../src/shared/report/frame'
import { combine, combineSources, forEachUnit, itemOfUnitKey, resolveSource, sameValue, unitKey, unitValuesOf, valueKey, valueOfUnit, valueReader, type Value } from '../../../src/shared/report/resolve'

const fields: FieldSpec[] = [
  { name: 'choice', label: 'Choice', level: 'nominal', categories: ['x', 'y'] },
  { name: 'score', label: 'Score', level: 'interval' }
]

function call(itemId: number, trial: number, values: Record<string, string | number>, unit = 'u'): SourceCall {
  return { itemId, trial, order: 0, status: 'ok', observations: [{ unit, values }] }
}

function source(calls: SourceCall[], id = 's'): ReportSourceInput {
  return { id, kind: 'judge_run', name: id, detail: {}, calls }
}

describe('resolveSource', () => {
  it('keeps a lone answer as given, votes and averages several, and counts an even split as a tied vote', () => {
    const resolved = resolveSource(
      source([
        call(1, 0, { choice: 'x', score: 2 }),
        call(2, 0, { choice: 'x', score: 1 }),
        call(2, 1, { choice: 'y', score: 4 }),
        call(3, 0, { choice: 'y', score: 1 }),
        call(3, 1, { choice: 'y', score: 2 }),
        call(3, 2, { choice: 'x', score: 6 }),
        call(3, 0, { choice: 'x' }, 'other')
      ]),
      fields,
      new Set([1, 2, 3])
    )
    const choice = resolved.values.get('choice')
    const score = resolved.values.get('score')
    expect([...(choice?.entries() ?? [])]).toEqual([
      [unitKey(1, 'u'), 'x'],
      [unitKey(3, 'u'), 'y'],
      [unitKey(3, 'other'), 'x']
    ])
    expect(score?.get(unitKey(2, 'u'))).toBe(2.5)
    expect(score?.get(unitKey(3, 'u'))).toBe(3)
    expect(resolved.counts.tiedVotes).toBe(1)
  })

  it('reuses the frame\'s result for the same calls, fields and scope, and resolves again when any of them changes', () => {
    const frame = new ReportFrame()
    const input = source([call(1, 0, { choice: 'x', score: 1 }), call(2, 0, { choice: 'y', score: 2 })])
    const first = resolveSource(input, fields, new Set([1, 2]), frame)
    expect(resolveSource(input, [...fields], new Set([2, 1]), frame)).toBe(first)

    const narrower = resolveSource(input, fields, new Set([1]), frame)
    expect(narrower).not.toBe(first)
    expect(narrower.values.get('choice')?.size).toBe(1)
    const oneField = resolveSource(input, [fields[0] as FieldSpec], new Set([1, 2]), frame)
    expect([...oneField.values.keys()]).toEqual(['choice'])

    const all = new Set([1, 2, 3])
    expect(resolveSource(input, fields, all, frame).values.get('choice')?.size).toBe(2)
    input.calls.push(call(3, 0, { choice: 'x', score: 3 }))
    expect(resolveSource(input, fields, all, frame).values.get('choice')?.size).toBe(3)
    input.calls = [call(1, 0, { choice: 'y', score: 1 })]
    expect(resolveSource(input, fields, all, frame).values.get('choice')?.get(unitKey(1, 'u'))).toBe('y')
  })
})

describe('unit keys and values', () => {
  it('reads the item back from any unit key, as the key was built', () => {
    for (const id of [0, 7, 42, 123456789012345, 1234567890123456, 2 ** 53 - 1, -3, 1.5, 1e21]) {
      expect(itemOfUnitKey(unitKey(id, 'pair-1:a'))).toBe(id)
    }
    expect(itemOfUnitKey(unitKey(9, ''))).toBe(9)
  })

  it('tells values apart exactly as their keys do', () => {
    const values: Value[] = [1, '1', true, 'true', 0, -0, '0', false, Number.NaN, 'NaN', 2.5, 'a', 'b']
    for (const a of values) for (const b of values) expect(sameValue(a, b), `${String(a)} vs ${String(b)}`).toBe(valueKey(a) === valueKey(b))
  })
})

/** The vote as defined: a tally by value key in order of first appearance; a later equal count ties the leader. */
function voteByKeys(values: readonly Value[]): { value: Value | null; tied: boolean } {
  const tally = new Map<string, { value: Value; count: number }>()
  for (const v of values) {
    const entry = tally.get(valueKey(v))
    if (entry) entry.count++
    else tally.set(valueKey(v), { value: v, count: 1 })
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

describe('combine by vote', () => {
  it('gives the tally by value key on every short and long list, lookalikes kept apart', () => {
    const pool: Value[] = [1, '1', true, 'true', 0, -0, Number.NaN, 'NaN', 'a', 'b', false]
    let state = 11
    const next = (bound: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return state % bound
    }
    for (let round = 0; round < 3000; round++) {
      const length = 1 + next(round % 10 === 0 ? 40 : 7)
      const values = Array.from({ length }, () => pool[next(round % 3 === 0 ? pool.length : 3)] as Value)
      const got = combine(values, 'vote')
      const expected = voteByKeys(values)
      expect(got.tied).toBe(expected.tied)
      expect(Object.is(got.value, expected.value)).toBe(true)
    }
    expect(combine([2, 1, 1, 2, 3, 3, 3], 'vote')).toEqual({ value: 3, tied: false })
    expect(combine(['x', 'y', 'x', 'y'], 'vote')).toEqual({ value: null, tied: true })
  })
})

describe('the audit frame', () => {
  it('codes every unit once across sources and each field\'s values by type, and gives a derived source columns of its own', () => {
    const judge = source([call(1, 0, { choice: 'x', score: 1 }), call(2, 0, { choice: 'y', score: 2 }, 'v')])
    const other: ReportSourceInput = { ...source([call(2, 0, { choice: 'x', score: '1' }, 'v'), call(1, 0, { choice: 'x', score: 1 })]), id: 'o' }
    const frame = ReportFrame.of([judge, other], fields)
    const a = frame.columnsOf(judge)
    const b = frame.columnsOf(other)
    expect(frame.units.size).toBe(2)
    expect([...a.unit]).toEqual([0, 1])
    expect([...b.unit]).toEqual([1, 0])
    expect(frame.units.key(1)).toBe(unitKey(2, 'v'))
    expect(frame.units.item(1)).toBe(2)
    expect([...a.item]).toEqual([1, 2])
    // '1' and 1 are different answers, as their value keys say.
    expect(b.field('score').values).toEqual(['1', 1])
    expect([...b.field('score').codes]).toEqual([0, 1])
    expect(frame.columnsOf(judge)).toBe(a)
    const filtered = { ...judge, calls: judge.calls.slice(1) }
    const c = frame.columnsOf(filtered)
    expect(c).not.toBe(a)
    expect([...c.unit]).toEqual([1])
    expect(new Map(resolveSource(filtered, fields, new Set([1, 2]), frame).values.get('choice'))).toEqual(new Map([[unitKey(2, 'v'), 'y']]))
  })
})

// The coded twin of a resolved values map must say exactly what the map says: the comparisons, strengths and
// judge-vs-judge tests read it instead of the map wherever both sides were resolved on one frame.
describe('coded values', () => {
  /** What walking the map's entries gives: key, item, value, in order. */
  const walkedByKey = (values: ReadonlyMap<string, Value>): Array<[string, number, Value]> => [...values].map(([key, value]) => [key, itemOfUnitKey(key), value])
  const walked = (values: ReadonlyMap<string, Value>): Array<[string, number, Value]> => {
    const out: Array<[string, number, Value]> = []
    forEachUnit(values, (key, _code, item, value) => out.push([key, item, value]))
    return out
  }
  /** Another map's values on the units of `along`, read as the tables read them. */
  const readAlong = (values: ReadonlyMap<string, Value> | undefined, along: ReadonlyMap<string, Value>): Array<Value | undefined> => {
    const read = valueReader(values, along)
    const out: Array<Value | undefined> = []
    forEachUnit(along, (key, code) => out.push(read(key, code)))
    return out
  }
  const frame = new ReportFrame()
  const scope = new Set([1, 2, 3, 4])
  // Lone answers, a vote of three (one unit tied and left without a value), means, and a second unit on one item.
  const first = resolveSource(
    source(
      [
        call(3, 0, { choice: 'y', score: 2 }),
        call(1, 0, { choice: 'x', score: 1 }),
        call(1, 1, { choice: 'y', score: 4 }),
        call(2, 0, { choice: 'x', score: 3 }),
        call(2, 1, { choice: 'x', score: 5 }),
        call(2, 2, { choice: 'y', score: 1 }),
        call(2, 0, { choice: 'y' }, 'other')
      ],
      'first'
    ),
    fields,
    scope,
    frame
  )
  const second = resolveSource(source([call(4, 0, { choice: 'x', score: 7 }), call(3, 0, { choice: 'x', score: 2 }), call(2, 0, { choice: 'y' }, 'other')], 'second'), fields, scope, frame)
  const choices = first.values.get('choice') as ReadonlyMap<string, Value>

  it('walks every resolved field in the map\'s order, with the same keys, items and values', () => {
    for (const resolved of [first, second]) {
      for (const field of fields) {
        const values = resolved.values.get(field.name) as ReadonlyMap<string, Value>
        expect(unitValuesOf(values)).toBeDefined()
        expect(walked(values)).toEqual(walkedByKey(values))
      }
    }
    // The tied unit (item 1: x against y) has no value, in the map and in its twin alike.
    expect(choices.has(unitKey(1, 'u'))).toBe(false)
    expect(walked(choices).map(([key]) => key)).not.toContain(unitKey(1, 'u'))
  })

  it('reads another source\'s values on those units as the map does, none where it has none', () => {
    for (const field of fields) {
      const along = first.values.get(field.name) as ReadonlyMap<string, Value>
      const other = second.values.get(field.name) as ReadonlyMap<string, Value>
      expect(readAlong(other, along)).toEqual([...along.keys()].map((key) => other.get(key)))
    }
    // The first's units in order of first answer (3, then 2 and 2's other unit; 1 tied): the second's values there.
    expect([...choices.values()]).toEqual(['y', 'x', 'y'])
    expect(readAlong(second.values.get('choice'), choices)).toEqual(['x', undefined, 'y'])
  })

  it('answers every read of a keyed map, whichever comes first, as a map of its twin\'s units would', () => {
    const calls = [call(3, 0, { choice: 'y', score: 2 }), call(1, 0, { choice: 'x', score: 1 }), call(2, 0, { choice: 'x' }, 'other')]
    const expected = [
      [unitKey(3, 'u'), 'y'],
      [unitKey(1, 'u'), 'x'],
      [unitKey(2, 'other'), 'x']
    ] as Array<[string, Value]>
    const reads: Array<(m: Map<string, Value>) => unknown> = [
      (m) => m.size,
      (m) => m.get(unitKey(1, 'u')),
      (m) => m.get(unitKey(9, 'u')),
      (m) => m.has(unitKey(2, 'other')),
      (m) => [...m],
      (m) => [...m.entries()],
      (m) => [...m.keys()],
      (m) => [...m.values()],
      (m) => {
        const seen: unknown[] = []
        m.forEach((v, k) => seen.push([k, v]))
        return seen
      },
      (m) => new Map(m)
    ]
    reads.forEach((read, first) => {
      // A new frame each time, so each map is read first by another read.
      const values = resolveSource(source(calls, `s${first}`), fields, new Set([1, 2, 3]), new ReportFrame()).values.get('choice') as Map<string, Value>
      const plain = new Map(expected)
      expect(read(values), `read ${first} first`).toEqual(read(plain))
      for (const after of reads) expect(after(values)).toEqual(after(plain))
      expect(valueOfUnit(values, 2, 'other')).toBe('x')
      expect(valueOfUnit(values, 2, 'u')).toBeUndefined()
      expect(valueOfUnit(plain, 3, 'u')).toBe('y')
    })
  })

  it('drops the twin of a map changed by key, so that every reader then reads the changed map', () => {
    for (const change of [
      (m: Map<string, Value>) => m.set(unitKey(3, 'u'), 'x'),
      (m: Map<string, Value>) => m.set(unitKey(9, 'u'), 'y'),
      (m: Map<string, Value>) => m.delete(unitKey(1, 'u')),
      (m: Map<string, Value>) => m.clear()
    ]) {
      const values = resolveSource(source([call(3, 0, { choice: 'y' }), call(1, 0, { choice: 'x' })]), fields, new Set([1, 3]), new ReportFrame()).values.get('choice') as Map<string, Value>
      expect(unitValuesOf(values)).toBeDefined()
      change(values)
      const plain = new Map(values)
      expect(unitValuesOf(values)).toBeUndefined()
      expect(values.size).toBe(plain.size)
      expect(walked(values)).toEqual(walkedByKey(plain))
      expect(valueOfUnit(values, 3, 'u')).toBe(plain.get(unitKey(3, 'u')))
      expect(valueOfUnit(values, 1, 'u')).toBe(plain.get(unitKey(1, 'u')))
    }
  })

  it('gives a majority of sources its own twin, and leaves a hand-built map to be read by key', () => {
    const majority = combineSources([first, second], fields, { id: 'majority', kind: 'human_majority', name: 'majority', detail: {}, calls: [] })
    for (const field of fields) {
      const values = majority.values.get(field.name) as ReadonlyMap<string, Value>
      expect(unitValuesOf(values)).toBeDefined()
      expect(walked(values)).toEqual(walkedByKey(values))
    }
    const handBuilt = new Map<string, Value>([
      [unitKey(3, 'u'), 'x'],
      [unitKey(9, 'u'), 'y']
    ])
    expect(unitValuesOf(handBuilt)).toBeUndefined()
    expect(walked(handBuilt)).toEqual(walkedByKey(handBuilt))
    expect(readAlong(choices, handBuilt)).toEqual(['y', undefined])
    // A map with a twin read along a hand-built one is read by key too.
    expect(readAlong(handBuilt, choices)).toEqual([...choices.keys()].map((key) => handBuilt.get(key)))
  })
})
