import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { scanJson } from '../../../src/main/import/json-scan'
import { findInvalidUtf8 } from '../../../src/main/import/utf8'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

const question = (id: string, text = `Question ${id}?`) => JSON.stringify({ question_id: id, question: text })

describe('imports that would be silently altered are refused with their place', () => {
  let tmp: ReturnType<typeof tempDir>
  let file: string
  const stored = async () => {
    const p = await Project.open(file)
    try {
      return p.db.prepare(`SELECT external_id, payload FROM items ORDER BY id`).all() as { external_id: string; payload: string }[]
    } finally {
      p.close()
    }
  }
  beforeEach(async () => {
    tmp = tempDir('assay-hostile-')
    file = tmp.file('p.assay')
    ;(await Project.create(file)).close()
  })
  afterEach(() => tmp.cleanup())

  it('refuses invalid UTF-8 with file, line and byte offset; --lossy accepts it and counts the replacements', async () => {
    const data = tmp.file('q.jsonl')
    const head = Buffer.from(`${question('Q1')}\n{"question_id":"Q2","question":"caf`)
    writeFileSync(data, Buffer.concat([head, Buffer.from([0xe9, 0x3f]), Buffer.from('"}\n'), Buffer.from(`${question('Q3', 'ok \u00e9')}\n`)]))
    const r = await runCli('import', file, 'questions', data)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`${data}:2: invalid UTF-8 at byte offset ${head.length}`)
    expect(await stored()).toEqual([])

    const lossy = await runCli('import', file, 'questions', data, '--lossy')
    expect(lossy.code).toBe(0)
    expect(lossy.stderr).toContain('1 invalid UTF-8 sequence replaced by U+FFFD')
    expect(lossy.stdout).toContain('"invalidUtf8Replaced":1')
    expect(JSON.parse((await stored())[1]!.payload).question).toBe('caf\ufffd?')
  })

  it('finds overlong, surrogate and cut sequences but accepts every valid one', () => {
    const valid = Buffer.from('a é € 𝄞 \u{10ffff}')
    expect(findInvalidUtf8(valid)).toEqual([])
    // One entry per U+FFFD the decoder writes (see test/unit/import/utf8.test.ts): C0 and AF are two, ED A0 80 three.
    expect(findInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toEqual([{ offset: 1, line: 1 }, { offset: 2, line: 1 }])
    expect(findInvalidUtf8(Buffer.from([0x0a, 0xed, 0xa0, 0x80]))).toEqual([1, 2, 3].map((offset) => ({ offset, line: 2 })))
    expect(findInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toEqual([{ offset: 1, line: 1 }])
    expect(findInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toEqual([0, 1, 2, 3].map((offset) => ({ offset, line: 1 })))
  })

  it('with --lossy, reports as many replacements as the stored text holds U+FFFD', async () => {
    const data = tmp.file('sur.jsonl')
    const markdown = Buffer.concat([Buffer.from('sur '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' and '), Buffer.from([0xc0, 0xaf]), Buffer.from(' and '), Buffer.from([0xf0, 0x80, 0x80, 0x80])])
    writeFileSync(data, Buffer.concat([Buffer.from('{"pair_id":"s1","topic":"t","a":{"markdown":"ok"},"b":{"markdown":"'), markdown, Buffer.from('"}}\n')]))
    const lossy = await runCli('import', file, 'pairs', data, '--lossy')
    expect(lossy.code, lossy.stderr).toBe(0)
    const text = JSON.parse((await stored())[0]!.payload).b.markdown as string
    expect([...text].filter((c) => c === '\ufffd')).toHaveLength(9)
    expect(lossy.stderr).toContain('9 invalid UTF-8 sequences replaced by U+FFFD')
    expect(lossy.stdout).toContain('"invalidUtf8Replaced":9')
    // The command's JSON result carries the same count.
    const second = tmp.file('lossy-json.assay')
    expect((await runCli('new', second)).code).toBe(0)
    const again = await runCli('import', second, 'pairs', data, '--lossy', '--json')
    expect(JSON.parse(again.stdout).summary).toMatchObject({ invalidUtf8Replaced: 9 })
  })

  it('refuses ragged CSV rows with their row number', async () => {
    const data = tmp.file('q.csv')
    writeFileSync(data, ['question_id,question', 'Q1,First?', 'Q2,Second?,extra', 'Q3', 'Q4,Fourth?'].join('\n'))
    const r = await runCli('import', file, 'questions', data)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`${data}:3: row 3 has 3 cells; the header has 2 columns`)
    expect(r.stderr).toContain(`${data}:4: row 4 has 1 cell; the header has 2 columns`)
    expect(await stored()).toEqual([])
  })

  it('refuses duplicate keys and prototype keys with file, line and key', async () => {
    const dup = tmp.file('dup.jsonl')
    writeFileSync(dup, [question('Q1'), '{"question_id":"Q2","question":"kept?","question":"dropped?"}'].join('\n'))
    const r = await runCli('import', file, 'questions', dup)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`${dup}:2: question: the key "question" appears twice in one object`)

    const proto = tmp.file('proto.json')
    writeFileSync(proto, `[\n${question('Q1')},\n{"question_id":"Q2","question":"q?","meta":{"__proto__":{"x":1}}}\n]`)
    const p = await runCli('import', file, 'questions', proto)
    expect(p.code).toBe(1)
    expect(p.stderr).toContain(`${proto}:3: meta.__proto__: the key "__proto__" is not accepted as data`)

    const ctor = tmp.file('ctor.csv')
    writeFileSync(ctor, 'question_id,question,constructor\nQ1,q?,x\n')
    const c = await runCli('import', file, 'questions', ctor)
    expect(c.code).toBe(1)
    expect(c.stderr).toContain('constructor')
    expect(await stored()).toEqual([])
  })

  it('previews a column named like an Object method as any other column, within the contract', async () => {
    const ctor = tmp.file('ctor.csv')
    writeFileSync(ctor, 'question_id,question,constructor\nQ1,q?,x\n')
    const project = await Project.open(file)
    try {
      const env = await dispatch(contextFor(project), 'import.preview', { path: ctor, format: 'questions' })
      expect(env.ok, JSON.stringify(env)).toBe(true)
      if (!env.ok) return
      const report = env.value as { mapping: Array<{ field: string; to: string }>; errors: Array<{ message: string }> }
      expect(report.mapping).toContainEqual({ field: 'constructor', to: 'kept unchanged under $extra' })
    } finally {
      project.close()
    }
  })

  it('bounds nesting depth and names file and line instead of overflowing the stack', async () => {
    const deep = tmp.file('deep.jsonl')
    const nested = '['.repeat(100_000) + ']'.repeat(100_000)
    writeFileSync(deep, [question('Q1'), `{"question_id":"Q2","question":"q?","extra":${nested}}`].join('\n'))
    const r = await runCli('import', file, 'questions', deep)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`${deep}:2: nested deeper than 64 levels`)
    expect(r.stderr).not.toContain('call stack')

    const deepJson = tmp.file('deep.json')
    writeFileSync(deepJson, `[\n${question('Q1')},\n{"question_id":"Q2","extra":\n${nested}}\n]`)
    const j = await runCli('import', file, 'questions', deepJson)
    expect(j.code).toBe(1)
    expect(j.stderr).toContain(`${deepJson}:4: nested deeper than 64 levels`)
  })

  it('scans keys with escapes and ignores braces inside strings', () => {
    expect(scanJson('{"a":"{[","b":1}')).toBeNull()
    expect(scanJson('{"\\u005f_proto__":1}')).toMatchObject({ field: '__proto__' })
    expect(scanJson('{"a":{"b":1},"c":{"b":2}}')).toBeNull()
    expect(scanJson('{"a":1,\n"a":2}')).toMatchObject({ line: 2, field: 'a' })
  })
})

