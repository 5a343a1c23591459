// OpenAI's wire protocol: Chat Completions, Files and Batches, in the shapes the openai SDK parses.
import { asRecord, badRequest, contentText, notFound, type Answer, type Ctx, type Match, type ProviderFake, type Reply, type StoredBatch } from './common'
import { parseMultipart } from './multipart'
import type { FakeKind, Prompt, RecordedRequest } from './types'

const ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  429: 'rate_limit_error'
}

function errorBody(status: number, message: string): unknown {
  return {
    error: {
      message,
      type: ERROR_TYPE[status] ?? 'server_error',
      param: null,
      code: status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null
    }
  }
}

export function chatPrompt(kind: FakeKind, body: unknown, extra: Partial<Prompt> = {}): Prompt {
  const b = asRecord(body)
  const messages = Array.isArray(b['messages']) ? (b['messages'] as unknown[]).map(asRecord) : []
  const system = messages.filter((m) => m['role'] === 'system' || m['role'] === 'developer').map((m) => contentText(m['content']))
  const users = messages.filter((m) => m['role'] === 'user')
  return {
    kind,
    endpoint: kind === 'openai' ? 'openai.chat' : 'compatible.chat',
    model: typeof b['model'] === 'string' ? b['model'] : '',
    system: system.length ? system.join('\n') : null,
    user: contentText(users[users.length - 1]?.['content']),
    body,
    ...extra
  }
}

let completionSeq = 0

