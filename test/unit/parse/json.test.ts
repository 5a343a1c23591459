import { describe, expect, it } from 'vitest'
import { parseAnswer, parseJsonObject } from '../../../src/shared/parse'

function value(text: string, prefer?: 'first' | 'last'): unknown {
  const r = parseJsonObject(text, prefer ? { prefer } : {})
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`)
  return r.value
}

function error(text: string): string {
  const r = parseJsonObject(text)
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`)
  return r.error
}

describe('parseJsonObject', () => {
  it('reads a bare object, with surrounding white space and a BOM', () => {
    expect(value('{"leak":false,"evidence":""}')).toEqual({ leak: false, evidence: '' })
    expect(value('\uFEFF\n  {"a":1}\n')).toEqual({ a: 1 })
  })

  it('reads a ```json fence and an unlabelled fence', () => {
    expect(value('Here you go:\n```json\n{"selected":["C3","C1"]}\n```\nDone.')).toEqual({ selected: ['C3', 'C1'] })
    expect(value('```\n{"score":2}\n```')).toEqual({ score: 2 })
    expect(value('```JSON\n{"score":1}\n```')).toEqual({ score: 1 })
  })

  it('reads the LiveIdeaBench reviewer answer: analysis, then a block closed on the brace line', () => {
    const answer =
      'The idea is novel but vague {in places}.\n```json\n{\n    "originality": 7,\n    "feasibility": 5,\n    "clarity": 6\n}```'
    expect(value(answer)).toEqual({ originality: 7, feasibility: 5, clarity: 6 })
  })

  it('finds an object after prose, ignoring braces inside strings', () => {
    expect(value('I considered {a, b}. Final: {"reason":"uses } and { in text","match":3}')).toEqual({
      reason: 'uses } and { in text',
      match: 3
    })
    expect(value('Answer: {"q":"a \\" quote } here"} thanks')).toEqual({ q: 'a " quote } here' })
  })

  it('takes the last object by default and the first on request', () => {
    const text = 'Draft {"v":1}\nFinal {"v":2}'
    expect(value(text)).toEqual({ v: 2 })
    expect(value(text, 'first')).toEqual({ v: 1 })
  })

  it('skips fences in other languages and example objects that are not JSON', () => {
    const text = '```python\nx = {"v": 0}\n```\nFormat {"originality": <score_1_to_10>}\nAnswer {"originality": 8}'
    expect(value(text)).toEqual({ originality: 8 })
  })

  it('reports a cut-off answer', () => {
    expect(error('{"scores":[{"id":"P1","match":4,"compatible":true},{"id":"P2","ma')).toMatch(/ends inside a JSON object/)
    expect(error('```json\n{"forecasts":[{"id":"H1","confirmed":tr')).toMatch(/ends inside a JSON object/)
  })

  it('reports a cut-off final object even after a complete draft', () => {
    expect(error('Draft {"v":1}\nFinal answer: {"v": 2, "reason": "because')).toMatch(/ends inside a JSON object/)
  })

  it('does not repair malformed JSON', () => {
    expect(error('{"a":1,}')).toMatch(/no valid JSON object/)
    expect(error("{'a': 1}")).toMatch(/no valid JSON object/)
    expect(error('{"a": TRUE}')).toMatch(/no valid JSON object/)
  })

  it('refuses arrays, scalars, empty answers and prose', () => {
    expect(error('[{"id":"P1"}]')).toMatch(/expected a JSON object, got an array/)
    expect(error('"just a string"')).toMatch(/expected a JSON object, got string/)
    expect(error('   ')).toBe('empty answer')
    expect(error('I will now research this question and report back.')).toBe('no JSON object in the answer')
  })

  it('keeps a model object that happens to have an "error" field', () => {
    expect(value('{"error":"none","ok":true}')).toEqual({ error: 'none', ok: true })
  })

  it('never throws, whatever the input', () => {
    for (const text of ['{', '}', '{{{{', '"', '```', '```json', '{"a":"\\', undefined as unknown as string, '{"a":1}}']) {
      expect(() => parseJsonObject(text)).not.toThrow()
    }
    expect(parseJsonObject('{"a":1}}')).toEqual({ ok: true, value: { a: 1 } })
  })
})

describe('parseAnswer', () => {
  it('dispatches by answer format', () => {
    expect(parseAnswer('json', 'x {"a":1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(parseAnswer('json-block', 'analysis\n```json\n{"clarity":3}\n```')).toEqual({ ok: true, value: { clarity: 3 } })
    expect(parseAnswer('verdict-line', 'ok\nVERDICT: 7.5')).toEqual({ ok: true, value: '7.5' })
    expect(parseAnswer('letter', 'C')).toEqual({ ok: true, value: 'C' })
    expect(parseAnswer('text', '  pillars  ')).toEqual({ ok: true, value: 'pillars' })
    expect(parseAnswer('text', ' ')).toEqual({ ok: false, error: 'empty answer' })
  })
})
