// Chat Completions, shared by the OpenAI provider and every OpenAI-compatible server.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { cancelledError, genericFailureToError, httpFailureToError, malformed } from './errors'
import { providerFetch } from './http'
import { ProviderError, type JudgeConfig, type ModelRequest, type ModelResponse, type ProviderOptions } from './types'

export type ChatFlavour = 'openai' | 'openai-compatible'

export function createChatClient(flavour: ChatFlavour, options: ProviderOptions): OpenAI {
  return new OpenAI({
    // Local servers (Ollama, llama.cpp) take no key, but the SDK refuses to start without one.
    apiKey: flavour === 'openai-compatible' && options.apiKey === '' ? 'unused' : options.apiKey,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    // The runner owns retries (and honours Retry-After); the SDK must not add its own.
    maxRetries: 0,
    fetch: providerFetch(options.fetch)
  })
}

/** o-series and gpt-5 reasoning models accept only the default temperature. */
export function isOpenAIReasoningModel(model: string): boolean {
  const name = model.replace(/^ft:/, '').toLowerCase()
  return /^o\d/.test(name) || (name.startsWith('gpt-5') && !name.includes('chat'))
}

/**
 * Whether OpenAI's strict structured-output mode accepts the schema: every object closes its properties and requires
 * all of them. Other schemas are still sent, as guidance without the strict guarantee.
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatible)
  if (!schema || typeof schema !== 'object') return true
  const node = schema as Record<string, unknown>
  const props = node['properties']
  if (node['type'] === 'object' || (props && typeof props === 'object')) {
    if (node['additionalProperties'] !== false) return false
    const keys = props && typeof props === 'object' ? Object.keys(props) : []
    const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : []
    if (!keys.every((k) => required.includes(k))) return false
  }
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const children = node[key]
    if (children && typeof children === 'object' && !Object.values(children).every(isStrictCompatible)) return false
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) {
    if (node[key] !== undefined && !isStrictCompatible(node[key])) return false
  }
  return true
}

export function chatBody(flavour: ChatFlavour, config: JudgeConfig, req: ModelRequest): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionCreateParamsNonStreaming['messages'] = []
  // OpenAI reasoning models read a system message as a developer message; the API converts it.
  if (req.system !== undefined && req.system !== '') messages.push({ role: 'system', content: req.system })
  messages.push({ role: 'user', content: req.user })
  const body: ChatCompletionCreateParamsNonStreaming = { model: config.model, messages }
  const reasoning = flavour === 'openai' && (isOpenAIReasoningModel(config.model) || config.reasoningEffort !== undefined)
  if (config.reasoningEffort !== undefined) body.reasoning_effort = config.reasoningEffort
  if (config.temperature !== undefined && !reasoning) body.temperature = config.temperature
  if (config.maxTokens !== undefined) {
    // OpenAI deprecated max_tokens (reasoning models reject it); local servers mostly know only max_tokens.
    if (flavour === 'openai') body.max_completion_tokens = config.maxTokens
    else body.max_tokens = config.maxTokens
  }
  if (config.structuredOutput) {
    body.response_format = req.jsonSchema
      ? { type: 'json_schema', json_schema: { name: 'answer', schema: req.jsonSchema, strict: isStrictCompatible(req.jsonSchema) } }
      : { type: 'json_object' }
  }
  return body
}

function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

/** A parsed chat.completion body as a ModelResponse; anything not shaped like one is malformed. */
export function chatCompletionToResponse(flavour: ChatFlavour, completion: unknown): ModelResponse {
  if (!completion || typeof completion !== 'object') throw malformed(flavour, 'response is not a JSON object')
  const c = completion as { choices?: unknown; usage?: unknown; model?: unknown }
  if (!Array.isArray(c.choices) || c.choices.length === 0) throw malformed(flavour, 'response has no choices')
  const choice = c.choices[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | null
  if (!choice || typeof choice !== 'object' || !choice.message || typeof choice.message !== 'object') {
    throw malformed(flavour, 'first choice has no message')
  }
  const { content, refusal } = choice.message
  let text: string
  let finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null
  if (typeof content === 'string') text = content
  else if (typeof refusal === 'string') {
    text = refusal
    finishReason = 'refusal'
  } else if (content === null || content === undefined) text = ''
  else throw malformed(flavour, 'message content is not text')
  const usage = (c.usage && typeof c.usage === 'object' ? c.usage : {}) as { prompt_tokens?: unknown; completion_tokens?: unknown }
  return {
    text,
    inputTokens: numberOrNull(usage.prompt_tokens),
    outputTokens: numberOrNull(usage.completion_tokens),
    finishReason,
    truncated: finishReason === 'length',
    modelVersion: typeof c.model === 'string' ? c.model : null
  }
}

function apiMessageOf(e: APIError): string | undefined {
  const inner = e.error as { message?: unknown } | undefined
  if (inner && typeof inner.message === 'string') return inner.message
  // Servers that do not wrap their error in {error: …} leave only the SDK's summary, which starts with the status.
  return e.message.replace(/^\d{3}\s*/, '') || undefined
}

export function mapChatError(flavour: ChatFlavour, e: unknown): ProviderError {
  if (e instanceof ProviderError) return e
  if (e instanceof APIUserAbortError) return cancelledError(flavour)
  if (e instanceof APIConnectionTimeoutError) return new ProviderError({ kind: 'timeout', message: `${flavour}: request timed out`, provider: flavour })
  if (e instanceof APIConnectionError) return new ProviderError({ kind: 'network', message: `${flavour}: connection failed`, provider: flavour })
  if (e instanceof APIError && typeof e.status === 'number') {
    const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined
    return httpFailureToError({ provider: flavour, status: e.status, headers: e.headers, apiMessage: apiMessageOf(e), code })
  }
  return genericFailureToError(flavour, e)
}
