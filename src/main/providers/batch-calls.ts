import { DEFAULT_BATCH_CALL_TIMEOUT_MS, withDeadline } from './errors'
import type { BatchCallOptions, BatchResult, ModelResponse, ProviderError, ProviderKind } from './types'

/** One batch control call (submit, poll, results) under the caller's deadline, or the batch-call default. */
export function batchCallWithDeadline<T>(
  provider: ProviderKind,
  options: BatchCallOptions | undefined,
  secrets: readonly string[],
  call: (signal: AbortSignal, timeoutMs: number) => Promise<T>,
  mapError: (e: unknown) => ProviderError
): Promise<T> {
  const req = { timeoutMs: options?.timeoutMs ?? DEFAULT_BATCH_CALL_TIMEOUT_MS, signal: options?.signal }
  return withDeadline(provider, req, secrets, call, mapError)
}

/** A result whose response cannot be read fails on its own, as malformed, instead of failing the whole batch. */
export function responseOrMalformed(customId: string, toResponse: () => ModelResponse): BatchResult {
  try {
    return { customId, response: toResponse() }
  } catch (e) {
    return { customId, error: { kind: 'malformed', message: e instanceof Error ? e.message : String(e) } }
  }
}
