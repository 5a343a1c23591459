import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { dispatch } from '../api/dispatch'
import type { ApiContext, SessionState } from '../api/context'
import type { EventHub } from '../events'
import type { Project } from '../store/project'
import { RENDERER_CSP } from '../../shared/security'
import { staticFiles } from './static'
import { firstAnswers, firstAnswersBlock, type FirstAnswersOptions } from './first-answers'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../import/json-scan'
import { MAX_BODY } from './limits'
import { openApiDocument } from './openapi'

export interface WebServerOptions {
  project: Project
  hub: EventHub
  session: SessionState
  rendererDir: string
  port?: number
  token?: string
  /** Budgets of the page's own answers (the defaults suit `assay serve`; tests change them). */
  firstPage?: FirstAnswersOptions
}

export interface WebServer {
  url: string
  port: number
  token: string
  close(): Promise<void>
}

/** No operation's input nests this deep; the same bound as imported JSON. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
/** How much of a refused upload is read and dropped, and for how long, before the connection is cut. */
const DISCARD_LIMIT = 64 * 1024 * 1024
const DISCARD_MS = 10_000

/**
 * Cookies are scoped by host, not by port: the port in the name keeps two servers on 127.0.0.1 from overwriting each
 * other's token in one browser.
 */
export function tokenCookieName(port: number): string {
  return `assay_token_${port}`
}

/**
 * Browser mode: the built renderer and the contract over HTTP, on 127.0.0.1 only. Every request must carry the
 * random token (query on the first page load, then an HttpOnly SameSite=Strict cookie, or a Bearer header).
 * No CORS headers are sent, and the Host header must name the loopback address, against DNS rebinding.
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  const ctx: ApiContext = { project: opts.project, session: opts.session, events: opts.hub }
  const streams = new Set<ServerResponse>()
  const files = staticFiles(opts.rendererDir)
  let port = 0

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { ok: false, error: { code: 'internal', message: (e as Error).message } })
      else res.end()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseRequestUrl(req.url)
    if (!url) return send(res, 400, { ok: false, error: { code: 'invalid_input', message: 'malformed request path' } })
    if (!hostAllowed(req.headers.host, port)) return send(res, 421, { ok: false, error: { code: 'forbidden', message: 'unexpected Host' } })
    const origin = req.headers.origin
    if (origin && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      return send(res, 403, { ok: false, error: { code: 'forbidden', message: 'cross-origin requests are refused' } })
    }
    const presented = url.searchParams.get('token') ?? bearer(req) ?? cookie(req, tokenCookieName(port))
    if (!presented || !safeEqual(presented, token)) {
      return send(res, 401, { ok: false, error: { code: 'forbidden', message: 'missing or wrong token: open the URL printed by `assay serve`' } })
    }
    if (url.pathname.startsWith('/api/')) return api(req, res, url)
    return staticFile(req, res, url, presented)
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/api/events' && req.method === 'GET') return sse(req, res)
    if (url.pathname === '/api/openapi.json' && req.method === 'GET') return send(res, 200, openApiDocument({ port, cookieName: tokenCookieName(port) }))
    if (req.method !== 'POST') return send(res, 405, { ok: false, error: { code: 'invalid_input', message: 'use POST' } })
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, { ok: false, error: { code: 'invalid_input', message: 'send application/json' } })
    }
    const bytes = await readBody(req)
    if (bytes === null) return tooLarge(req, res)
    let body: string
    try {
      // Decoded strictly: text the server could not read must not reach the project with U+FFFD in its place.
      body = strictUtf8.decode(bytes)
    } catch {
      return send(res, 400, { ok: false, error: { code: 'invalid_input', message: 'body is not valid UTF-8' } })
    }
    // Every later step (validation, dispatch, the answer's JSON) recurses: a deep body is refused before any of them.
    if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
      return send(res, 400, { ok: false, error: { code: 'invalid_input', message: `body is nested deeper than ${MAX_BODY_DEPTH} levels` } })
    }
    let input: unknown
    try {
      input = body.length ? JSON.parse(body) : {}
    } catch {
      return send(res, 400, { ok: false, error: { code: 'invalid_input', message: 'body is not valid JSON' } })
    }
    const name = decodePath(url.pathname.slice('/api/'.length))
    if (name === null) return send(res, 400, { ok: false, error: { code: 'invalid_input', message: 'malformed percent-encoding in the operation name' } })
    const envelope = await dispatch(ctx, name, input)
    send(res, 200, envelope)
  }

  function sse(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.add(res)
    const unsubscribe = opts.hub.subscribe((event, payload) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`)
    })
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000)
    req.on('close', () => {
      clearInterval(ping)
      unsubscribe()
      streams.delete(res)
    })
  }

  async function staticFile(req: IncomingMessage, res: ServerResponse, url: URL, presented: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { ok: false, error: { code: 'invalid_input', message: 'GET only' } })
    const headers = {
      'content-security-policy': RENDERER_CSP,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'set-cookie': `${tokenCookieName(port)}=${presented}; HttpOnly; SameSite=Strict; Path=/`
    }
    // The page carries the answers to the window's first calls (this session's, through the same operations).
    const outcome = await files.serve(req, res, url.pathname, headers, async () => firstAnswersBlock(await firstAnswers(ctx, opts.firstPage)))
    if (outcome === 'bad_path') return send(res, 400, { ok: false, error: { code: 'invalid_input', message: 'malformed percent-encoding in the path' } })
    if (outcome === 'not_found') return send(res, 404, { ok: false, error: { code: 'not_found', message: existsSync(join(opts.rendererDir, 'index.html')) ? 'not found' : 'the workbench is not built: run npm run build' } })
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolveListen())
  })
  port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const s of streams) s.end()
        server.closeAllConnections()
        server.close(() => resolveClose())
      })
  }
}

function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization
  return h?.startsWith('Bearer ') ? h.slice(7) : null
}

function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return null
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function parseRequestUrl(raw: string | undefined): URL | null {
  try {
    return new URL(raw ?? '/', 'http://127.0.0.1')
  } catch {
    return null
  }
}

/** A malformed escape such as `%E0%A4%A` is the client's mistake: null, answered 400 by the caller. */
function decodePath(s: string): string | null {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}

/** Resolves null as soon as the body passes MAX_BODY (or declares it will), without buffering the rest. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY) return Promise.resolve(null)
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) {
        req.off('data', onData)
        resolveBody(null)
      } else chunks.push(c)
    }
    req.on('data', onData)
    req.on('end', () => resolveBody(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/**
 * The 413 is written and the rest of the upload is read and discarded, not kept: closing the socket while the client
 * is still sending would reset the connection, and a reset drops the answer the client has not read yet. A client
 * that keeps sending past DISCARD_LIMIT, or for longer than DISCARD_MS, is cut off.
 */
function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  let discarded = 0
  const cutOff = setTimeout(() => req.destroy(), DISCARD_MS)
  cutOff.unref()
  req.on('data', (c: Buffer) => {
    discarded += c.length
    if (discarded > DISCARD_LIMIT) req.destroy()
  })
  req.on('close', () => clearTimeout(cutOff))
  res.setHeader('connection', 'close')
  send(res, 413, { ok: false, error: { code: 'too_large', message: `request body larger than ${MAX_BODY} bytes` } })
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  res.end(JSON.stringify(body))
}
