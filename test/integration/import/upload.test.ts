import { readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import type { ApiContext } from '../../../src/main/api/context'
import { MAX_UPLOAD_BYTES } from '../../../src/shared/contract/import-operations'
import { Project } from '../../../src/main/store/project'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// Importing a file's content sent by the page (browser mode) and choosing a file with the desktop's open dialog.

const tmp = tempDir()
let project: Project
let ctx: ApiContext

async function call(op: string, input: unknown): Promise<any> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value
}

const uploadDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith('assay-upload-'))
const question = (id: string) => JSON.stringify({ question_id: id, question: `Question ${id}?` })
/** What the page sends: the file's bytes, base64. */
const b64 = (content: string | Buffer) => Buffer.from(content).toString('base64')

beforeAll(async () => {
  project = await Project.create(tmp.file('p.assay'))
  ctx = contextFor(project)
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('import of an uploaded file', () => {
  it('lists every problem of the file — unreadable lines and invalid ones — under the uploaded name, and writes nothing', async () => {
    const before = uploadDirs()
    const content = [question('q1'), '{"question_id": "q2"}', '{not json', '{"question_id": "q4", "question": 5}', question('q5')].join('\n')
    const report = await call('import.previewUpload', { name: 'cues.jsonl', bytes: b64(content) })
    expect(report.format).toBe('questions')
    expect(report.detected).toBe(true)
    expect(report.errors.map((e: any) => [e.file, e.line])).toEqual([
      ['cues.jsonl', 2],
      ['cues.jsonl', 3],
      ['cues.jsonl', 4]
    ])
    expect(report.errors[0].field).toBe('question')
    const run = await call('import.runUpload', { name: 'cues.jsonl', bytes: b64(content) })
    expect(run.imported).toBe(0)
    expect(project.info().items).toBe(0)
    // The private copy is gone either way.
    expect(uploadDirs()).toEqual(before)
  })

  it('imports all of a good file in one go, named after the upload and recorded as an upload', async () => {
    const report = await call('import.runUpload', { name: 'cues.jsonl', bytes: b64([question('q1'), question('q2')].join('\n')), split: 'dev' })
    expect(report).toMatchObject({ imported: 2, items: 2, set: 'cues', split: 'dev', errors: [] })
    expect(project.db.prepare(`SELECT source FROM imports`).all()).toEqual([{ source: 'upload:cues.jsonl' }])
  })

  it('detects the format of each file by its own content', async () => {
    const pairs = JSON.stringify({ pair_id: 'p1', a: { markdown: '# A\n\ntext' }, b: { markdown: '# B\n\ntext' } })
    expect((await call('import.previewUpload', { name: 'data.jsonl', bytes: b64(pairs) })).format).toBe('pairs')
    expect((await call('import.previewUpload', { name: 'data.jsonl', bytes: b64(question('q7')) })).format).toBe('questions')
  })

  it('detects the imports of the preprint check, task composition and reference comparison, and refuses XML with what to do', async () => {
    const abstract = JSON.stringify({ pmid: '1', title: 'T', journal: 'J', abstract: 'A.' })
    expect((await call('import.previewUpload', { name: 'papers.jsonl', bytes: b64(abstract) })).format).toBe('abstracts')
    const refs = 'pair_id,finding_a,key_points_a,finding_b,key_points_b\nr1,A.,"x; y",B.,z\n'
    expect((await call('import.previewUpload', { name: 'refs.csv', bytes: b64(refs) })).format).toBe('references')
    const xml = await call('import.previewUpload', { name: 'pubmed.xml', bytes: b64('<PubmedArticleSet/>') }).catch((e: unknown) => e)
    expect((xml as Error).message).toContain('pubmed.xml: XML files are not read (PubMed XML included)')
  })

  it('says why a file that refers to files beside it cannot be uploaded, without naming the private copy', async () => {
    const pair = JSON.stringify({ pair_id: 'p9', a: { path: 'proposals/p9_a.md' }, b: { markdown: '# B\n\ntext' } })
    const report = await call('import.previewUpload', { name: 'pairs.jsonl', bytes: b64(pair) })
    expect(report.errors).toEqual([expect.objectContaining({ file: 'pairs.jsonl', line: 1, field: 'a.path', message: expect.stringContaining('import it by path') })])
    expect(JSON.stringify(report)).not.toContain('assay-upload-')
  })

  it('refuses names with folders and content over the bound, before writing anything', async () => {
    await expect(call('import.previewUpload', { name: '../escape.jsonl', bytes: b64(question('q1')) })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(call('import.previewUpload', { name: 'big.jsonl', bytes: b64(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x20)) })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(call('import.previewUpload', { name: 'odd.jsonl', bytes: 'not base64!' })).rejects.toMatchObject({ code: 'invalid_input' })
    expect(uploadDirs()).toEqual([])
  })

  it('reads the bytes as assay import does: invalid UTF-8 refused with its line and byte offset, or replaced and counted when lossy', async () => {
    const good = question('u0')
    const bad = Buffer.concat([Buffer.from(`${good}\n{"question_id": "u1", "question": "caf`), Buffer.from([0xe9]), Buffer.from('?"}\n')])
    const offset = Buffer.byteLength(`${good}\n{"question_id": "u1", "question": "caf`)
    const refused = await call('import.previewUpload', { name: 'latin1.jsonl', bytes: b64(bad) })
    expect(refused.errors).toEqual([expect.objectContaining({ file: 'latin1.jsonl', line: 2, message: expect.stringContaining(`byte offset ${offset}`) })])
    const lossy = await call('import.runUpload', { name: 'latin1.jsonl', bytes: b64(bad), lossy: true })
    expect(lossy).toMatchObject({ imported: 2, errors: [], summary: { invalidUtf8Replaced: 1 } })
    const stored = project.db.prepare(`SELECT payload FROM items WHERE external_id = 'u1'`).get() as { payload: string }
    expect(JSON.parse(stored.payload).question).toBe('caf\uFFFD?')
  })

  it('counts each U+FFFD the lossy decoding writes: a surrogate ED A0 80 is three', async () => {
    const bad = Buffer.concat([Buffer.from('{"question_id": "u-sur", "question": "sur '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('?"}\n')])
    const lossy = await call('import.runUpload', { name: 'surrogate.jsonl', bytes: b64(bad), lossy: true })
    expect(lossy).toMatchObject({ imported: 1, errors: [], summary: { invalidUtf8Replaced: 3 } })
    const stored = project.db.prepare(`SELECT payload FROM items WHERE external_id = 'u-sur'`).get() as { payload: string }
    expect(JSON.parse(stored.payload).question).toBe('sur \uFFFD\uFFFD\uFFFD?')
  })

  it('refuses every reference to a file outside the upload, with its line and field, and reads none of them', async () => {
    const secret = tmp.file('secret.md')
    writeFileSync(secret, '# Secret\n\nThe text of a file on this machine.')
    const rows = [
      { pair_id: 'x1', a: { path: secret }, b: { markdown: '# B\n\ntext' } },
      { pair_id: 'x2', a: { markdown: '# A\n\ntext' }, b: { path: `../../../../../../../../..${secret}` } },
      { pair_id: 'x3', a: { markdown: '# A\n\ntext' }, b: { path: 'beside.md' } }
    ]
    const content = rows.map((r) => JSON.stringify(r)).join('\n')
    const report = await call('import.runUpload', { name: 'pairs.jsonl', bytes: b64(content) })
    expect(report.errors.map((e: any) => [e.file, e.line, e.field])).toEqual([
      ['pairs.jsonl', 1, 'a.path'],
      ['pairs.jsonl', 2, 'b.path'],
      ['pairs.jsonl', 3, 'b.path']
    ])
    for (const e of report.errors) expect(e.message).toContain('cannot refer to other files')
    expect(report.imported).toBe(0)
    expect(JSON.stringify(report)).not.toContain('The text of a file on this machine')
    expect(project.db.prepare(`SELECT count(*) AS n FROM items WHERE external_id LIKE 'x%'`).get()).toEqual({ n: 0 })
  })
})

describe('choosing a file with the open dialog', () => {
  it('is unavailable where the client has no dialog (browser mode)', async () => {
    expect(await call('import.chooseFile', {})).toEqual({ available: false, path: null })
  })

  it("returns the desktop dialog's choice, or null when cancelled", async () => {
    const answers = ['/data/pairs.jsonl', null]
    const desktop: ApiContext = { ...ctx, chooseFile: async () => answers.shift() ?? null }
    const ask = async () => {
      const env = await dispatch(desktop, 'import.chooseFile', {})
      return env.ok ? env.value : env.error
    }
    expect(await ask()).toEqual({ available: true, path: '/data/pairs.jsonl' })
    expect(await ask()).toEqual({ available: true, path: null })
  })
})
