import { ApiError, GoogleGenAI, ThinkingLevel, type Content, type GenerateContentConfig, type InlinedRequest, type ThinkingConfig } from '@google/genai'
import { batchCallWithDeadline, responseOrMalformed } from './batch-calls'
import { assertBatchIds, batchNotFinished } from './batch-ids'
import { genericFailureToError, httpFailureToError, malformed, redact, withDeadline } from './errors'
import { providerFetch } from './http'
import {
  ProviderError,
  type BatchApi,
  type BatchCallOptions,
  type BatchItem,
  type BatchResult,
  type BatchStatus,
  type JudgeConfig,
  type ModelRequest,
  type ModelResponse,
  type Provider,
  type ProviderErrorKind,
  type ProviderOptions,
  type ReasoningEffort
} from './types'

/** Thinking budgets for Gemini 2.x, which take a token count; later models take a level instead. */
const GEMINI2_THINKING_BUDGET: Record<ReasoningEffort, number> = { minimal: 0, low: 1024, medium: 8192, high: 24576 }
const THINKING_LEVEL: Record<ReasoningEffort, ThinkingLevel> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH
}

export function thinkingConfig(model: string, effort: ReasoningEffort): ThinkingConfig {
  const name = model.replace(/^models\//, '')
  if (/^gemini-(1|2)\./.test(name)) {
    // 2.5 Pro cannot switch thinking off; 128 is its floor.
    const budget = effort === 'minimal' && name.startsWith('gemini-2.5-pro') ? 128 : GEMINI2_THINKING_BUDGET[effort]
    return { thinkingBudget: budget }
  }
  return { thinkingLevel: THINKING_LEVEL[effort] }
}

/** The generation settings of one request, shared by generateContent and inlined batch requests. */
export function generationConfig(config: JudgeConfig, req: ModelRequest): GenerateContentConfig {
  const out: GenerateContentConfig = {}
  if (req.system !== undefined && req.system !== '') out.systemInstruction = req.system
  if (config.temperature !== undefined) out.temperature = config.temperature
  if (config.maxTokens !== undefined) out.maxOutputTokens = config.maxTokens
  if (config.structuredOutput) {
    out.responseMimeType = 'application/json'
    // responseJsonSchema takes JSON Schema as is; responseSchema would need the OpenAPI subset.
    if (req.jsonSchema) out.responseJsonSchema = req.jsonSchema
  }
  if (config.reasoningEffort !== undefined) out.thinkingConfig = thinkingConfig(config.model, config.reasoningEffort)
  return out
}

function userContents(req: ModelRequest): Content[] {
  return [{ role: 'user', parts: [{ text: req.user }] }]
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

export function generateContentToResponse(response: unknown): ModelResponse {
  if (!response || typeof response !== 'object') throw malformed('google', 'response is not a JSON object')
  const r = response as { candidates?: unknown; promptFeedback?: { blockReason?: unknown }; usageMetadata?: Record<string, unknown>; modelVersion?: unknown }
  const usage = r.usageMetadata && typeof r.usageMetadata === 'object' ? r.usageMetadata : {}
  const candidatesTokens = num(usage['candidatesTokenCount'])
  const thoughtsTokens = num(usage['thoughtsTokenCount'])
  const base = {
    inputTokens: num(usage['promptTokenCount']),
    // Gemini counts thoughts apart; they are billed as output like the other providers' reasoning tokens.
    outputTokens: candidatesTokens === null && thoughtsTokens === null ? null : (candidatesTokens ?? 0) + (thoughtsTokens ?? 0),
    modelVersion: typeof r.modelVersion === 'string' ? r.modelVersion : null
  }
  const first = Array.isArray(r.candidates) ? (r.candidates[0] as { content?: { parts?: unknown }; finishReason?: unknown } | undefined) : undefined
  if (!first) {
    const blocked = r.promptFeedback?.blockReason
    if (typeof blocked === 'string') return { ...base, text: '', finishReason: `PROMPT_BLOCKED:${blocked}`, truncated: false }
    throw malformed('google', 'response has no candidates')
  }
  const parts = first.content?.parts
  const text = Array.isArray(parts)
    ? parts
        .filter((p): p is { text: string } => !!p && typeof p === 'object' && typeof p.text === 'string' && p.thought !== true)
        .map((p) => p.text)
        .join('')
    : ''
  const finishReason = typeof first.finishReason === 'string' ? first.finishReason : null
  return { ...base, text, finishReason, truncated: finishReason === 'MAX_TOKENS' }
}

/**
 * A fetch that remembers what the SDK does not pass on: the headers of a failed response (ApiError keeps only the
 * status and body, so Retry-After would be lost) and, on request, the raw JSON of a success.
 */
interface CallTrace {
  fetch: typeof fetch
  failureHeaders: Headers | undefined
  json: Promise<unknown> | undefined
}

function traceCalls(base: typeof fetch, keepJson = false): CallTrace {
  const trace: CallTrace = {
    failureHeaders: undefined,
    json: undefined,
    fetch: (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await base(input, init)
      if (!res.ok) trace.failureHeaders = res.headers
      else if (keepJson) trace.json = res.clone().json().catch(() => undefined)
      return res
    }) as typeof fetch
  }
  return trace
}

/** google.rpc.RetryInfo in the error body: Gemini states its retry delay there ("37s"), often without a header. */
function retryDelayFromBody(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details
  if (!Array.isArray(details)) return undefined
  for (const d of details) {
    const delay = (d as { retryDelay?: unknown } | null)?.retryDelay
    const m = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null
    if (m?.[1]) return Math.round(Number(m[1]) * 1000)
  }
  return undefined
}

export function mapGoogleError(e: unknown, failureHeaders?: Headers): ProviderError {
  if (e instanceof ProviderError) return e
  if (e instanceof ApiError) {
    let body: unknown
    try {
      body = JSON.parse(e.message)
    } catch {
      body = undefined
    }
    const inner = (body as { error?: { message?: unknown; status?: unknown } } | undefined)?.error
    const err = httpFailureToError({
      provider: 'google',
      status: e.status,
      headers: failureHeaders,
      apiMessage: typeof inner?.message === 'string' ? inner.message : undefined,
      code: typeof inner?.status === 'string' ? inner.status : undefined
    })
    const bodyDelay = err.retryAfterMs === undefined ? retryDelayFromBody(body) : undefined
    if (bodyDelay === undefined) return err
    return new ProviderError({ kind: err.kind, message: err.message, status: e.status, retryAfterMs: bodyDelay, retryable: err.retryable, provider: 'google', ...(err.code ? { code: err.code } : {}) })
  }
  return genericFailureToError('google', e)
}

export class GoogleProvider implements Provider {
  readonly kind = 'google' as const
  readonly batch: BatchApi
  private readonly ai: GoogleGenAI
  private readonly fetchFn: typeof fetch
  private readonly secrets: string[]

  constructor(options: ProviderOptions) {
    this.fetchFn = providerFetch(options.fetch)
    // vertexai: false keeps GOOGLE_GENAI_USE_VERTEXAI in the environment from redirecting the calls. Without
    // retryOptions the SDK does not retry.
    this.ai = new GoogleGenAI({ apiKey: options.apiKey, vertexai: false, httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), fetch: this.fetchFn } })
    this.secrets = [options.apiKey]
    this.batch = new GoogleBatch(this.ai, this.fetchFn, this.secrets)
  }

  complete(config: JudgeConfig, req: ModelRequest): Promise<ModelResponse> {
    const trace = traceCalls(this.fetchFn)
    return withDeadline(
      'google',
      req,
      this.secrets,
      async (signal, timeoutMs) => {
        const response = await this.ai.models.generateContent({
          model: config.model,
          contents: userContents(req),
          config: { ...generationConfig(config, req), abortSignal: signal, httpOptions: { timeout: timeoutMs, fetch: trace.fetch } }
        })
        return generateContentToResponse(response)
      },
      (e) => mapGoogleError(e, trace.failureHeaders)
    )
  }
}

