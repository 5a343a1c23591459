export type FakeKind = 'openai' | 'anthropic' | 'google' | 'openai-compatible'

export type FakeEndpoint =
  | 'openai.chat'
  | 'openai.files.upload'
  | 'openai.files.content'
  | 'openai.batches.create'
  | 'openai.batches.retrieve'
  | 'compatible.chat'
  | 'anthropic.messages'
  | 'anthropic.batches.create'
  | 'anthropic.batches.retrieve'
  | 'anthropic.batches.results'
  | 'google.generateContent'
  | 'google.batches.create'
  | 'google.batches.get'
  | 'unknown'

export interface RecordedRequest {
  /** 1-based order of arrival over all endpoints. */
  seq: number
  kind: FakeKind | null
  endpoint: FakeEndpoint
  method: string
  path: string
  headers: Record<string, string>
  rawBody: string
  /** The body parsed as JSON, or undefined when it is not JSON (multipart uploads, GETs). */
  body: unknown
}

/** What the responder is asked: one model prompt, from a direct call or from a batch item. */
export interface Prompt {
  kind: FakeKind
  endpoint: FakeEndpoint
  model: string
  system: string | null
  user: string
  /** The provider-shaped request body (a batch item's params for batches). */
  body: unknown
  customId?: string
  batchId?: string
}

export interface FakeAnswer {
  text?: string
  /** `length` becomes each provider's own word for hitting the token limit. */
  finish?: 'stop' | 'length'
  inputTokens?: number
  outputTokens?: number
  /** Answer this prompt with an API error (inside a batch: a failed item). */
  error?: { status: number; message: string }
  /** Inside a batch: the batch expires before this request runs (the batch ends expired; the others are answered). */
  expired?: boolean
}

export type Responder = (prompt: Prompt) => string | FakeAnswer | Promise<string | FakeAnswer>

export type Fault =
  /** An HTTP error in the provider's own error shape; `rawBody` replaces that shape. */
  | { type: 'status'; status: number; headers?: Record<string, string>; message?: string | ((r: RecordedRequest) => string); rawBody?: string; contentType?: string }
  /** Accept the request and never answer (bounded by `hangLimitMs`, and by close()). */
  | { type: 'hang' }
  /** Send 200 and half of the body, then stall. */
  | { type: 'stall_body' }
  /** 200, JSON content type, a body that is not JSON. */
  | { type: 'invalid_json' }
  /** 200 with the JSON cut off halfway; the HTTP framing itself is complete. */
  | { type: 'truncated_json' }
  /** Drop the connection without a response. */
  | { type: 'reset' }
  /** Answer normally after a pause. */
  | { type: 'delay'; ms: number }

export interface FaultRule {
  endpoint?: FakeEndpoint | readonly FakeEndpoint[]
  kind?: FakeKind
  /** How many matching requests get the fault; then the rule is spent. Unlimited when absent. */
  times?: number
  when?: (r: RecordedRequest) => boolean
  fault: Fault
}

export interface FakeScript {
  responder?: Responder
  faults?: FaultRule[]
  /** A batch ends at this retrieve/get call (1 = the first poll already sees it done). */
  batchPollsUntilDone?: number
}

export interface FakeProvidersOptions extends FakeScript {
  /** When set for a kind, requests without this key get that provider's 401 (whose message echoes the key sent). */
  apiKeys?: Partial<Record<FakeKind, string>>
  /** A hung request is dropped after this long even if the client never gives up. Default 10 s. */
  hangLimitMs?: number
}

export interface FakeProviders {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  /** The base URL to give the SDK of a kind (OpenAI's includes /v1; Gemini's is the root before /v1beta). */
  url(kind: FakeKind): string
  readonly requests: readonly RecordedRequest[]
  requestsTo(endpoint: FakeEndpoint): RecordedRequest[]
  count(endpoint: FakeEndpoint): number
  counts(): Partial<Record<FakeEndpoint, number>>
  /** Replaces responder, faults and batch timing; recorded requests stay. */
  setScript(script: FakeScript): void
  addFault(rule: FaultRule): void
  /** Forgets requests, faults, batches and files, and restores the default responder. */
  reset(): void
  close(): Promise<void>
}
