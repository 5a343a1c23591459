import { request } from 'node:http'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, tokenCookieName, type WebServer } from '../../../src/main/web/server'
import { curatorSession } from '../../../src/main/api/context'
import type { Project } from '../../../src/main/store/project'
import { contextFor, smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { stubRendererDir } from '../../support/web'

const tmp = tempDir()
let project: Project
let server: WebServer

beforeAll(async () => {
  project = await smallProject(tmp.file('p.assay'))
  const renderer = stubRendererDir(tmp.dir)
  server = await startWebServer({ project, hub: contextFor(project).hub, session: curatorSession(), rendererDir: renderer })
})
afterAll(async () => {
  await server.close()
  project.close()
  tmp.cleanup()
})

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function raw(path: string, init: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer } = {}) {
  return new Promise<Raw>((resolve, reject) => {
    let answered = false
    const req = request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      answered = true
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    // The server closes the connection after answering an oversized upload; an error before any answer is a failure.
    req.on('error', (e) => (answered ? undefined : reject(e)))
    if (init.body) req.write(init.body)
    req.end()
  })
}

const auth = () => ({ authorization: `Bearer ${server.token}`, 'content-type': 'application/json' })
const call = async (op: string, input: unknown) => JSON.parse((await raw(`/api/${op}`, { method: 'POST', headers: auth(), body: JSON.stringify(input) })).body)

describe('browser-mode server under bad requests', () => {
  it('names its token cookie after its port, for the whole site only, HttpOnly and SameSite=Strict', async () => {
    const res = await raw(`/?token=${server.token}`)
    const cookie = String(res.headers['set-cookie'])
    expect(tokenCookieName(server.port)).toBe(`assay_token_${server.port}`)
    expect(cookie.startsWith(`assay_token_${server.port}=${server.token};`)).toBe(true)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Strict/)
    expect(cookie).toMatch(/; Path=\//)
    // A cookie under the old host-wide name (set by another server on this host) is not this server's token.
    const foreign = await raw('/api/project.info', { method: 'POST', headers: { cookie: `assay_token=${server.token}`, 'content-type': 'application/json' }, body: '{}' })
    expect(foreign.status).toBe(401)
  })

  it('answers malformed percent-encoding with 400, in the API and in page paths', async () => {
    const api = await raw('/api/items.get%E0%A4%A', { method: 'POST', headers: auth(), body: '{}' })
    expect(api.status).toBe(400)
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const page = await raw('/assets/%E0%A4%A.js', { headers: { authorization: `Bearer ${server.token}` } })
    expect(page.status).toBe(400)
    expect(JSON.parse(page.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('answers an oversized body with 413 and the JSON error, whether declared or streamed', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 0x20)
    const declared = await raw('/api/project.info', { method: 'POST', headers: auth(), body: big })
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body)).toMatchObject({ ok: false, error: { code: 'too_large' } })
    const streamed = await raw('/api/project.info', { method: 'POST', headers: { ...auth(), 'transfer-encoding': 'chunked' }, body: big })
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body)).toMatchObject({ ok: false, error: { code: 'too_large' } })
    // The server is still answering afterwards.
    expect(await call('project.info', {})).toMatchObject({ ok: true })
  })

  it('reports a locked project file as `busy`, not `internal`', async () => {
    project.db.pragma('busy_timeout = 50')
    const other = new Database(project.path)
    other.prepare('BEGIN IMMEDIATE').run()
    try {
      const env = await call('annotators.create', { name: 'Dr. Busy' })
      expect(env).toMatchObject({ ok: false, error: { code: 'busy' } })
    } finally {
      other.prepare('ROLLBACK').run()
      other.close()
    }
    expect(await call('annotators.create', { name: 'Dr. Busy' })).toMatchObject({ ok: true })
  })

  it('reports a malformed stored row as `bad_data`, not `internal`', async () => {
    const id = (project.db.prepare(`SELECT id FROM items WHERE external_id = 'idea-2'`).get() as { id: number }).id
    project.db.prepare(`UPDATE items SET payload = '{"idea": ' WHERE id = ?`).run(id)
    expect(await call('items.get', { id })).toMatchObject({ ok: false, error: { code: 'bad_data' } })
  })
})

describe('request bodies the server cannot take as they are', () => {
  const post = (op: string, body: string | Buffer) => raw(`/api/${op}`, { method: 'POST', headers: auth(), body })

  it('answers a body nested far deeper than any input with `invalid_input`, not `internal`', async () => {
    for (const body of ['['.repeat(20_000) + ']'.repeat(20_000), `{"name": ${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`]) {
      const res = await post('items.list', body)
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('nested') } })
    }
  })

  it('refuses a body that is not valid UTF-8 instead of replacing what it cannot read', async () => {
    const body = Buffer.concat([Buffer.from('{"name": "caf'), Buffer.from([0xe9]), Buffer.from('.jsonl", "content": ""}')])
    const res = await post('import.previewUpload', body)
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('UTF-8') } })
  })

  it('takes an upload named with 200 multi-byte characters', async () => {
    const name = `${'é'.repeat(100)}${'数'.repeat(94)}.jsonl`
    const bytes = Buffer.from(JSON.stringify({ question_id: 'q-long', question: 'Is it long?' })).toString('base64')
    const answer = await call('import.previewUpload', { name, bytes })
    expect(answer.error).toBeUndefined()
    expect(answer).toMatchObject({ ok: true, value: { format: 'questions', errors: [] } })
    expect(answer.value.set).toBe(name.slice(0, -'.jsonl'.length))
  })
})
