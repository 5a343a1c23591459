/** The wire protocol a judge is reached through. `openai-compatible` is any Chat Completions server (vLLM, Ollama, llama.cpp, xAI…). */
export type ProviderKind = 'openai' | 'anthropic' | 'google' | 'openai-compatible'

export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'google', 'openai-compatible']

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high'

/** How one judge is called. Stored with every judgement, so it must stay plain data. */
export interface JudgeConfig {
  provider: ProviderKind
  model: string
  baseUrl?: string
  /** Overrides the company inferred from the model name (see companies.ts). */
  company?: string
  reasoningEffort?: ReasoningEffort
  /** Not sent where the API refuses it: OpenAI reasoning models, and Anthropic (no temperature in its current API version). */
  temperature?: number
  /** Tokens for the visible answer. Anthropic thinking budgets are added on top (see anthropic.ts). */
  maxTokens?: number
  /** Ask the API to constrain the answer to `ModelRequest.jsonSchema` (or to any JSON object when there is none). */
  structuredOutput?: boolean
}

export interface ModelRequest {
  system?: string
  user: string
  jsonSchema?: Record<string, unknown>
  /** Deadline for the whole call, body included. */
  timeoutMs: number
  signal?: AbortSignal
}

export interface ModelResponse {
  text: string
  inputTokens: number | null
  /** Billed output tokens, reasoning/thinking tokens included, so the providers compare. */
  outputTokens: number | null
  /** The provider's own word (`stop`, `end_turn`, `MAX_TOKENS`…), kept verbatim for the record. */
  finishReason: string | null
  /** The answer was cut by the output token limit. */
  truncated: boolean
  /** The exact model snapshot that answered, when the API says. */
  modelVersion: string | null
}

export type ProviderErrorKind =
  | 'rate_limit'
  | 'server'
  | 'timeout'
  | 'auth'
  | 'bad_request'
  | 'network'
  | 'malformed'
  | 'cancelled'

const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'timeout', 'network', 'malformed'])

export interface ProviderErrorInit {
  kind: ProviderErrorKind
  message: string
  status?: number
  retryAfterMs?: number
  /** Defaults by kind: rate_limit, server, timeout, network and malformed are retryable. */
  retryable?: boolean
  /** The API's machine-readable error code or type, e.g. `insufficient_quota`, `overloaded_error`. */
  code?: string
  provider?: ProviderKind
}

/** Every failure of a provider call. Messages never carry an API key. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined
  readonly retryable: boolean
  readonly code: string | undefined
  readonly provider: ProviderKind | undefined

  constructor(init: ProviderErrorInit) {
    super(init.message)
    this.name = 'ProviderError'
    this.kind = init.kind
    this.status = init.status
    this.retryAfterMs = init.retryAfterMs
    this.retryable = init.retryable ?? RETRYABLE_KINDS.has(init.kind)
    this.code = init.code
    this.provider = init.provider
  }
}

export function isProviderError(e: unknown): e is ProviderError {
  return e instanceof ProviderError
}

/** Per-call limits for the batch control calls (submit, poll, results), which are short requests. */
export interface BatchCallOptions {
  timeoutMs?: number
  signal?: AbortSignal
}

export type BatchState = 'running' | 'done' | 'failed' | 'cancelled'

export interface BatchStatus {
  state: BatchState
  /** Requests finished (succeeded or failed). */
  done: number
  total: number
}

export interface BatchItem {
  /** Caller's id for the request; Anthropic allows only [A-Za-z0-9_-]{1,64}, so all providers require that. */
  customId: string
  request: ModelRequest
}

export interface BatchResult {
  customId: string
  response?: ModelResponse
  error?: { kind: ProviderErrorKind; message: string }
}

/** Asynchronous bulk API (about half price, answers within 24 h). `timeoutMs`/`signal` of the items are ignored. */
export interface BatchApi {
  submit(config: JudgeConfig, requests: BatchItem[], options?: BatchCallOptions): Promise<{ batchId: string }>
  poll(batchId: string, options?: BatchCallOptions): Promise<BatchStatus>
  results(batchId: string, options?: BatchCallOptions): Promise<BatchResult[]>
}

export interface Provider {
  readonly kind: ProviderKind
  complete(config: JudgeConfig, req: ModelRequest): Promise<ModelResponse>
  batch?: BatchApi
}

export interface ProviderOptions {
  apiKey: string
  /** Root of the API, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. Required for openai-compatible. */
  baseUrl?: string
  /** Replaces the HTTP client (tests, proxies). */
  fetch?: typeof fetch
}
