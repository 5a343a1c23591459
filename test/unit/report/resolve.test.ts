import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '../../../src/shared/instruments/types'
import type { ReportSourceInput, SourceCall } from '../../../src/shared/report'
import { ReportFrame } from '../../../src/shared/report/frame'
import { combine, itemOfUnitKey, resolveSource, sameValue, unitKey, valueKey, type Value } from '../../../src/shared/report/resolve'

const fields: FieldSpec[] = [
  { name: 'choice', label: 'Choice', level: 'nominal', categories: ['x', 'y'] },
  { name: 'score', label: 'Score', level: 'interval' }
]

function call(itemId: number, trial: number, values: Record<string, string | number>, unit = 'u'): SourceCall {
  return { itemId, trial, order: 0, status: 'ok', observations: [{ unit, values }] }
}

function source(calls: SourceCall[]): ReportSourceInput {
  return { id: 's', kind: 'judge_run', name: 's', detail: {}, calls }
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
    expect(resolveSource(filtered, fields, new Set([1, 2]), frame).values.get('choice')).toEqual(new Map([[unitKey(2, 'v'), 'y']]))
  })
})
