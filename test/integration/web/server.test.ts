import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, type WebServer } from '../../../src/main/web/server'
import { curatorSession } from '../../../src/main/api/context'
import type { Project } from '../../../src/main/store/project'
import { contextFor, smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
let project: Project
let server: WebServer
let hub: ReturnType<typeof contextFor>['hub']

beforeAll(async () => {
  project = await smallProject(tmp.file('p.assay'))
  const renderer = tmp.file('renderer')
  mkdirSync(renderer)
  writeFileSync(`${renderer}/index.html`, '<!doctype html><title>t</title>')
  hub = contextFor(project).hub
  server = await startWebServer({ project, hub, session: curatorSession(), rendererDir: renderer })
})
afterAll(async () => {
  await server.close()
  project.close()
  tmp.cleanup()
})

function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    if (init.body) req.write(init.body)
    req.end()
  })
}

const auth = () => ({ authorization: `Bearer ${server.token}`, 'content-type': 'application/json' })

describe('browser-mode server', () => {
  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32}$`))
  })

  it('refuses every request without the token', async () => {
    expect((await raw('/')).status).toBe(401)
    expect((await raw('/api/project.info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401)
    expect((await raw('/api/project.info', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{}' })).status).toBe(401)
  })

  it('serves the page with the token, sets an HttpOnly cookie and a strict CSP', async () => {
    const res = await raw(`/?token=${server.token}`)
    expect(res.status).toBe(200)
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/)
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'")
    const cookie = String(res.headers['set-cookie']).split(';')[0]!
    const api = await raw('/api/project.info', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' })
    expect(api.status).toBe(200)
    expect(JSON.parse(api.body)).toMatchObject({ ok: true, value: { items: 3 } })
  })

  it('refuses foreign Host and Origin headers and sends no CORS headers', async () => {
    const badHost = await raw('/api/project.info', { method: 'POST', headers: { ...auth(), host: 'evil.example:80' }, body: '{}' })
    expect(badHost.status).toBe(421)
    const badOrigin = await raw('/api/project.info', { method: 'POST', headers: { ...auth(), origin: 'http://evil.example' }, body: '{}' })
    expect(badOrigin.status).toBe(403)
    const ok = await raw('/api/project.info', { method: 'POST', headers: auth(), body: '{}' })
    expect(ok.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers contract errors as typed envelopes', async () => {
    const unknown = await raw('/api/nope', { method: 'POST', headers: auth(), body: '{}' })
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'unknown_operation' } })
    const invalid = await raw('/api/items.get', { method: 'POST', headers: auth(), body: '{"id":"x"}' })
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const notJson = await raw('/api/items.get', { method: 'POST', headers: auth(), body: '{' })
    expect(notJson.status).toBe(400)
  })

  it('pushes events over SSE', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { authorization: `Bearer ${server.token}` } }, (res) => {
        let buf = ''
        res.on('data', (c: Buffer) => {
          buf += c.toString()
          if (buf.includes(': connected')) hub.emit('project.changed', { what: 'items' })
          if (buf.includes('event: project.changed')) {
            req.destroy()
            resolve(buf)
          }
        })
      })
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)))
      req.end()
    })
    expect(received).toContain('data: {"what":"items"}')
  })
})
