// A loopback HTTP server that speaks the OpenAI, Anthropic and Gemini wire protocols, scriptable per test.
// It binds 127.0.0.1 only, opens no outgoing connection, and drops everything on close().
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { anthropicFake } from './anthropic'
import { defaultResponder, runResponder, type Ctx, type Match, type ProviderFake, type Reply, type StoredBatch } from './common'
import { googleFake } from './google'
import { openaiFake } from './openai'
import type { FakeEndpoint, FakeKind, FakeProviders, FakeProvidersOptions, FakeScript, Fault, FaultRule, RecordedRequest, Responder } from './types'

const FAKES: readonly ProviderFake[] = [openaiFake, anthropicFake, googleFake]
const MAX_BODY_BYTES = 32 * 1024 * 1024

function fakeFor(kind: FakeKind | null): ProviderFake {
  if (kind === 'anthropic') return anthropicFake
  if (kind === 'google') return googleFake
  return openaiFake
}

/** The key a request presented, read the way each provider's API reads it. */
function presentedKey(kind: FakeKind, headers: Record<string, string>): string {
  // Anthropic's API takes x-api-key or, as SDK 1.x sends it, a bearer token.
  if (kind === 'anthropic' && headers['x-api-key'] !== undefined) return headers['x-api-key']
  if (kind === 'google') return headers['x-goog-api-key'] ?? ''
  return (headers['authorization'] ?? '').replace(/^Bearer\s+/i, '')
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'))
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function serialise(reply: Reply): { text: string; contentType: string } {
  if (typeof reply.body === 'string') return { text: reply.body, contentType: reply.contentType ?? 'text/plain' }
  return { text: JSON.stringify(reply.body), contentType: reply.contentType ?? 'application/json' }
}

interface LiveRule {
  rule: FaultRule
  left: number
}

export async function startFakeProviders(options: FakeProvidersOptions = {}): Promise<FakeProviders> {
  const hangLimitMs = options.hangLimitMs ?? 10_000
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const hangTimers = new Set<NodeJS.Timeout>()
  let responder: Responder = options.responder ?? defaultResponder
  let rules: LiveRule[] = []
  let pollsUntilDone = options.batchPollsUntilDone ?? 2
  let idSeq = 0
  let closed = false

  const live = (r: FaultRule): LiveRule => ({ rule: r, left: r.times ?? Number.POSITIVE_INFINITY })
  rules = (options.faults ?? []).map(live)

  const ctx: Ctx = {
    origin: '',
    answer: (prompt) => runResponder(responder, prompt),
    batches: new Map<string, StoredBatch>(),
    files: new Map(),
    batchPollsUntilDone: () => pollsUntilDone,
    nextId: (prefix) => `${prefix}${++idSeq}`
  }

  function takeFault(rec: RecordedRequest): Fault | null {
    for (const lr of rules) {
      if (lr.left <= 0) continue
      const r = lr.rule
      if (r.kind && r.kind !== rec.kind) continue
      if (r.endpoint) {
        const eps: readonly FakeEndpoint[] = typeof r.endpoint === 'string' ? [r.endpoint] : r.endpoint
        if (!eps.includes(rec.endpoint)) continue
      }
      if (r.when && !r.when(rec)) continue
      lr.left -= 1
      return r.fault
    }
    return null
  }

  function send(res: ServerResponse, reply: Reply): void {
    const { text, contentType } = serialise(reply)
    res.writeHead(reply.status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...reply.headers })
    res.end(text)
  }

  function hang(res: ServerResponse): void {
    const timer = setTimeout(() => {
      hangTimers.delete(timer)
      res.socket?.destroy()
    }, hangLimitMs)
    hangTimers.add(timer)
    res.on('close', () => {
      clearTimeout(timer)
      hangTimers.delete(timer)
    })
  }

  async function normalReply(match: Match | null, rec: RecordedRequest): Promise<Reply> {
    if (!match) return { status: 404, body: fakeFor(rec.kind).errorBody(404, `no route for ${rec.method} ${rec.path}`) }
    const fake = fakeFor(match.kind)
    const expected = options.apiKeys?.[match.kind]
    if (expected !== undefined) {
      const key = presentedKey(match.kind, rec.headers)
      if (key !== expected) return { status: 401, body: fake.errorBody(401, `Incorrect API key provided: ${key}`) }
    }
    return fake.handle(ctx, match, rec)
  }

  async function applyFault(fault: Fault, match: Match | null, rec: RecordedRequest, res: ServerResponse): Promise<void> {
    switch (fault.type) {
      case 'status': {
        const message = typeof fault.message === 'function' ? fault.message(rec) : (fault.message ?? `fake ${fault.status}`)
        const body = fault.rawBody ?? fakeFor(rec.kind).errorBody(fault.status, message)
        send(res, { status: fault.status, body, ...(fault.contentType ? { contentType: fault.contentType } : {}), ...(fault.headers ? { headers: fault.headers } : {}) })
        return
      }
      case 'hang':
        hang(res)
        return
      case 'reset':
        res.socket?.destroy()
        return
      case 'delay':
        await new Promise((r) => setTimeout(r, fault.ms))
        send(res, await normalReply(match, rec))
        return
      case 'invalid_json':
        send(res, { status: 200, body: '<html><body>502 Bad Gateway</body></html>', contentType: 'application/json' })
        return
      case 'truncated_json': {
        const { text } = serialise(await normalReply(match, rec))
        send(res, { status: 200, body: text.slice(0, Math.floor(text.length / 2)), contentType: 'application/json' })
        return
      }
      case 'stall_body': {
        const { text, contentType } = serialise(await normalReply(match, rec))
        res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) })
        res.write(text.slice(0, Math.floor(text.length / 2)))
        hang(res)
        return
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req)
    const method = (req.method ?? 'GET').toUpperCase()
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    let match: Match | null = null
    for (const f of FAKES) {
      match = f.route(method, path)
      if (match) break
    }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
    let body: unknown
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody)
    } catch {
      body = undefined
    }
    const kind = match?.kind ?? (/^\/(anthropic)\//.test(path) ? 'anthropic' : /^\/google\//.test(path) ? 'google' : /^\/openai\//.test(path) ? 'openai' : null)
    const rec: RecordedRequest = { seq: requests.length + 1, kind, endpoint: match?.endpoint ?? 'unknown', method, path, headers, rawBody, body }
    requests.push(rec)
    const fault = takeFault(rec)
    if (fault) await applyFault(fault, match, rec, res)
    else send(res, await normalReply(match, rec))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      send(res, { status: 500, body: { error: { message: `fake server error: ${e instanceof Error ? e.message : String(e)}` } } })
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  ctx.origin = origin

  const countOf = (endpoint: FakeEndpoint): number => requests.filter((r) => r.endpoint === endpoint).length

  return {
    origin,
    url(kind) {
      switch (kind) {
        case 'openai':
          return `${origin}/openai/v1`
        case 'openai-compatible':
          return `${origin}/compatible/v1`
        case 'anthropic':
          return `${origin}/anthropic`
        case 'google':
          return `${origin}/google`
      }
    },
    get requests() {
      return requests
    },
    requestsTo: (endpoint) => requests.filter((r) => r.endpoint === endpoint),
    count: countOf,
    counts() {
      const out: Partial<Record<FakeEndpoint, number>> = {}
      for (const r of requests) out[r.endpoint] = (out[r.endpoint] ?? 0) + 1
      return out
    },
    setScript(script: FakeScript) {
      responder = script.responder ?? defaultResponder
      rules = (script.faults ?? []).map(live)
      pollsUntilDone = script.batchPollsUntilDone ?? 2
    },
    addFault(rule) {
      rules.push(live(rule))
    },
    reset() {
      requests.length = 0
      rules = []
      responder = defaultResponder
      pollsUntilDone = options.batchPollsUntilDone ?? 2
      ctx.batches.clear()
      ctx.files.clear()
    },
    async close() {
      if (closed) return
      closed = true
      for (const t of hangTimers) clearTimeout(t)
      hangTimers.clear()
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** The first `times` matching requests get a 429 with the given Retry-After header(s). */
export function rateLimited(opts: { times?: number; endpoint?: FakeEndpoint; retryAfter?: string; retryAfterMs?: string } = {}): FaultRule {
  const headers: Record<string, string> = {}
  if (opts.retryAfter !== undefined) headers['retry-after'] = opts.retryAfter
  if (opts.retryAfterMs !== undefined) headers['retry-after-ms'] = opts.retryAfterMs
  return { ...(opts.endpoint ? { endpoint: opts.endpoint } : {}), times: opts.times ?? 1, fault: { type: 'status', status: 429, headers, message: 'Rate limit reached' } }
}

export function failing(status: number, opts: { times?: number; endpoint?: FakeEndpoint; message?: string } = {}): FaultRule {
  return { ...(opts.endpoint ? { endpoint: opts.endpoint } : {}), times: opts.times ?? 1, fault: { type: 'status', status, message: opts.message ?? `fake ${status}` } }
}
