import type { Envelope, Transport } from './client'

export interface BusyRetryOptions {
  /** Attempts in all, the first included. */
  attempts?: number
  /** Delay before the first retry; doubled each time, with jitter. */
  baseMs?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

/**
 * Retries calls that main answered `busy`. Main writes in IMMEDIATE transactions, so `busy` means the write lock was
 * never taken and nothing was written: a retry cannot apply a change twice. Any other answer is returned at once.
 */
export function withBusyRetry(inner: Transport, opts: BusyRetryOptions = {}): Transport {
  const attempts = opts.attempts ?? 5
  const baseMs = opts.baseMs ?? 200
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const random = opts.random ?? Math.random
  return {
    async invoke(operation, input) {
      let env: Envelope = await inner.invoke(operation, input)
      for (let attempt = 1; attempt < attempts && !env.ok && env.error.code === 'busy'; attempt++) {
        await sleep(baseMs * 2 ** (attempt - 1) * (0.5 + random()))
        env = await inner.invoke(operation, input)
      }
      return env
    },
    subscribe: (listener) => inner.subscribe(listener)
  }
}
