import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operations } from '../../../src/shared/contract/operations'
import { ERROR_CODES } from '../../../src/shared/errors'
import { openApiDocument } from '../../../src/main/web/openapi'
import { runCli } from '../../support/cli'
import { serveProject, type ServedProject } from '../../support/serve'
import { tempDir } from '../../support/tmp'

type Json = Record<string, any>

const tmp = tempDir()
const projectPath = tmp.file('demo.assay')
let served: ServedProject
let token: string

beforeAll(async () => {
  expect((await runCli('new', projectPath, '--demo')).code).toBe(0)
  served = await serveProject(projectPath)
  token = new URL(served.url).searchParams.get('token')!
}, 120_000)
afterAll(async () => {
  await served?.stop()
  tmp.cleanup()
})

/** Every `$ref` string anywhere in a value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else refsIn(v, out)
    }
  }
  return out
}

/** Resolves a local JSON pointer (`#/a/b`) in the document, or undefined when it points nowhere. */
function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let at: unknown = doc
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (!at || typeof at !== 'object' || !(key in at)) return undefined
    at = (at as Json)[key]
  }
  return at
}

function deref(doc: Json, schema: Json): Json {
  return schema.$ref ? (resolvePointer(doc, schema.$ref) as Json) : schema
}

describe('the OpenAPI document of the HTTP API', () => {
  const doc = openApiDocument() as Json

  it('is OpenAPI 3.1 with one POST path per operation, each with a request and a response schema', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) })
    const names = Object.keys(operations)
    const opPaths = Object.keys(doc.paths).filter((p) => p !== '/api/events' && p !== '/api/openapi.json')
    expect(opPaths.sort()).toEqual(names.map((n) => `/api/${n}`).sort())
    const ids = new Set<string>()
    for (const name of names) {
      const item = doc.paths[`/api/${name}`] as Json
      expect(Object.keys(item), name).toEqual(['post'])
      const post = item.post as Json
      expect(post.operationId, name).toBe(name)
      ids.add(post.operationId)
      const request = post.requestBody.content['application/json'].schema as Json
      expect(request.$ref, name).toBe(`#/components/schemas/${name}.input`)
      const ok = post.responses['200'].content['application/json'].schema as Json
      expect(ok.oneOf, name).toHaveLength(2)
      expect(ok.oneOf[0].properties.value.$ref, name).toBe(`#/components/schemas/${name}.output`)
      expect(ok.oneOf[1].$ref, name).toBe('#/components/schemas/ErrorEnvelope')
      expect(post.responses['401'], name).toEqual({ $ref: '#/components/responses/Unauthorized' })
    }
    expect(ids.size).toBe(names.length)
  })

  it('marks who may call each operation, curator operations included', () => {
    const curator = Object.entries(operations).filter(([, spec]) => spec.access === 'curator').map(([n]) => n)
    expect(curator.length).toBeGreaterThan(0)
    for (const [name, spec] of Object.entries(operations)) {
      const post = doc.paths[`/api/${name}`].post as Json
      expect(post['x-assay-access'], name).toBe(spec.access)
      expect(post['x-assay-annotator-session'], name).toBe(spec.access !== 'curator')
    }
    expect(doc.paths['/api/items.list'].post['x-assay-access']).toBe('curator')
  })

  it('resolves every $ref inside the document', () => {
    const refs = [...new Set(refsIn(doc))]
    expect(refs.length).toBeGreaterThan(Object.keys(operations).length * 2)
    const dangling = refs.filter((r) => resolvePointer(doc, r) === undefined)
    expect(dangling).toEqual([])
  })

  it('describes the error envelope with every error code', () => {
    const envelope = doc.components.schemas.ErrorEnvelope as Json
    expect(envelope.required).toEqual(['ok', 'error'])
    expect(envelope.properties.ok).toEqual({ const: false })
    const error = deref(doc, envelope.properties.error)
    expect(error.required).toEqual(expect.arrayContaining(['code', 'message']))
    expect(error.properties.code.enum).toEqual([...ERROR_CODES])
    for (const name of ['Unauthorized', 'TooLarge', 'NotJson']) {
      expect(doc.components.responses[name].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' })
    }
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' })
  })
})