describe('Markdown files named by a pairs import', () => {
  it('are held to the same UTF-8 rule', async () => {
    const tmp = tempDir('assay-md-utf8-')
    try {
      const file = tmp.file('p.assay')
      ;(await Project.create(file)).close()
      writeFileSync(tmp.file('a.md'), Buffer.concat([Buffer.from('# A\n\nna'), Buffer.from([0xff]), Buffer.from('ve\n')]))
      writeFileSync(tmp.file('b.md'), '# B\n\nfine\n')
      const pairs = tmp.file('pairs.jsonl')
      writeFileSync(pairs, JSON.stringify({ pair_id: 'p1', a: { path: 'a.md', origin: 'human' }, b: { path: 'b.md', origin: 'ai' } }))
      const r = await runCli('import', file, 'pairs', pairs)
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('a.path: a.md: invalid UTF-8 at line 3, byte offset 7')
      const lossy = await runCli('import', file, 'pairs', pairs, '--lossy')
      expect(lossy.code).toBe(0)
      expect(lossy.stdout).toContain('"invalidUtf8Replaced":1')
    } finally {
      tmp.cleanup()
    }
  })
})

describe('the workbench import operation', () => {
  it('refuses invalid UTF-8 with its place, and accepts it when asked to be lossy', async () => {
    const tmp = tempDir('assay-api-utf8-')
    const project = await Project.create(tmp.file('p.assay'))
    try {
      const ctx = contextFor(project)
      const data = tmp.file('q.jsonl')
      writeFileSync(data, Buffer.concat([Buffer.from('{"question_id":"Q1","question":"caf'), Buffer.from([0xe9]), Buffer.from('?"}\n')]))
      const strict = await dispatch(ctx, 'import.preview', { path: data, format: 'questions' })
      expect(strict.ok && (strict.value as { errors: unknown }).errors).toEqual([expect.objectContaining({ file: data, line: 1, message: expect.stringContaining('invalid UTF-8 at byte offset 35') })])
      const lossy = await dispatch(ctx, 'import.run', { path: data, format: 'questions', lossy: true })
      expect(lossy.ok && lossy.value).toMatchObject({ imported: 1, summary: { invalidUtf8Replaced: 1 } })
    } finally {
      project.close()
      tmp.cleanup()
    }
  })
})
