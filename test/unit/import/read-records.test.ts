import { describe, expect, it } from 'vitest'
import { detectContainer, readRecords, topLevelElementLines } from '../../../src/main/import/read-records'

describe('readRecords', () => {
  it('numbers JSONL records by line, skipping blank lines, and names bad lines', () => {
    const r = readRecords('f.jsonl', '/x/f.jsonl', '{"a":1}\n\n{"a":2}\n{bad\n')
    expect(r.records).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { a: 2 } }
    ])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatchObject({ file: 'f.jsonl', line: 4 })
  })

  it('finds the line each element of a JSON array starts on', () => {
    const text = '[\n  {"a": "x,]}"},\n  {\n    "b": [1,\n 2]\n  },\n\n  3\n]'
    const r = readRecords('f.json', '/x/f.json', text)
    expect(r.records.map((x) => x.line)).toEqual([2, 3, 8])
  })

  it('reads the rows of a manifest object under a known key, with their lines', () => {
    const text = '{\n "label_balance": {"a_better": 1},\n "pairs": [\n  {"pair_id": "p1"},\n  {"pair_id": "p2"}\n ]\n}'
    const r = readRecords('m.json', '/x/m.json', text, ['pairs'])
    expect(r.records).toEqual([
      { line: 4, value: { pair_id: 'p1' } },
      { line: 5, value: { pair_id: 'p2' } }
    ])
    expect(r.root).toMatchObject({ label_balance: { a_better: 1 } })
    expect(topLevelElementLines('{"x": [[1], [2]], "pairs": [\n{}, \n{}]}', 'pairs')).toEqual([2, 3])
  })

  it('reports invalid JSON with its line', () => {
    const r = readRecords('f.json', '/x/f.json', '[\n{"a": 1},\n{"a": }\n]')
    expect(r.errors[0]).toMatchObject({ file: 'f.json', line: 3 })
  })

  it('numbers CSV rows with the header as row 1, drops the pandas index column and strips a BOM', () => {
    const r = readRecords('f.csv', '/x/f.csv', '\uFEFF,id,idea\n0,7,"two\nlines"\n1,8,plain\n\n')
    expect(r.columns).toEqual(['id', 'idea'])
    expect(r.records).toEqual([
      { line: 2, value: { id: '7', idea: 'two\nlines' } },
      { line: 3, value: { id: '8', idea: 'plain' } }
    ])
  })

  it('reports a repeated CSV column', () => {
    const r = readRecords('f.csv', '/x/f.csv', 'a,b,a\n1,2,3\n')
    expect(r.errors[0]).toMatchObject({ line: 1, field: 'a' })
  })

  it('tells the container from the extension, else from the text', () => {
    expect(detectContainer('x.tsv', '')).toBe('tsv')
    expect(detectContainer('x.txt', '{"a":1}\n{"a":2}')).toBe('jsonl')
    expect(detectContainer('x.txt', '{\n"a": 1\n}')).toBe('json')
    expect(detectContainer('x.txt', 'a,b\n1,2')).toBe('csv')
  })
})