// google.rpc.Code of a failed inlined request.
function rpcCodeKind(code: unknown): ProviderErrorKind {
  switch (code) {
    case 4:
      return 'timeout'
    case 7:
    case 16:
      return 'auth'
    case 8:
      return 'rate_limit'
    case 1:
      return 'cancelled'
    case 2:
    case 10:
    case 13:
    case 14:
      return 'server'
    default:
      return 'bad_request'
  }
}

export function googleBatchState(state: string | undefined): BatchStatus['state'] {
  switch (state) {
    case 'JOB_STATE_SUCCEEDED':
      return 'done'
    case 'JOB_STATE_FAILED':
    case 'JOB_STATE_EXPIRED':
      return 'failed'
    case 'JOB_STATE_CANCELLED':
      return 'cancelled'
    default:
      return 'running'
  }
}

function statNumber(v: unknown): number {
  // int64 fields arrive as strings in proto JSON.
  const n = typeof v === 'string' ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}

/** Gemini batch mode with inlined requests: models/{model}:batchGenerateContent, then batches/{id}. */
class GoogleBatch implements BatchApi {
  // Each inlined request carries its custom id in metadata.key; this is only a fallback for responses that lack it.
  private readonly submittedIds = new Map<string, string[]>()

  constructor(
    private readonly ai: GoogleGenAI,
    private readonly fetchFn: typeof fetch,
    private readonly secrets: string[]
  ) {}

