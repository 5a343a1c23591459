import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildProgram } from '../../../src/main/cli/program'
import { runProgram, type CliIO } from '../../../src/main/cli/run'
import { Project } from '../../../src/main/store/project'

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: CliIO = { out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`) }
  const code = await runProgram(buildProgram(io), args, io)
  return { code, out, err }
}

const question = (id: string) => JSON.stringify({ question_id: id, question: `Question ${id}?` })

describe('assay import', () => {
  let dir: string
  let file: string
  const counts = async () => {
    const p = await Project.open(file)
    try {
      const n = (sql: string) => (p.db.prepare(sql).get() as { n: number }).n
      return { items: n('SELECT count(*) AS n FROM items'), imports: n('SELECT count(*) AS n FROM imports'), annotations: n('SELECT count(*) AS n FROM annotations') }
    } finally {
      p.close()
    }
  }
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assay-cli-import-'))
    file = join(dir, 'p.assay')
    ;(await Project.create(file)).close()
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('imports a file and prints a one-line summary', async () => {
    const data = join(dir, 'q.jsonl')
    writeFileSync(data, [question('Q1'), question('Q2')].join('\n'))
    const r = await cli(['import', file, 'questions', data, '--set', 'cues', '--split', 'dev'])
    expect(r.code).toBe(0)
    expect(r.out).toContain(`Imported 2 items from ${data} into set "cues" (split dev)`)
    expect(await counts()).toEqual({ items: 2, imports: 1, annotations: 0 })
  })

  it('exits 1 on a malformed file, lists file:line: field: message, and leaves the project unchanged', async () => {
    const first = join(dir, 'first.jsonl')
    writeFileSync(first, question('Q0'))
    expect((await cli(['import', file, 'questions', first])).code).toBe(0)
    const before = await counts()
    const data = join(dir, 'bad.jsonl')
    writeFileSync(data, [question('Q1'), '{"question_id": "Q2", "question": 5}', '{not json', question('Q3')].join('\n'))
    const r = await cli(['import', file, 'questions', data])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`${data}:3: not valid JSON`)
    const schema = join(dir, 'schema.jsonl')
    writeFileSync(schema, [question('Q1'), '{"question_id": "Q2", "question": 5}'].join('\n'))
    const r2 = await cli(['import', file, 'questions', schema])
    expect(r2.code).toBe(1)
    expect(r2.err).toMatch(new RegExp(`${schema.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: question: .+`))
    expect(r2.err).toContain('nothing was imported')
    expect(await counts()).toEqual(before)
  })

  it('prints exactly imported, skipped, warnings, errors and the summary with --json', async () => {
    const data = join(dir, 'tasks.jsonl')
    writeFileSync(
      data,
      [
        JSON.stringify({ task_id: 'T1', background: 'b', question: 'q', finding: 'f' }),
        JSON.stringify({ task_id: 'T2', background: 'b', question: 'q', finding: 'f', leak: true })
      ].join('\n')
    )
    const ok = await cli(['import', file, 'tasks', data, '--json'])
    expect(ok.code).toBe(0)
    const parsed = JSON.parse(ok.out)
    expect(Object.keys(parsed)).toEqual(['imported', 'skipped', 'warnings', 'errors', 'summary'])
    expect(parsed).toEqual({
      imported: 1,
      skipped: 1,
      warnings: [{ file: data, line: 2, field: 'leak', message: 'task T2 failed the leak audit; skipped' }],
      errors: [],
      summary: parsed.summary
    })
    expect(typeof parsed.summary).toBe('object')
    const again = await cli(['import', file, 'tasks', data, '--json'])
    expect(again.code).toBe(1)
    expect(JSON.parse(again.out).errors).toEqual([{ file: data, line: 1, field: 'task_id', message: 'rediscovery-task "T1" is already in the project' }])
  })

  it('writes nothing in a dry run', async () => {
    const data = join(dir, 'q.jsonl')
    writeFileSync(data, [question('Q1'), question('Q2'), question('Q3')].join('\n'))
    const r = await cli(['import', file, 'questions', data, '--dry-run'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('Would import 3 items')
    expect(r.out).toContain('research-question  Q1  Question Q1?')
    expect(await counts()).toEqual({ items: 0, imports: 0, annotations: 0 })
  })

  it('exits 2 on usage errors and detects the format with auto', async () => {
    const data = join(dir, 'q.jsonl')
    writeFileSync(data, question('Q1'))
    expect((await cli(['import', file, 'nonsense', data])).code).toBe(2)
    expect((await cli(['import', file, 'questions', data, '--split', 'train'])).code).toBe(2)
    expect((await cli(['import', file, 'questions'])).code).toBe(2)
    const auto = await cli(['import', file, 'auto', data])
    expect(auto.code).toBe(0)
    expect(await counts()).toMatchObject({ items: 1 })
  })

  it('exits 1 when the project or the data file does not exist', async () => {
    expect((await cli(['import', join(dir, 'missing.assay'), 'questions', join(dir, 'x.jsonl')])).code).toBe(1)
    const r = await cli(['import', file, 'questions', join(dir, 'x.jsonl')])
    expect(r.code).toBe(1)
    expect(r.err).toContain('x.jsonl: file not found')
  })
})