export function chatCompletion(model: string, a: Answer): unknown {
  completionSeq += 1
  return {
    id: `chatcmpl-fake${completionSeq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: `${model}-2025-01-01`,
    system_fingerprint: 'fp_fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: a.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: a.finish === 'length' ? 'length' : 'stop'
      }
    ],
    usage: { prompt_tokens: a.inputTokens, completion_tokens: a.outputTokens, total_tokens: a.inputTokens + a.outputTokens }
  }
}

function fileObject(id: string, f: { content: string; filename: string; purpose: string }): unknown {
  return { id, object: 'file', bytes: Buffer.byteLength(f.content), created_at: Math.floor(Date.now() / 1000), filename: f.filename, purpose: f.purpose, status: 'processed' }
}

function batchObject(b: StoredBatch, done: boolean): unknown {
  const failed = b.answers ? b.answers.filter((a) => a.error || a.expired).length : 0
  const expired = !!b.answers?.some((a) => a.expired)
  return {
    id: b.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    errors: null,
    input_file_id: b.extra['input_file_id'],
    completion_window: '24h',
    status: done ? (expired ? 'expired' : 'completed') : b.polls === 0 ? 'validating' : 'in_progress',
    output_file_id: done ? (b.extra['output_file_id'] ?? null) : null,
    error_file_id: done ? (b.extra['error_file_id'] ?? null) : null,
    created_at: b.createdAt,
    ...(done ? { completed_at: Math.floor(Date.now() / 1000) } : {}),
    request_counts: { total: b.items.length, completed: done ? b.items.length - failed : 0, failed: done ? failed : 0 },
    metadata: null
  }
}

async function finishBatch(ctx: Ctx, b: StoredBatch): Promise<void> {
  const answers = await Promise.all(b.items.map((i) => ctx.answer(i.prompt)))
  b.answers = answers
  const ok: string[] = []
  const bad: string[] = []
  answers.forEach((a, i) => {
    const item = b.items[i]!
    const id = `batch_req_${i + 1}`
    if (a.expired) {
      bad.push(JSON.stringify({ id, custom_id: item.customId, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }))
    } else if (a.error) {
      bad.push(JSON.stringify({ id, custom_id: item.customId, response: { status_code: a.error.status, request_id: `req_${i}`, body: errorBody(a.error.status, a.error.message) }, error: null }))
    } else {
      ok.push(JSON.stringify({ id, custom_id: item.customId, response: { status_code: 200, request_id: `req_${i}`, body: chatCompletion(item.prompt.model, a) }, error: null }))
    }
  })
  for (const [lines, key] of [
    [ok, 'output_file_id'],
    [bad, 'error_file_id']
  ] as const) {
    if (lines.length === 0) continue
    const fileId = ctx.nextId('file-')
    ctx.files.set(fileId, { content: `${lines.join('\n')}\n`, filename: `${b.id}_${key}.jsonl`, purpose: 'batch_output' })
    b.extra[key] = fileId
  }
}

export const openaiFake: ProviderFake = {
  errorBody,

  route(method: string, path: string): Match | null {
    const m = /^\/(openai|compatible)\/v1(\/.*)$/.exec(path)
    if (!m) return null
    const kind: FakeKind = m[1] === 'openai' ? 'openai' : 'openai-compatible'
    const rest = m[2]!
    if (method === 'POST' && rest === '/chat/completions') return { kind, endpoint: kind === 'openai' ? 'openai.chat' : 'compatible.chat', params: {} }
    if (kind !== 'openai') return null
    if (method === 'POST' && rest === '/files') return { kind, endpoint: 'openai.files.upload', params: {} }
    let p = /^\/files\/([^/]+)\/content$/.exec(rest)
    if (method === 'GET' && p) return { kind, endpoint: 'openai.files.content', params: { id: p[1]! } }
    if (method === 'POST' && rest === '/batches') return { kind, endpoint: 'openai.batches.create', params: {} }
    p = /^\/batches\/([^/]+)$/.exec(rest)
    if (method === 'GET' && p) return { kind, endpoint: 'openai.batches.retrieve', params: { id: p[1]! } }
    return null
  },

  async handle(ctx: Ctx, match: Match, req: RecordedRequest): Promise<Reply> {
    switch (match.endpoint) {
      case 'openai.chat':
      case 'compatible.chat': {
        const prompt = chatPrompt(match.kind, req.body)
        if (!prompt.model) return badRequest(this, 'model is required')
        const a = await ctx.answer(prompt)
        if (a.error) return { status: a.error.status, body: errorBody(a.error.status, a.error.message) }
        return { status: 200, body: chatCompletion(prompt.model, a) }
      }
      case 'openai.files.upload': {
        const parts = parseMultipart(req.headers['content-type'] ?? '', req.rawBody)
        const file = parts.find((p) => p.name === 'file')
        const purpose = parts.find((p) => p.name === 'purpose')?.content ?? ''
        if (!file) return badRequest(this, 'file is required')
        const id = ctx.nextId('file-')
        const stored = { content: file.content, filename: file.filename ?? 'upload', purpose }
        ctx.files.set(id, stored)
        return { status: 200, body: fileObject(id, stored) }
      }
      case 'openai.files.content': {
        const f = ctx.files.get(match.params['id'] ?? '')
        if (!f) return notFound(this, 'No such File object')
        return { status: 200, body: f.content, contentType: 'application/octet-stream' }
      }
      case 'openai.batches.create': {
        const b = asRecord(req.body)
        const input = ctx.files.get(String(b['input_file_id']))
        if (!input) return badRequest(this, 'input file not found')
        if (b['endpoint'] !== '/v1/chat/completions') return badRequest(this, 'unsupported endpoint')
        const id = ctx.nextId('batch_')
        const items = input.content
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((line) => {
            const parsed = asRecord(JSON.parse(line))
            const customId = String(parsed['custom_id'])
            return { customId, prompt: chatPrompt('openai', parsed['body'], { customId, batchId: id }) }
          })
        const stored: StoredBatch = { id, kind: 'openai', polls: 0, createdAt: Math.floor(Date.now() / 1000), items, extra: { input_file_id: String(b['input_file_id']) } }
        ctx.batches.set(id, stored)
        return { status: 200, body: batchObject(stored, false) }
      }
      case 'openai.batches.retrieve': {
        const b = ctx.batches.get(match.params['id'] ?? '')
        if (!b || b.kind !== 'openai') return notFound(this, 'No such batch')
        b.polls += 1
        if (!b.answers && b.polls >= ctx.batchPollsUntilDone()) await finishBatch(ctx, b)
        return { status: 200, body: batchObject(b, !!b.answers) }
      }
      default:
        return notFound(this, 'unknown endpoint')
    }
  }
}
