import { ProviderError, type JudgeConfig, type ModelRequest, type ModelResponse, type Provider } from '../providers/types'
import { backoffMs, sleep, type ProviderGate, type RetryPolicy } from './gate'

export type SendResult =
  | { response: ModelResponse; latencyMs: number; sent: number }
  | { error: ProviderError; latencyMs: number | null; sent: number }

/**
 * Sends one request until it has an answer, has used its attempts, or the signal stops it (then it throws the
 * `cancelled` ProviderError). A 429 that may pass pauses the whole endpoint for its Retry-After and does not use an
 * attempt; other failures that may pass are retried after backoff (or their Retry-After) up to `policy.attempts`.
 */
export async function sendWithRetries(
  provider: Provider,
  config: JudgeConfig,
  request: Omit<ModelRequest, 'timeoutMs' | 'signal'>,
  policy: RetryPolicy,
  gate: ProviderGate,
  signal: AbortSignal,
  onRequest: () => void = () => {}
): Promise<SendResult> {
  let sent = 0
  let failures = 0
  let rateLimits = 0
  for (;;) {
    const release = gate.tryAcquire() ?? (await gate.acquire(signal))
    const started = Date.now()
    sent++
    onRequest()
    try {
      const response = await provider.complete(config, { ...request, timeoutMs: policy.timeoutMs, signal })
      return { response, latencyMs: Date.now() - started, sent }
    } catch (e) {
      const latencyMs = Date.now() - started
      const err = e instanceof ProviderError ? e : new ProviderError({ kind: 'malformed', message: e instanceof Error ? e.message : String(e) })
      if (err.kind === 'cancelled' || signal.aborted) throw err.kind === 'cancelled' ? err : new ProviderError({ kind: 'cancelled', message: 'cancelled' })
      if (err.kind === 'rate_limit' && err.retryable && rateLimits < policy.rateLimitWaits) {
        rateLimits++
        gate.pause(err.retryAfterMs ?? backoffMs(policy, rateLimits))
        continue
      }
      failures++
      if (!err.retryable || failures >= policy.attempts) return { error: err, latencyMs, sent }
      await sleep(err.retryAfterMs ?? backoffMs(policy, failures), signal)
    } finally {
      release()
    }
  }
}

/** Failures that every call of the run would meet the same way: stop instead of failing them one by one. */
export function isFatal(e: ProviderError): boolean {
  return e.kind === 'auth'
}
