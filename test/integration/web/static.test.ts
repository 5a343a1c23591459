import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, type WebServer } from '../../../src/main/web/server'
import { negotiate } from '../../../src/main/web/static'
import { curatorSession } from '../../../src/main/api/context'
import type { Project } from '../../../src/main/store/project'
import { contextFor, smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
let project: Project
let server: WebServer

const script = `console.log(${JSON.stringify('a hashed bundle '.repeat(400))})\n`
const style = `body { color: #123456; }\n${'.row { margin: 0 }\n'.repeat(200)}`
const html = `<!doctype html><title>t</title><script type="module" src="/assets/app-Ab12Cd34.js"></script>${' '.repeat(2000)}`

beforeAll(async () => {
  project = await smallProject(tmp.file('p.assay'))
  const renderer = tmp.file('renderer')
  mkdirSync(`${renderer}/assets`, { recursive: true })
  writeFileSync(`${renderer}/index.html`, html)
  writeFileSync(`${renderer}/assets/app-Ab12Cd34.js`, script)
  // What the build writes beside an asset; the server must send it rather than compress again.
  writeFileSync(`${renderer}/assets/app-Ab12Cd34.js.br`, brotliCompressSync(Buffer.from(script)))
  writeFileSync(`${renderer}/assets/style-Zz99Yy88.css`, style)
  writeFileSync(`${renderer}/assets/font-Qq11Ww22.woff2`, Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]))
  const past = new Date(Date.now() - 60_000)
  utimesSync(`${renderer}/assets/app-Ab12Cd34.js`, past, past)
  server = await startWebServer({ project, hub: contextFor(project).hub, session: curatorSession(), rendererDir: renderer })
})
afterAll(async () => {
  await server.close()
  project.close()
  tmp.cleanup()
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { authorization: `Bearer ${server.token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('browser mode serves the built workbench', () => {
  it('sends hashed assets brotli-compressed (the precomputed file) and cacheable for a year as immutable', async () => {
    const res = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers.vary).toBe('Accept-Encoding')
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(brotliDecompressSync(res.body).toString()).toBe(script)
    expect(res.body.length).toBeLessThan(script.length / 5)
  })

  it('compresses what has no precomputed file (gzip for a browser without brotli), and sends plain bytes when asked for none', async () => {
    const gz = await get('/assets/style-Zz99Yy88.css', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(style)
    const plain = await get('/assets/style-Zz99Yy88.css')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(style)
    // Already-compressed formats go as they are.
    const font = await get('/assets/font-Qq11Ww22.woff2', { 'accept-encoding': 'br' })
    expect(font.headers['content-encoding']).toBeUndefined()
    expect(font.headers['cache-control']).toContain('immutable')
  })

  it('revalidates index.html on every load (no-cache, ETag, 304) and keeps its security headers', async () => {
    const first = await get('/', { 'accept-encoding': 'br' })
    expect(first.status).toBe(200)
    expect(first.headers['cache-control']).toBe('no-cache')
    expect(first.headers['content-encoding']).toBe('br')
    // The page as built, with the answers to the window's first calls after it (this page has no head).
    expect(brotliDecompressSync(first.body).toString()).toMatch(new RegExp(`^${escapeRegExp(html)}<script type="application/json" id="assay-first-answers">.*</script>$`))
    expect(String(first.headers['content-security-policy'])).toContain("script-src 'self'")
    const again = await get('/', { 'if-none-match': String(first.headers.etag) })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
  })

  it('falls back to index.html for app paths, but answers 404 for a missing asset rather than HTML cached for a year', async () => {
    const route = await get('/annotate/queue')
    expect(route.status).toBe(200)
    expect(route.headers['cache-control']).toBe('no-cache')
    expect(route.body.toString().startsWith(`${html}<script type="application/json"`)).toBe(true)
    const missing = await get('/assets/app-00000000.js')
    expect(missing.status).toBe(404)
    expect((await get('/favicon.ico')).status).toBe(404)
    expect(missing.headers['cache-control']).toBe('no-store')
    // An escaped ../ cannot reach the project file beside the renderer folder.
    expect((await get('/..%2fp.assay')).status).toBe(404)
  })
})

describe('encoding negotiation', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br')
    expect(negotiate('gzip')).toBe('gzip')
    expect(negotiate('br;q=0, gzip')).toBe('gzip')
    expect(negotiate('*')).toBe('br')
    expect(negotiate('identity')).toBe('identity')
    expect(negotiate(undefined)).toBe('identity')
  })
})
