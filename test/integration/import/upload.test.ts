import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import type { ApiContext } from '../../../src/main/api/context'
import { MAX_UPLOAD_CHARS } from '../../../src/shared/contract/import-operations'
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
    const report = await call('import.previewUpload', { name: 'cues.jsonl', content })
    expect(report.format).toBe('questions')
    expect(report.detected).toBe(true)
    expect(report.errors.map((e: any) => [e.file, e.line])).toEqual([
      ['cues.jsonl', 2],
      ['cues.jsonl', 3],
      ['cues.jsonl', 4]
    ])
    expect(report.errors[0].field).toBe('question')
    const run = await call('import.runUpload', { name: 'cues.jsonl', content })
    expect(run.imported).toBe(0)
    expect(project.info().items).toBe(0)
    // The private copy is gone either way.
    expect(uploadDirs()).toEqual(before)
  })

  it('imports all of a good file in one go, named after the upload and recorded as an upload', async () => {
    const report = await call('import.runUpload', { name: 'cues.jsonl', content: [question('q1'), question('q2')].join('\n'), split: 'dev' })
    expect(report).toMatchObject({ imported: 2, items: 2, set: 'cues', split: 'dev', errors: [] })
    expect(project.db.prepare(`SELECT source FROM imports`).all()).toEqual([{ source: 'upload:cues.jsonl' }])
  })

  it('detects the format of each file by its own content', async () => {
    const pairs = JSON.stringify({ pair_id: 'p1', a: { markdown: '# A\n\ntext' }, b: { markdown: '# B\n\ntext' } })
    expect((await call('import.previewUpload', { name: 'data.jsonl', content: pairs })).format).toBe('pairs')
    expect((await call('import.previewUpload', { name: 'data.jsonl', content: question('q7') })).format).toBe('questions')
  })

  it('detects the imports of the preprint check, task composition and reference comparison, and refuses XML with what to do', async () => {
    const abstract = JSON.stringify({ pmid: '1', title: 'T', journal: 'J', abstract: 'A.' })
    expect((await call('import.previewUpload', { name: 'papers.jsonl', content: abstract })).format).toBe('abstracts')
    const refs = 'pair_id,finding_a,key_points_a,finding_b,key_points_b\nr1,A.,"x; y",B.,z\n'
    expect((await call('import.previewUpload', { name: 'refs.csv', content: refs })).format).toBe('references')
    const xml = await call('import.previewUpload', { name: 'pubmed.xml', content: '<PubmedArticleSet/>' }).catch((e: unknown) => e)
    expect((xml as Error).message).toContain('pubmed.xml: XML files are not read (PubMed XML included)')
  })

  it('says why a file that refers to files beside it cannot be uploaded, without naming the private copy', async () => {
    const pair = JSON.stringify({ pair_id: 'p9', a: { path: 'proposals/p9_a.md' }, b: { markdown: '# B\n\ntext' } })
    const report = await call('import.previewUpload', { name: 'pairs.jsonl', content: pair })
    expect(report.errors).toEqual([expect.objectContaining({ file: 'pairs.jsonl', line: 1, field: 'a.path', message: expect.stringContaining('import it by path') })])
    expect(JSON.stringify(report)).not.toContain('assay-upload-')
  })

  it('refuses names with folders and content over the bound, before writing anything', async () => {
    await expect(call('import.previewUpload', { name: '../escape.jsonl', content: question('q1') })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(call('import.previewUpload', { name: 'big.jsonl', content: 'x'.repeat(MAX_UPLOAD_CHARS + 1) })).rejects.toMatchObject({ code: 'invalid_input' })
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
