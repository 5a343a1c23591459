// The Gemini API's wire protocol (v1beta): generateContent and batch mode with inlined requests, in the shapes
// @google/genai parses.
import { asRecord, badRequest, contentText, notFound, type Answer, type Ctx, type Match, type ProviderFake, type Reply, type StoredBatch } from './common'
import type { Prompt, RecordedRequest } from './types'

const STATUS_NAME: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED'
}

// google.rpc.Code for the statuses above, used for failed items inside a batch.
const RPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 503: 14, 504: 4 }

function errorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: STATUS_NAME[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } }
}

function partsText(content: unknown): string {
  return contentText(asRecord(content)['parts'])
}

function generatePrompt(model: string, body: unknown, extra: Partial<Prompt> = {}): Prompt {
  const b = asRecord(body)
  const contents = Array.isArray(b['contents']) ? (b['contents'] as unknown[]).map(asRecord) : []
  const users = contents.filter((c) => c['role'] === undefined || c['role'] === 'user')
  return {
    kind: 'google',
    endpoint: 'google.generateContent',
    model,
    system: b['systemInstruction'] === undefined ? null : partsText(b['systemInstruction']),
    user: partsText(users[users.length - 1]),
    body,
    ...extra
  }
}

let responseSeq = 0

function generateContentResponse(model: string, a: Answer): unknown {
  responseSeq += 1
  return {
    candidates: [{ content: { role: 'model', parts: [{ text: a.text }] }, finishReason: a.finish === 'length' ? 'MAX_TOKENS' : 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: a.inputTokens, candidatesTokenCount: a.outputTokens, totalTokenCount: a.inputTokens + a.outputTokens },
    modelVersion: `${model}-001`,
    responseId: `resp-fake${responseSeq}`
  }
}

function batchOperation(b: StoredBatch): unknown {
  const done = !!b.answers
  const failed = b.answers ? b.answers.filter((a) => a.error || a.expired).length : 0
  const expired = !!b.answers?.some((a) => a.expired)
  const n = b.items.length
  const metadata: Record<string, unknown> = {
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
    model: `models/${b.extra['model']}`,
    displayName: b.extra['displayName'] ?? '',
    createTime: new Date(b.createdAt * 1000).toISOString(),
    updateTime: new Date().toISOString(),
    state: done ? (expired ? 'BATCH_STATE_EXPIRED' : 'BATCH_STATE_SUCCEEDED') : b.polls === 0 ? 'BATCH_STATE_PENDING' : 'BATCH_STATE_RUNNING',
    // int64 counters are strings in proto JSON.
    batchStats: done
      ? { requestCount: String(n), successfulRequestCount: String(n - failed), failedRequestCount: String(failed) }
      : { requestCount: String(n), pendingRequestCount: String(n) }
  }
  if (b.answers) {
    const answers = b.answers
    // An expired job returns what it answered before the deadline; the requests it left undone are absent.
    const inlinedResponses = b.items.flatMap((item, i) => (answers[i]!.expired ? [] : [{ item, i }])).map(({ item, i }) => {
      const a = answers[i]!
      const meta = item.customId ? { metadata: { key: item.customId } } : {}
      if (a.error) return { error: { code: RPC_CODE[a.error.status] ?? 2, message: a.error.message }, ...meta }
      return { response: generateContentResponse(b.extra['model'] ?? '', a), ...meta }
    })
    metadata['endTime'] = new Date().toISOString()
    metadata['output'] = { inlinedResponses: { inlinedResponses } }
  }
  return { name: b.id, metadata, ...(done ? { done: true, response: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput', inlinedResponses: asRecord(metadata['output'])['inlinedResponses'] } } : {}) }
}

export const googleFake: ProviderFake = {
  errorBody,

  route(method: string, path: string): Match | null {
    const m = /^\/google\/v1beta(\/.*)$/.exec(path)
    if (!m) return null
    const rest = m[1]!
    let p = /^\/models\/([^/:]+):generateContent$/.exec(rest)
    if (method === 'POST' && p) return { kind: 'google', endpoint: 'google.generateContent', params: { model: decodeURIComponent(p[1]!) } }
    p = /^\/models\/([^/:]+):batchGenerateContent$/.exec(rest)
    if (method === 'POST' && p) return { kind: 'google', endpoint: 'google.batches.create', params: { model: decodeURIComponent(p[1]!) } }
    p = /^\/batches\/([^/:]+)$/.exec(rest)
    if (method === 'GET' && p) return { kind: 'google', endpoint: 'google.batches.get', params: { id: `batches/${p[1]!}` } }
    return null
  },

  async handle(ctx: Ctx, match: Match, req: RecordedRequest): Promise<Reply> {
    switch (match.endpoint) {
      case 'google.generateContent': {
        const body = asRecord(req.body)
        if (!Array.isArray(body['contents']) || body['contents'].length === 0) return badRequest(this, '* GenerateContentRequest.contents: contents is not specified')
        const prompt = generatePrompt(match.params['model'] ?? '', body)
        const a = await ctx.answer(prompt)
        if (a.error) return { status: a.error.status, body: errorBody(a.error.status, a.error.message) }
        return { status: 200, body: generateContentResponse(prompt.model, a) }
      }
      case 'google.batches.create': {
        const batch = asRecord(asRecord(req.body)['batch'])
        const requests = asRecord(asRecord(batch['inputConfig'])['requests'])['requests']
        if (!Array.isArray(requests) || requests.length === 0) return badRequest(this, 'batch.input_config.requests is required')
        const model = match.params['model'] ?? ''
        const id = ctx.nextId('batches/fake')
        const items = requests.map(asRecord).map((r, i) => {
          const customId = asRecord(r['metadata'])['key']
          const prompt = generatePrompt(model, r['request'], { endpoint: 'google.batches.create', batchId: id, ...(typeof customId === 'string' ? { customId } : {}) })
          return { customId: typeof customId === 'string' ? customId : String(i), prompt }
        })
        const stored: StoredBatch = { id, kind: 'google', polls: 0, createdAt: Math.floor(Date.now() / 1000), items, extra: { model, displayName: String(batch['displayName'] ?? '') } }
        ctx.batches.set(id, stored)
        return { status: 200, body: batchOperation(stored) }
      }
      case 'google.batches.get': {
        const b = ctx.batches.get(match.params['id'] ?? '')
        if (!b || b.kind !== 'google') return notFound(this, 'Requested entity was not found.')
        b.polls += 1
        if (!b.answers && b.polls >= ctx.batchPollsUntilDone()) b.answers = await Promise.all(b.items.map((i) => ctx.answer(i.prompt)))
        return { status: 200, body: batchOperation(b) }
      }
      default:
        return notFound(this, 'unknown endpoint')
    }
  }
}
