import type { FakeAnswer, FakeEndpoint, FakeKind, Prompt, RecordedRequest, Responder } from './types'

export interface Reply {
  status: number
  /** An object is sent as JSON; a string as is. */
  body: unknown
  contentType?: string
  headers?: Record<string, string>
}

export interface Answer {
  text: string
  finish: 'stop' | 'length'
  inputTokens: number
  outputTokens: number
  error?: { status: number; message: string }
  /** Left undone by an expired batch. */
  expired?: boolean
}

export interface StoredBatch {
  id: string
  kind: FakeKind
  polls: number
  createdAt: number
  items: { customId: string; prompt: Prompt }[]
  /** Filled when the batch ends. */
  answers?: Answer[]
  /** Provider-specific leftovers (OpenAI file ids…). */
  extra: Record<string, string>
}

export interface Ctx {
  origin: string
  answer(prompt: Prompt): Promise<Answer>
  batches: Map<string, StoredBatch>
  files: Map<string, { content: string; filename: string; purpose: string }>
  batchPollsUntilDone(): number
  nextId(prefix: string): string
}

export interface Match {
  kind: FakeKind
  endpoint: FakeEndpoint
  params: Record<string, string>
}

export interface ProviderFake {
  route(method: string, path: string): Match | null
  handle(ctx: Ctx, match: Match, req: RecordedRequest): Promise<Reply>
  errorBody(status: number, message: string): unknown
}

/** A stable stand-in for a tokenizer: whitespace-separated words. */
export function wordCount(s: string): number {
  const t = s.trim()
  return t === '' ? 0 : t.split(/\s+/).length
}

export async function runResponder(responder: Responder, prompt: Prompt): Promise<Answer> {
  const raw = await responder(prompt)
  const a: FakeAnswer = typeof raw === 'string' ? { text: raw } : raw
  const text = a.text ?? ''
  return {
    text,
    finish: a.finish ?? 'stop',
    inputTokens: a.inputTokens ?? wordCount(`${prompt.system ?? ''} ${prompt.user}`),
    outputTokens: a.outputTokens ?? wordCount(text),
    ...(a.error ? { error: a.error } : {}),
    ...(a.expired ? { expired: true } : {})
  }
}

export const defaultResponder: Responder = () => '{"ok":true}'

/** Text of a message content that is a string or an array of `{type:'text', text}` parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('')
  }
  return ''
}

export function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

export function badRequest(fake: ProviderFake, message: string): Reply {
  return { status: 400, body: fake.errorBody(400, message) }
}

export function notFound(fake: ProviderFake, message: string): Reply {
  return { status: 404, body: fake.errorBody(404, message) }
}
