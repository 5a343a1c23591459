import { ProviderError } from '../providers/types'

/** How a call is retried. Attempts count failures other than rate limits; a 429 waits and asks again. */
export interface RetryPolicy {
  /** Tries per call for failures that may pass (5xx, timeouts, broken or unreadable responses). Default 2. */
  attempts: number
  /** Deadline of one try, body included. Default 900 s. */
  timeoutMs: number
  /** How many 429s one call may wait out before it is recorded as failed. */
  rateLimitWaits: number
  /** Backoff after the n-th failure without a Retry-After: base·2^(n-1), at most max, with jitter. */
  backoffBaseMs: number
  backoffMaxMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 2,
  timeoutMs: 900_000,
  rateLimitWaits: 10,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000
}

export function backoffMs(policy: RetryPolicy, n: number, random: () => number = Math.random): number {
  const exp = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, n - 1))
  // Full jitter in the upper half keeps retries of many calls from arriving together.
  return Math.round(exp / 2 + (random() * exp) / 2)
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, Math.max(0, ms))
    const onAbort = () => {
      clearTimeout(timer)
      reject(cancelled())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function cancelled(): ProviderError {
  return new ProviderError({ kind: 'cancelled', message: 'cancelled' })
}

/**
 * One per provider endpoint, shared by every run in the process: at most `limit` requests in flight, and after a 429
 * with Retry-After nobody sends to that endpoint until the wait is over (the limit is the account's, not the call's).
 */
export class ProviderGate {
  private active = 0
  private readonly waiting: Array<() => void> = []
  private pausedUntil = 0

  constructor(
    public limit: number,
    private readonly now: () => number = Date.now
  ) {}

  /** A slot now, when one is free and no pause is on: the common case, without a promise. */
  tryAcquire(): (() => void) | null {
    if (this.active >= this.limit || this.pausedUntil > this.now()) return null
    return this.take()
  }

  /** Waits for a free slot and for any pause to end; returns the release. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      const wait = this.pausedUntil - this.now()
      if (wait > 0) await sleep(wait, signal)
      if (this.active < this.limit) break
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(wake)
          if (i >= 0) this.waiting.splice(i, 1)
          reject(cancelled())
        }
        const wake = () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }
        if (signal?.aborted) return reject(cancelled())
        signal?.addEventListener('abort', onAbort, { once: true })
        this.waiting.push(wake)
      })
    }
    return this.take()
  }

  private take(): () => void {
    this.active++
    let released = false
    return () => {
      if (released) return
      released = true
      this.active--
      this.waiting.shift()?.()
    }
  }

  /** No request leaves before `ms` from now. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms)
  }

  get inFlight(): number {
    return this.active
  }
}

const gates = new Map<string, ProviderGate>()

/** The gate of an endpoint (provider and base URL); the newest run's concurrency sets its limit. */
export function gateFor(provider: string, baseUrl: string | null, concurrency: number): ProviderGate {
  const key = `${provider} ${baseUrl ?? ''}`
  let gate = gates.get(key)
  if (!gate) {
    gate = new ProviderGate(concurrency)
    gates.set(key, gate)
  } else {
    gate.limit = concurrency
  }
  return gate
}
