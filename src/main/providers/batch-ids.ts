import { ProviderError, type BatchItem, type ProviderKind } from './types'

// Anthropic's rule for custom ids, the strictest of the three; one rule everywhere keeps ids portable across providers.
const CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/

export function assertBatchIds(provider: ProviderKind, requests: readonly BatchItem[]): void {
  if (requests.length === 0) throw new ProviderError({ kind: 'bad_request', message: `${provider}: a batch needs at least one request`, provider })
  const seen = new Set<string>()
  for (const r of requests) {
    if (!CUSTOM_ID.test(r.customId)) {
      throw new ProviderError({ kind: 'bad_request', message: `${provider}: batch custom id must match [A-Za-z0-9_-]{1,64}: ${JSON.stringify(r.customId.slice(0, 80))}`, provider })
    }
    if (seen.has(r.customId)) throw new ProviderError({ kind: 'bad_request', message: `${provider}: duplicate batch custom id ${r.customId}`, provider })
    seen.add(r.customId)
  }
}

/** Asking for results before the batch has ended is the caller's mistake, not a transient failure. */
export function batchNotFinished(provider: ProviderKind, batchId: string): ProviderError {
  return new ProviderError({ kind: 'bad_request', message: `${provider}: batch ${batchId} has not finished`, provider })
}
