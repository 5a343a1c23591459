// Anthropic's wire protocol: Messages and Message Batches, in the shapes @anthropic-ai/sdk parses.
import { asRecord, badRequest, contentText, notFound, type Answer, type Ctx, type Match, type ProviderFake, type Reply, type StoredBatch } from './common'
import type { Prompt, RecordedRequest } from './types'

const ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error'
}

function errorType(status: number): string {
  return ERROR_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

function errorBody(status: number, message: string): unknown {
  return { type: 'error', error: { type: errorType(status), message }, request_id: 'req_fake' }
}

function messagesPrompt(body: unknown, extra: Partial<Prompt> = {}): Prompt {
  const b = asRecord(body)
  const messages = Array.isArray(b['messages']) ? (b['messages'] as unknown[]).map(asRecord) : []
  const users = messages.filter((m) => m['role'] === 'user')
  const system = b['system'] === undefined ? null : contentText(b['system'])
  return {
    kind: 'anthropic',
    endpoint: 'anthropic.messages',
    model: typeof b['model'] === 'string' ? b['model'] : '',
    system,
    user: contentText(users[users.length - 1]?.['content']),
    body,
    ...extra
  }
}

let messageSeq = 0

function message(model: string, a: Answer): unknown {
  messageSeq += 1
  return {
    id: `msg_fake${messageSeq}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: a.text, citations: null }],
    stop_reason: a.finish === 'length' ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: a.inputTokens, output_tokens: a.outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' }
  }
}

function batchObject(ctx: Ctx, b: StoredBatch): unknown {
  const ended = !!b.answers
  const errored = b.answers ? b.answers.filter((a) => a.error && !a.expired).length : 0
  const expired = b.answers ? b.answers.filter((a) => a.expired).length : 0
  const created = new Date(b.createdAt * 1000).toISOString()
  return {
    id: b.id,
    type: 'message_batch',
    processing_status: ended ? 'ended' : 'in_progress',
    request_counts: { processing: ended ? 0 : b.items.length, succeeded: ended ? b.items.length - errored - expired : 0, errored, canceled: 0, expired },
    created_at: created,
    expires_at: new Date((b.createdAt + 86400) * 1000).toISOString(),
    ended_at: ended ? new Date().toISOString() : null,
    archived_at: null,
    cancel_initiated_at: null,
    results_url: ended ? `${ctx.origin}/anthropic/v1/messages/batches/${b.id}/results` : null
  }
}

function validateParams(b: Record<string, unknown>): string | null {
  if (typeof b['model'] !== 'string' || b['model'] === '') return 'model: Field required'
  if (typeof b['max_tokens'] !== 'number') return 'max_tokens: Field required'
  if (!Array.isArray(b['messages'])) return 'messages: Field required'
  return null
}

export const anthropicFake: ProviderFake = {
  errorBody,

  route(method: string, path: string): Match | null {
    const m = /^\/anthropic\/v1(\/.*)$/.exec(path)
    if (!m) return null
    const rest = m[1]!
    if (method === 'POST' && rest === '/messages') return { kind: 'anthropic', endpoint: 'anthropic.messages', params: {} }
    if (method === 'POST' && rest === '/messages/batches') return { kind: 'anthropic', endpoint: 'anthropic.batches.create', params: {} }
    let p = /^\/messages\/batches\/([^/]+)$/.exec(rest)
    if (method === 'GET' && p) return { kind: 'anthropic', endpoint: 'anthropic.batches.retrieve', params: { id: p[1]! } }
    p = /^\/messages\/batches\/([^/]+)\/results$/.exec(rest)
    if (method === 'GET' && p) return { kind: 'anthropic', endpoint: 'anthropic.batches.results', params: { id: p[1]! } }
    return null
  },

  async handle(ctx: Ctx, match: Match, req: RecordedRequest): Promise<Reply> {
    switch (match.endpoint) {
      case 'anthropic.messages': {
        const invalid = validateParams(asRecord(req.body))
        if (invalid) return badRequest(this, invalid)
        const prompt = messagesPrompt(req.body)
        const a = await ctx.answer(prompt)
        if (a.error) return { status: a.error.status, body: errorBody(a.error.status, a.error.message) }
        return { status: 200, body: message(prompt.model, a) }
      }
      case 'anthropic.batches.create': {
        const requests = asRecord(req.body)['requests']
        if (!Array.isArray(requests) || requests.length === 0) return badRequest(this, 'requests: at least one request is required')
        const id = ctx.nextId('msgbatch_')
        const items = []
        for (const r of requests.map(asRecord)) {
          const params = asRecord(r['params'])
          const invalid = validateParams(params)
          if (invalid) return badRequest(this, `requests.params.${invalid}`)
          const customId = String(r['custom_id'])
          items.push({ customId, prompt: messagesPrompt(params, { customId, batchId: id }) })
        }
        const stored: StoredBatch = { id, kind: 'anthropic', polls: 0, createdAt: Math.floor(Date.now() / 1000), items, extra: {} }
        ctx.batches.set(id, stored)
        return { status: 200, body: batchObject(ctx, stored) }
      }
      case 'anthropic.batches.retrieve': {
        const b = ctx.batches.get(match.params['id'] ?? '')
        if (!b || b.kind !== 'anthropic') return notFound(this, 'batch not found')
        b.polls += 1
        if (!b.answers && b.polls >= ctx.batchPollsUntilDone()) b.answers = await Promise.all(b.items.map((i) => ctx.answer(i.prompt)))
        return { status: 200, body: batchObject(ctx, b) }
      }
      case 'anthropic.batches.results': {
        const b = ctx.batches.get(match.params['id'] ?? '')
        if (!b || b.kind !== 'anthropic' || !b.answers) return notFound(this, 'results not available')
        const answers = b.answers
        const lines = b.items.map((item, i) => {
          const a = answers[i]!
          const result = a.expired ? { type: 'expired' } : a.error ? { type: 'errored', error: errorBody(a.error.status, a.error.message) } : { type: 'succeeded', message: message(item.prompt.model, a) }
          return JSON.stringify({ custom_id: item.customId, result })
        })
        return { status: 200, body: `${lines.join('\n')}\n`, contentType: 'application/binary' }
      }
      default:
        return notFound(this, 'unknown endpoint')
    }
  }
}
