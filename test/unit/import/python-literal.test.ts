import { describe, expect, it } from 'vitest'
import { parsePythonLiteral, PythonLiteralError } from '../../../src/main/import/python-literal'

describe('parsePythonLiteral', () => {
  it('reads the dicts pandas writes for LiveIdeaBench scores', () => {
    expect(parsePythonLiteral("{'originality': 8, 'feasibility': 6, 'clarity': 7}")).toEqual({ originality: 8, feasibility: 6, clarity: 7 })
    expect(parsePythonLiteral("{'originality': 'N/A', 'feasibility': 5}")).toEqual({ originality: 'N/A', feasibility: 5 })
  })

  it('refuses a score a double would change instead of rounding it', () => {
    expect(() => parsePythonLiteral("{'originality': 9007199254740993}")).toThrow(/9007199254740993 cannot be read exactly/)
    expect(() => parsePythonLiteral("{'originality': 1e400}")).toThrow(/cannot be read exactly/)
    expect(parsePythonLiteral("{'originality': 7.50, 'clarity': 9007199254740992}")).toEqual({ originality: 7.5, clarity: 9007199254740992 })
  })

  it('keeps apostrophes and escapes inside strings', () => {
    expect(parsePythonLiteral(`{"reason": "it's new", 'q': 'say \\'hi\\'\\n', 'u': '\\u00e9\\x41'}`)).toEqual({
      reason: "it's new",
      q: "say 'hi'\n",
      u: 'éA'
    })
    expect(parsePythonLiteral(String.raw`r'C:\temp\new'`)).toBe(String.raw`C:\temp\new`)
    expect(parsePythonLiteral(`'''a "quoted" 'word'
over lines'''`)).toBe(`a "quoted" 'word'\nover lines`)
    expect(parsePythonLiteral(`'ab' "cd"`)).toBe('abcd')
    expect(parsePythonLiteral(String.raw`'\101\0'`)).toBe('A\0')
  })

  it('reads numbers, booleans, None, nested containers and trailing commas', () => {
    expect(parsePythonLiteral('[1, -2.5, 1e3, 1_000, .5, True, False, None, (1, 2), {}, [],]')).toEqual([
      1,
      -2.5,
      1000,
      1000,
      0.5,
      true,
      false,
      null,
      [1, 2],
      {},
      []
    ])
    expect(parsePythonLiteral("{'a': {'b': [1, {'c': None}]}, 2: 'two', None: 1}")).toEqual({ a: { b: [1, { c: null }] }, 2: 'two', None: 1 })
  })

  it('turns nan and inf, which repr writes, into null', () => {
    expect(parsePythonLiteral("{'x': nan, 'y': -inf, 'z': inf}")).toEqual({ x: null, y: null, z: null })
  })

  it('rejects what is not a literal, with the position', () => {
    const bad = ["{'a': 1", "{'a' 1}", "'unterminated", 'foo', "{'a': 1} extra", '007', "f'x{y}'", '1+2j']
    for (const text of bad) expect(() => parsePythonLiteral(text), text).toThrow(PythonLiteralError)
    expect(() => parsePythonLiteral("{'a': 1, 'b': oops}")).toThrow(/unknown name "oops" at character 15/)
  })

  it('refuses repeated and prototype keys and bounds nesting instead of overflowing the stack', () => {
    expect(() => parsePythonLiteral("{'a': 1, 'a': 2}")).toThrow(/the key "a" appears twice/)
    expect(() => parsePythonLiteral("{'__proto__': {'x': 1}}")).toThrow(/the key "__proto__" is not accepted/)
    expect(() => parsePythonLiteral('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(/nested deeper than 64 levels/)
    expect(parsePythonLiteral('['.repeat(10) + ']'.repeat(10))).toEqual([[[[[[[[[[]]]]]]]]]])
  })
})
