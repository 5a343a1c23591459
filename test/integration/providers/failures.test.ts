// Every provider, through its real SDK, against the loopback fake: answers, and each kind of failure mapped to the
// same ProviderError the runner relies on (with the SDKs' own retries off).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderKind } from '../../../src/main/providers'
import { failing, rateLimited, startFakeProviders, type FakeProviders } from '../../fakes'
import { COMPLETE_ENDPOINT, KEYS, judge, providerError, providerFor } from './helpers'

const KINDS: ProviderKind[] = ['openai', 'anthropic', 'google', 'openai-compatible']

let fake: FakeProviders
beforeAll(async () => {
  fake = await startFakeProviders({ hangLimitMs: 5_000 })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.reset())

describe.each(KINDS)('%s', (kind) => {
  const endpoint = COMPLETE_ENDPOINT[kind]
  const req = { system: 'You are a careful judge.', user: 'Rate idea one please', timeoutMs: 5_000 }

  it('returns the text, token counts and finish reason of a normal answer', async () => {
    fake.setScript({ responder: (p) => ({ text: `seen: ${p.user}`, inputTokens: 17, outputTokens: 4 }) })
    const res = await providerFor(fake, kind).complete(judge(kind), req)
    expect(res.text).toBe('seen: Rate idea one please')
    expect(res.inputTokens).toBe(17)
    expect(res.outputTokens).toBe(4)
    expect(res.truncated).toBe(false)
    expect(res.finishReason).toBe({ openai: 'stop', 'openai-compatible': 'stop', anthropic: 'end_turn', google: 'STOP' }[kind])
    expect(res.modelVersion).not.toBeNull()
    expect(fake.count(endpoint)).toBe(1)
  })

  it('passes the system instruction and the user message through', async () => {
    let seen: { system: string | null; user: string } | undefined
    fake.setScript({ responder: (p) => ((seen = { system: p.system, user: p.user }), 'ok') })
    await providerFor(fake, kind).complete(judge(kind), req)
    expect(seen).toEqual({ system: 'You are a careful judge.', user: 'Rate idea one please' })
  })

  it('marks an answer cut by the token limit as truncated', async () => {
    fake.setScript({ responder: () => ({ text: '{"scores": [', finish: 'length' }) })
    const res = await providerFor(fake, kind).complete(judge(kind, { maxTokens: 5 }), req)
    expect(res.truncated).toBe(true)
    expect(res.text).toBe('{"scores": [')
    expect(res.finishReason).toBe({ openai: 'length', 'openai-compatible': 'length', anthropic: 'max_tokens', google: 'MAX_TOKENS' }[kind])
  })

  it('surfaces 429 as rate_limit with Retry-After in seconds, and does not retry by itself', async () => {
    fake.setScript({ faults: [rateLimited({ times: 2, retryAfter: '1' })] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('rate_limit')
    expect(err.status).toBe(429)
    expect(err.retryable).toBe(true)
    expect(err.retryAfterMs).toBe(1000)
    expect(fake.count(endpoint)).toBe(1)
    // The second call is still inside the fault's two; the third gets through.
    await providerError(providerFor(fake, kind).complete(judge(kind), req))
    await expect(providerFor(fake, kind).complete(judge(kind), req)).resolves.toMatchObject({ text: '{"ok":true}' })
    expect(fake.count(endpoint)).toBe(3)
  })

  it('prefers retry-after-ms, and reads an HTTP-date Retry-After', async () => {
    fake.setScript({ faults: [rateLimited({ retryAfter: '30', retryAfterMs: '250' })] })
    expect((await providerError(providerFor(fake, kind).complete(judge(kind), req))).retryAfterMs).toBe(250)
    const at = new Date(Date.now() + 20_000).toUTCString()
    fake.setScript({ faults: [rateLimited({ retryAfter: at })] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    // HTTP dates have whole seconds, so the wait is 19–20 s from now.
    expect(err.retryAfterMs).toBeGreaterThan(18_000)
    expect(err.retryAfterMs).toBeLessThanOrEqual(20_000)
  })

  it.each([500, 503, 529])('maps HTTP %i to a retryable server error', async (status) => {
    fake.setScript({ faults: [failing(status)] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('server')
    expect(err.status).toBe(status)
    expect(err.retryable).toBe(true)
    expect(fake.count(endpoint)).toBe(1)
  })

  it('maps 400 to a bad_request that is not retried', async () => {
    fake.setScript({ faults: [failing(400, { message: 'max_tokens is too large' })] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('bad_request')
    expect(err.retryable).toBe(false)
    expect(err.message).toContain('max_tokens is too large')
  })

  it('maps a rejected key to auth, not retryable, without the key in the message', async () => {
    const wrongKey = `${KEYS[kind]}-wrong`
    fake.setScript({
      faults: [{ fault: { type: 'status', status: 401, message: (r) => `Incorrect API key provided: ${JSON.stringify(r.headers)}` } }]
    })
    const err = await providerError(providerFor(fake, kind, wrongKey).complete(judge(kind), req))
    expect(err.kind).toBe('auth')
    expect(err.status).toBe(401)
    expect(err.retryable).toBe(false)
    // The fake echoed every header, so the key was in the server's message.
    expect(fake.requests[0]?.rawBody).not.toContain(wrongKey)
    expect(JSON.stringify(fake.requests[0]?.headers)).toContain(wrongKey)
    expect(err.message).toContain('Incorrect API key provided')
    expect(err.message).not.toContain(wrongKey)
    expect(String(err.stack)).not.toContain(wrongKey)
    expect(JSON.stringify(err)).not.toContain(wrongKey)
  })

  it('maps 403 to auth', async () => {
    fake.setScript({ faults: [failing(403)] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('auth')
    expect(err.retryable).toBe(false)
  })

  it('times out fast when the server never answers', async () => {
    fake.setScript({ faults: [{ fault: { type: 'hang' } }] })
    const started = Date.now()
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), { ...req, timeoutMs: 300 }))
    const elapsed = Date.now() - started
    expect(err.kind).toBe('timeout')
    expect(err.retryable).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(280)
    expect(elapsed).toBeLessThan(2_000)
    expect(fake.count(endpoint)).toBe(1)
  })

  it('times out when the body stalls after the headers', async () => {
    fake.setScript({ faults: [{ fault: { type: 'stall_body' } }] })
    const started = Date.now()
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), { ...req, timeoutMs: 300 }))
    expect(err.kind).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('reports a call the caller aborted as cancelled, not retryable', async () => {
    fake.setScript({ faults: [{ fault: { type: 'hang' } }] })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), { ...req, timeoutMs: 5_000, signal: controller.signal }))
    expect(err.kind).toBe('cancelled')
    expect(err.retryable).toBe(false)
  })

  it('does not send a request whose signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), { ...req, signal: controller.signal }))
    expect(err.kind).toBe('cancelled')
    expect(fake.count(endpoint)).toBe(0)
  })

  it('maps a 200 whose body is not JSON to malformed', async () => {
    fake.setScript({ faults: [{ fault: { type: 'invalid_json' } }] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('malformed')
    expect(err.retryable).toBe(true)
  })

  it('maps a truncated JSON body to malformed', async () => {
    fake.setScript({ faults: [{ fault: { type: 'truncated_json' } }] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('malformed')
  })

  it('maps a dropped connection to network', async () => {
    fake.setScript({ faults: [{ fault: { type: 'reset' } }] })
    const err = await providerError(providerFor(fake, kind).complete(judge(kind), req))
    expect(err.kind).toBe('network')
    expect(err.retryable).toBe(true)
    expect(fake.count(endpoint)).toBe(1)
  })
})
