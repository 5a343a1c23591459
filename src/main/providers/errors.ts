import { ProviderError, type ProviderErrorKind, type ProviderKind } from './types'

interface HeaderReader {
  get(name: string): string | null
}

/**
 * Milliseconds to wait before retrying, from `retry-after-ms` (a non-standard header OpenAI and Anthropic send)
 * or `retry-after` (seconds, or an HTTP date). Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderReader | undefined | null, now: number = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms)
    if (Number.isFinite(value) && value >= 0) return Math.round(value)
  }
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const trimmed = after.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

// Shapes of keys providers issue; a server echoing a key back (some proxies do) must not put it in our messages.
const KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\bxai-[A-Za-z0-9_-]{8,}/g,
  /([?&]key=)[^&\s"']+/g,
  /(Bearer\s+)[^\s"']+/gi
]
const MAX_MESSAGE_CHARS = 500

/** Removes the given secrets and anything shaped like an API key, and bounds the length. */
export function redact(message: string, secrets: readonly string[] = []): string {
  let out = message
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (match, prefix: unknown) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]'))
  }
  return out.length > MAX_MESSAGE_CHARS ? `${out.slice(0, MAX_MESSAGE_CHARS)}…` : out
}

/** Rebuilds an error with a redacted message (ProviderError fields are read-only on purpose). */
export function redactError(e: ProviderError, secrets: readonly string[]): ProviderError {
  const message = redact(e.message, secrets)
  if (message === e.message) return e
  return new ProviderError({
    kind: e.kind,
    message,
    retryable: e.retryable,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    ...(e.code !== undefined ? { code: e.code } : {}),
    ...(e.provider !== undefined ? { provider: e.provider } : {})
  })
}

// Quota exhaustion comes back as 429 but waiting does not help.
const NON_RETRYABLE_RATE_LIMIT_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached'])

export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limit'
  if (status === 408) return 'timeout'
  if (status === 401 || status === 403) return 'auth'
  // 409 is a lock timeout on these APIs; the SDKs retry it too.
  if (status === 409 || status >= 500) return 'server'
  return 'bad_request'
}

export interface HttpFailure {
  provider: ProviderKind
  status: number
  headers?: HeaderReader | null | undefined
  /** The API's own explanation, already extracted from its error body. */
  apiMessage?: string | null | undefined
  code?: string | null | undefined
}

/** One mapping from an HTTP failure to a ProviderError for all providers. */
export function httpFailureToError(f: HttpFailure): ProviderError {
  const kind = kindForStatus(f.status)
  const retryAfterMs = parseRetryAfter(f.headers)
  const code = f.code ?? undefined
  const retryable = kind === 'rate_limit' && code !== undefined && NON_RETRYABLE_RATE_LIMIT_CODES.has(code) ? false : undefined
  const detail = f.apiMessage ? `: ${f.apiMessage}` : ''
  return new ProviderError({
    kind,
    message: `${f.provider} HTTP ${f.status}${detail}`,
    status: f.status,
    provider: f.provider,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(retryable !== undefined ? { retryable } : {})
  })
}

export function malformed(provider: ProviderKind, what: string): ProviderError {
  return new ProviderError({ kind: 'malformed', message: `${provider}: ${what}`, provider })
}

/** Errors that are not about HTTP status: JSON parse failures and broken connections. */
export function genericFailureToError(provider: ProviderKind, e: unknown): ProviderError {
  if (e instanceof ProviderError) return e
  if (e instanceof SyntaxError) return malformed(provider, `unparseable response body (${e.message})`)
  const message = e instanceof Error ? e.message : String(e)
  if (e instanceof TypeError) return new ProviderError({ kind: 'network', message: `${provider}: ${message}`, provider })
  return new ProviderError({ kind: 'malformed', message: `${provider}: ${message}`, provider })
}

export type AbortCause = 'timeout' | 'cancelled'

/**
 * Runs one provider call under the request's deadline and the caller's signal. The SDKs' own timeouts stop at the
 * response headers; this deadline also covers reading the body, and tells a timeout from a cancellation.
 */
export async function withDeadline<T>(
  provider: ProviderKind,
  req: { timeoutMs: number; signal?: AbortSignal | undefined },
  secrets: readonly string[],
  call: (signal: AbortSignal, timeoutMs: number) => Promise<T>,
  mapError: (e: unknown) => ProviderError
): Promise<T> {
  const timeoutMs = Math.max(1, Math.ceil(req.timeoutMs))
  if (!Number.isFinite(timeoutMs)) {
    throw new ProviderError({ kind: 'bad_request', message: `${provider}: timeoutMs must be a finite number`, provider })
  }
  if (req.signal?.aborted) throw cancelledError(provider)
  const controller = new AbortController()
  let cause: AbortCause | null = null
  const onCallerAbort = (): void => {
    cause ??= 'cancelled'
    controller.abort()
  }
  req.signal?.addEventListener('abort', onCallerAbort, { once: true })
  const timer = setTimeout(() => {
    cause ??= 'timeout'
    controller.abort()
  }, timeoutMs)
  try {
    return await call(controller.signal, timeoutMs)
  } catch (e) {
    if (cause === 'timeout') throw timeoutError(provider, timeoutMs)
    if (cause === 'cancelled') throw cancelledError(provider)
    throw redactError(mapError(e), secrets)
  } finally {
    clearTimeout(timer)
    req.signal?.removeEventListener('abort', onCallerAbort)
  }
}

export function timeoutError(provider: ProviderKind, timeoutMs: number): ProviderError {
  return new ProviderError({ kind: 'timeout', message: `${provider}: no complete answer within ${timeoutMs} ms`, provider })
}

export function cancelledError(provider: ProviderKind): ProviderError {
  return new ProviderError({ kind: 'cancelled', message: `${provider}: request cancelled`, provider })
}

/** The batch control calls are short; this bounds them when the caller gives no deadline. */
export const DEFAULT_BATCH_CALL_TIMEOUT_MS = 120_000
