import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk'
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import { batchCallWithDeadline, responseOrMalformed } from './batch-calls'
import { assertBatchIds, batchNotFinished } from './batch-ids'
import { cancelledError, genericFailureToError, httpFailureToError, malformed, redact, withDeadline } from './errors'
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

/** The Messages API requires max_tokens; this is the answer budget when the judge config sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192

/** Thinking tokens per effort. `minimal` means no extended thinking. The API's floor is 1024. */
export const ANTHROPIC_THINKING_BUDGET: Record<Exclude<ReasoningEffort, 'minimal'>, number> = { low: 2048, medium: 8192, high: 24576 }

/**
 * Models on which a fixed thinking budget is deprecated in favour of adaptive thinking steered by `effort`
 * (the SDK warns for claude-opus-4-6 and claude-mythos); later generations (4-6 on, 5 on) are taken to follow them.
 */
export function usesAdaptiveThinking(model: string): boolean {
  return /claude-[a-z]+-(4-[6-9]|[5-9])(?!\d)|mythos/.test(model)
}

export function messagesBody(config: JudgeConfig, req: ModelRequest): MessageCreateParamsNonStreaming {
  const answerTokens = config.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS
  const effort = config.reasoningEffort
  const body: MessageCreateParamsNonStreaming = {
    model: config.model,
    max_tokens: answerTokens,
    messages: [{ role: 'user', content: req.user }]
  }
  if (req.system !== undefined && req.system !== '') body.system = req.system
  if (effort !== undefined && usesAdaptiveThinking(config.model)) {
    body.thinking = { type: 'adaptive' }
    body.output_config = { effort: effort === 'minimal' ? 'low' : effort }
    // Thinking counts against max_tokens; leave the answer its own budget.
    body.max_tokens = answerTokens + ANTHROPIC_THINKING_BUDGET[effort === 'minimal' ? 'low' : effort]
  } else if (effort !== undefined && effort !== 'minimal') {
    const budget = ANTHROPIC_THINKING_BUDGET[effort]
    body.thinking = { type: 'enabled', budget_tokens: budget }
    body.max_tokens = answerTokens + budget
  }
  // config.temperature is not sent: the API version this SDK speaks (2026-10-21) has no sampling temperature.
  if (config.structuredOutput && req.jsonSchema) {
    body.output_config = { ...body.output_config, format: { type: 'json_schema', schema: req.jsonSchema } }
  }
  return body
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

export function messageToResponse(message: unknown): ModelResponse {
  if (!message || typeof message !== 'object') throw malformed('anthropic', 'response is not a JSON object')
  const m = message as { content?: unknown; stop_reason?: unknown; usage?: unknown; model?: unknown }
  if (!Array.isArray(m.content)) throw malformed('anthropic', 'response has no content array')
  // Thinking blocks are not part of the answer.
  const text = m.content
    .filter((b): b is { type: 'text'; text: string } => !!b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('')
  const usage = (m.usage && typeof m.usage === 'object' ? m.usage : null) as Record<string, unknown> | null
  const stop = typeof m.stop_reason === 'string' ? m.stop_reason : null
  return {
    text,
    // Cached prompt tokens are reported apart from input_tokens; the prompt is all of them.
    inputTokens: usage && typeof usage['input_tokens'] === 'number' ? count(usage['input_tokens']) + count(usage['cache_creation_input_tokens']) + count(usage['cache_read_input_tokens']) : null,
    outputTokens: usage && typeof usage['output_tokens'] === 'number' ? usage['output_tokens'] : null,
    finishReason: stop,
    truncated: stop === 'max_tokens' || stop === 'model_context_window_exceeded',
    modelVersion: typeof m.model === 'string' ? m.model : null
  }
}

export function mapAnthropicError(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e
  if (e instanceof APIUserAbortError) return cancelledError('anthropic')
  if (e instanceof APIConnectionTimeoutError) return new ProviderError({ kind: 'timeout', message: 'anthropic: request timed out', provider: 'anthropic' })
  if (e instanceof APIConnectionError) return new ProviderError({ kind: 'network', message: 'anthropic: connection failed', provider: 'anthropic' })
  if (e instanceof APIError && typeof e.status === 'number') {
    return httpFailureToError({ provider: 'anthropic', status: e.status, headers: e.headers, apiMessage: e.apiMessage, code: e.type })
  }
  return genericFailureToError('anthropic', e)
}

export class AnthropicProvider implements Provider {
  readonly kind = 'anthropic' as const
  readonly batch: BatchApi
  private readonly client: Anthropic
  private readonly secrets: string[]

  constructor(options: ProviderOptions) {
    this.client = new Anthropic({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      // The runner owns retries (and honours Retry-After); the SDK must not add its own.
      maxRetries: 0,
      fetch: providerFetch(options.fetch)
    })
    this.secrets = [options.apiKey]
    this.batch = new AnthropicBatch(this.client, this.secrets)
  }

  complete(config: JudgeConfig, req: ModelRequest): Promise<ModelResponse> {
    return withDeadline(
      'anthropic',
      req,
      this.secrets,
      async (signal, timeoutMs) => messageToResponse(await this.client.messages.create(messagesBody(config, req), { signal, timeout: timeoutMs, maxRetries: 0 })),
      mapAnthropicError
    )
  }
}

function errorTypeKind(type: unknown): ProviderErrorKind {
  switch (type) {
    case 'authentication_error':
    case 'permission_error':
      return 'auth'
    case 'rate_limit_error':
      return 'rate_limit'
    case 'timeout_error':
      return 'timeout'
    case 'api_error':
    case 'overloaded_error':
      return 'server'
    default:
      return 'bad_request'
  }
}

export function anthropicBatchState(batch: { processing_status: string; cancel_initiated_at: string | null }): BatchStatus['state'] {
  if (batch.processing_status !== 'ended') return 'running'
  return batch.cancel_initiated_at ? 'cancelled' : 'done'
}

/** Message Batches: POST /v1/messages/batches, GET …/{id}, then the JSONL at the batch's results_url. */
class AnthropicBatch implements BatchApi {
  constructor(
    private readonly client: Anthropic,
    private readonly secrets: string[]
  ) {}

  private control<T>(options: BatchCallOptions | undefined, call: (o: { signal: AbortSignal; timeout: number; maxRetries: 0 }) => Promise<T>): Promise<T> {
    return batchCallWithDeadline('anthropic', options, this.secrets, (signal, timeout) => call({ signal, timeout, maxRetries: 0 }), mapAnthropicError)
  }

  async submit(config: JudgeConfig, requests: BatchItem[], options?: BatchCallOptions): Promise<{ batchId: string }> {
    assertBatchIds('anthropic', requests)
    const body = { requests: requests.map((r) => ({ custom_id: r.customId, params: messagesBody(config, r.request) })) }
    return this.control(options, async (o) => ({ batchId: (await this.client.messages.batches.create(body, o)).id }))
  }

  poll(batchId: string, options?: BatchCallOptions): Promise<BatchStatus> {
    return this.control(options, async (o) => {
      const batch = await this.client.messages.batches.retrieve(batchId, {}, o)
      const c = batch.request_counts
      const done = c.succeeded + c.errored + c.canceled + c.expired
      return { state: anthropicBatchState(batch), done, total: done + c.processing }
    })
  }

  results(batchId: string, options?: BatchCallOptions): Promise<BatchResult[]> {
    return this.control(options, async (o) => {
      const batch = await this.client.messages.batches.retrieve(batchId, {}, o)
      if (batch.processing_status !== 'ended') throw batchNotFinished('anthropic', batchId)
      const out: BatchResult[] = []
      for await (const line of await this.client.messages.batches.results(batchId, {}, o)) {
        const customId = line.custom_id
        const result = line.result
        if (result.type === 'succeeded') {
          out.push(responseOrMalformed(customId, () => messageToResponse(result.message)))
        } else if (result.type === 'errored') {
          const err = result.error?.error
          out.push({ customId, error: { kind: errorTypeKind(err?.type), message: redact(`anthropic: ${err?.message ?? 'request failed'}`, this.secrets) } })
        } else if (result.type === 'canceled') {
          out.push({ customId, error: { kind: 'cancelled', message: 'anthropic: request cancelled with its batch' } })
        } else {
          out.push({ customId, error: { kind: 'timeout', message: 'anthropic: batch expired before this request ran' } })
        }
      }
      return out
    })
  }
}
