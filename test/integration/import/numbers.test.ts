import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { jsonWithWrittenNumbers } from '../../../src/main/import/numbers'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'

// What a file says about numbers, dates and columns is kept exactly, or the file is refused with its place.

describe('numbers, times and columns in imported files', () => {
  let tmp: ReturnType<typeof tempDir>
  let project: Project
  beforeEach(async () => {
    tmp = tempDir('assay-numbers-')
    project = await Project.create(tmp.file('p.assay'))
  })
  afterEach(() => {
    project.close()
    tmp.cleanup()
  })

  const payloads = () =>
    Object.fromEntries((project.db.prepare(`SELECT external_id, payload FROM items ORDER BY id`).all() as { external_id: string; payload: string }[]).map((r) => [r.external_id, JSON.parse(r.payload)]))
  const importText = async (name: string, text: string, format: 'questions' | 'labels' = 'questions') => {
    const path = tmp.file(name)
    writeFileSync(path, text)
    return importFile(project, format, path)
  }

  it('keeps the numbers of fields Assay does not read exactly as written, marked as text where a double would change them', async () => {
    const line = '{"question_id": "q1", "question": "Why?", "big": 9007199254740993, "huge": 1e400, "price": 1.10, "plain": 2.5, "nested": {"ids": [12345678901234567890, 7]}}'
    const r = await importText('q.jsonl', `${line}\n`)
    expect(r.errors).toEqual([])
    const extra = payloads().q1.$extra
    expect(extra).toEqual({
      big: { $number: '9007199254740993' },
      huge: { $number: '1e400' },
      price: { $number: '1.10' },
      plain: 2.5,
      nested: { ids: [{ $number: '12345678901234567890' }, 7] }
    })
  })

  it('writes such numbers back as their text where Assay writes an import format (probes in the pairs format)', async () => {
    const extras = '{"big":9007199254740993,"price":1.10,"plain":2.5,"list":[1e400,-0]}'
    const r = await importText('q.jsonl', `{"question_id":"q1","question":"Why?",${extras.slice(1, -1)}}\n`)
    expect(r.errors).toEqual([])
    expect(jsonWithWrittenNumbers(payloads().q1.$extra)).toBe(extras)
  })

  it('does the same in a JSON array file, each number found in its own record', async () => {
    const r = await importText('q.json', `[\n  {"question_id": "a", "question": "A?", "n": 1},\n  {"question_id": "b", "question": "B?", "n": 18446744073709551615}\n]\n`)
    expect(r.errors).toEqual([])
    expect(payloads().a.$extra).toEqual({ n: 1 })
    expect(payloads().b.$extra).toEqual({ n: { $number: '18446744073709551615' } })
  })

  it('refuses a number a double cannot hold in a field Assay reads, with file, line and field', async () => {
    const pair = (n: string) => `{"item": "x", "instrument": "pairwise-preference", "source": "judge", "source_kind": "model", "judgement": {"verdict": "a_better", "confidence": ${n}}}`
    const r = await importText('labels.jsonl', `${pair('1e400')}\n`, 'labels')
    expect(r.errors).toContainEqual(expect.objectContaining({ file: tmp.file('labels.jsonl'), line: 1, field: 'judgement.confidence', message: expect.stringContaining('cannot be read exactly') }))
    expect(r.imported).toBe(0)
  })

  it('refuses such a number inside JSON text given as a string (a judgement written as JSON text), instead of rounding it', async () => {
    writeFileSync(tmp.file('pairs.jsonl'), `${JSON.stringify({ pair_id: 'x', a: { markdown: '# A\n\ntext' }, b: { markdown: '# B\n\ntext' } })}\n`)
    expect((await importFile(project, 'pairs', tmp.file('pairs.jsonl'))).errors).toEqual([])
    const row = { item: 'x', instrument: 'pairwise-preference', source: 'judge', source_kind: 'model', judgement: '{"verdict": "a_better", "tokens": 12345678901234567890}' }
    const r = await importText('labels.jsonl', `${JSON.stringify(row)}\n`, 'labels')
    expect(r.errors).toContainEqual(expect.objectContaining({ line: 1, field: 'judgement.tokens', message: expect.stringContaining('12345678901234567890 cannot be read exactly') }))
  })

  it('refuses active_ms that is not a whole number (true is not 1) and created_at that is not a real day', async () => {
    writeFileSync(tmp.file('q.jsonl'), '{"question_id": "x", "question": "X?"}\n')
    expect((await importFile(project, 'questions', tmp.file('q.jsonl'))).errors).toEqual([])
    const row = (extra: string) => `{"item": "x", "instrument": "cue-rating", "source": "Ada", "source_kind": "human", "judgement": {}, ${extra}}`
    const r = await importText(
      'labels.jsonl',
      [row('"active_ms": true'), row('"created_at": "2025-02-30T10:00:00Z"'), row('"created_at": "2025-13-01"'), row('"active_ms": 9007199254740993')].join('\n'),
      'labels'
    )
    const at = (line: number, field: string) => r.errors.some((e) => e.line === line && e.field === field)
    expect(at(1, 'active_ms')).toBe(true)
    expect(at(2, 'created_at')).toBe(true)
    expect(at(3, 'created_at')).toBe(true)
    expect(at(4, 'active_ms')).toBe(true)
    expect(r.errors.find((e) => e.line === 1 && e.field === 'active_ms')?.message).toContain('true')
    expect(r.imported).toBe(0)
  })

  it('refuses a CSV column without a name that holds data, and leaves out only an empty one or pandas’ index', async () => {
    const refused = await importText('q.csv', ['question_id,question,', 'q1,Why?,', 'q2,How?,kept?'].join('\n'))
    expect(refused.errors).toContainEqual(expect.objectContaining({ line: 3, field: 'column 3', message: expect.stringContaining('has no name but holds data') }))
    const unnamed = await importText('u.csv', ['question_id,question,Unnamed: 2', 'q1,Why?,note'].join('\n'))
    expect(unnamed.errors).toContainEqual(expect.objectContaining({ line: 2, field: 'Unnamed: 2' }))
    expect(payloads()).toEqual({})
    const index = await importText('i.csv', [',question_id,question,', '0,q1,Why?,', '1,q2,How?,'].join('\n'))
    expect(index.errors).toEqual([])
    expect(Object.keys(payloads())).toEqual(['q1', 'q2'])
  })
})