  private control<T>(options: BatchCallOptions | undefined, keepJson: boolean, call: (signal: AbortSignal, httpOptions: { timeout: number; fetch: typeof fetch }, trace: CallTrace) => Promise<T>): Promise<T> {
    const trace = traceCalls(this.fetchFn, keepJson)
    return batchCallWithDeadline('google', options, this.secrets, (signal, timeout) => call(signal, { timeout, fetch: trace.fetch }, trace), (e) => mapGoogleError(e, trace.failureHeaders))
  }

  async submit(config: JudgeConfig, requests: BatchItem[], options?: BatchCallOptions): Promise<{ batchId: string }> {
    assertBatchIds('google', requests)
    const src: InlinedRequest[] = requests.map((r) => ({ contents: userContents(r.request), config: generationConfig(config, r.request), metadata: { key: r.customId } }))
    return this.control(options, false, async (abortSignal, httpOptions) => {
      const job = await this.ai.batches.create({ model: config.model, src, config: { displayName: 'assay', abortSignal, httpOptions } })
      if (!job.name) throw malformed('google', 'batch created without a name')
      this.submittedIds.set(job.name, requests.map((r) => r.customId))
      return { batchId: job.name }
    })
  }

  poll(batchId: string, options?: BatchCallOptions): Promise<BatchStatus> {
    return this.control(options, true, async (abortSignal, httpOptions, trace) => {
      const job = await this.ai.batches.get({ name: batchId, config: { abortSignal, httpOptions } })
      // The SDK's BatchJob drops batchStats, so the counts come from the raw body.
      const raw = (await trace.json) as { metadata?: { batchStats?: Record<string, unknown> } } | undefined
      const stats = raw?.metadata?.batchStats
      const state = googleBatchState(job.state)
      const total = stats ? statNumber(stats['requestCount']) : (this.submittedIds.get(batchId)?.length ?? 0)
      const done = stats ? statNumber(stats['successfulRequestCount']) + statNumber(stats['failedRequestCount']) : state === 'done' ? total : 0
      return { state, done, total }
    })
  }

  results(batchId: string, options?: BatchCallOptions): Promise<BatchResult[]> {
    return this.control(options, false, async (abortSignal, httpOptions) => {
      const job = await this.ai.batches.get({ name: batchId, config: { abortSignal, httpOptions } })
      if (googleBatchState(job.state) === 'running') throw batchNotFinished('google', batchId)
      const inlined = job.dest?.inlinedResponses
      if (!inlined) {
        if (job.dest?.fileName) throw malformed('google', `batch ${batchId} wrote its responses to a file, which is not supported`)
        return []
      }
      const ids = this.submittedIds.get(batchId)
      return inlined.map((item, i): BatchResult => {
        const customId = item.metadata?.['key'] ?? ids?.[i] ?? String(i)
        if (item.error) {
          return { customId, error: { kind: rpcCodeKind(item.error.code), message: redact(`google: ${item.error.message ?? 'request failed'}`, this.secrets) } }
        }
        return responseOrMalformed(customId, () => generateContentToResponse(item.response))
      })
    })
  }
}