describe('the served document and the written one', () => {
  it('needs the token and, given it, matches the written document for this server', async () => {
    const url = `${served.origin}/api/openapi.json`
    expect((await fetch(url)).status).toBe(401)
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const live = (await res.json()) as Json
    const port = Number(new URL(served.origin).port)
    expect(live.servers).toEqual([{ url: `http://127.0.0.1:${port}`, description: expect.any(String) }])
    expect(live.components.securitySchemes.cookieToken).toMatchObject({ in: 'cookie', name: `assay_token_${port}` })

    const out = tmp.file('openapi.json')
    const wrote = await runCli('api', 'openapi', '--out', out)
    expect(wrote.code, wrote.stderr).toBe(0)
    expect(wrote.stdout).toContain(out)
    const written = JSON.parse(readFileSync(out, 'utf8')) as Json
    // Only the server's address and its cookie differ: the operations and their schemas are the same.
    expect(live.paths).toEqual(written.paths)
    expect(live.components.schemas).toEqual(written.components.schemas)
    expect(live.components.responses).toEqual(written.components.responses)
    expect(written.servers[0].url).toBe('http://127.0.0.1:{port}')

    const stdout = await runCli('api', 'openapi')
    expect(stdout.code).toBe(0)
    expect(JSON.parse(stdout.stdout)).toEqual(written)
  })

  it('makes one real call the way the document says: path, bearer token, body', async () => {
    const live = (await (await fetch(`${served.origin}/api/openapi.json?token=${token}`)).json()) as Json
    const post = live.paths['/api/items.list'].post as Json
    const input = deref(live, post.requestBody.content['application/json'].schema)
    expect(Object.keys(input.properties)).toEqual(expect.arrayContaining(['kind', 'limit']))
    expect(live.security).toEqual(expect.arrayContaining([{ bearerToken: [] }]))
    const body = { kind: 'proposal-pair', limit: 2 }
    const res = await fetch(`${live.servers[0].url}/api/items.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': Object.keys(post.requestBody.content)[0]! },
      body: JSON.stringify(body)
    })
    expect(res.status).toBe(200)
    const envelope = (await res.json()) as Json
    expect(envelope.ok).toBe(true)
    const output = deref(live, post.responses['200'].content['application/json'].schema.oneOf[0].properties.value)
    for (const key of output.required as string[]) expect(envelope.value, key).toHaveProperty(key)
    expect(envelope.value.rows).toHaveLength(2)
    expect(envelope.value.rows.every((i: Json) => i.kind === 'proposal-pair')).toBe(true)

    // A body that breaks the documented schema is answered with the documented error envelope.
    const bad = await fetch(`${live.servers[0].url}/api/items.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 'many' })
    })
    expect(bad.status).toBe(200)
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.any(String) } })
  })
})

describe('assay api openapi --out', () => {
  it('refuses to replace an existing file without --force, and replaces it with --force', async () => {
    const out = tmp.file('existing.json')
    writeFileSync(out, 'keep me')
    const refused = await runCli('api', 'openapi', '--out', out)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/exists.*--force/)
    expect(readFileSync(out, 'utf8')).toBe('keep me')
    const forced = await runCli('api', 'openapi', '--out', out, '--force')
    expect(forced.code, forced.stderr).toBe(0)
    expect(JSON.parse(readFileSync(out, 'utf8')).openapi).toMatch(/^3\.1\./)
  })

  it('never writes over an SQLite file, even with --force', async () => {
    const before = readFileSync(projectPath)
    for (const args of [[], ['--force']]) {
      const r = await runCli('api', 'openapi', '--out', projectPath, ...args)
      expect(r.code).not.toBe(0)
      expect(r.stderr).toMatch(/SQLite/)
    }
    expect(readFileSync(projectPath).equals(before)).toBe(true)
  })

  it('refuses --force without --out', async () => {
    const r = await runCli('api', 'openapi', '--force')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('--force needs --out')
  })
})
