import { describe, expect, it } from 'vitest'
import { httpFailureToError, kindForStatus, parseRetryAfter, redact } from '../../../src/main/providers/errors'

const headers = (h: Record<string, string>): Headers => new Headers(h)

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z')

  it('reads seconds, fractional seconds and milliseconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000)
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500)
    expect(parseRetryAfter(headers({ 'retry-after-ms': '1234.4' }), now)).toBe(1234)
  })

  it('prefers retry-after-ms over retry-after', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '60', 'retry-after-ms': '100' }), now)).toBe(100)
  })

  it('reads an HTTP date, and a date in the past as no wait', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' }), now)).toBe(30_000)
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }), now)).toBe(0)
  })

  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(headers({}), now)).toBeUndefined()
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(parseRetryAfter(headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })
})

describe('kindForStatus', () => {
  it.each([
    [429, 'rate_limit'],
    [408, 'timeout'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'bad_request'],
    [404, 'bad_request'],
    [422, 'bad_request'],
    [409, 'server'],
    [500, 'server'],
    [529, 'server']
  ] as const)('%i → %s', (status, kind) => {
    expect(kindForStatus(status)).toBe(kind)
  })

  it('marks only transient kinds retryable', () => {
    expect(httpFailureToError({ provider: 'openai', status: 502 }).retryable).toBe(true)
    expect(httpFailureToError({ provider: 'openai', status: 404 }).retryable).toBe(false)
    expect(httpFailureToError({ provider: 'openai', status: 429, code: 'insufficient_quota' }).retryable).toBe(false)
  })
})

describe('redact', () => {
  it('removes the given secret and anything shaped like a provider key', () => {
    expect(redact('key custom-secret-value was wrong', ['custom-secret-value'])).toBe('key [redacted] was wrong')
    expect(redact('Incorrect API key provided: sk-proj-abcdefgh12345678.')).toBe('Incorrect API key provided: [redacted].')
    expect(redact('bad AIzaSyA1234567890abcdefghijklmnop here')).toBe('bad [redacted] here')
    expect(redact('GET /v1/models?key=secret123&alt=json')).toBe('GET /v1/models?key=[redacted]&alt=json')
    expect(redact('authorization: Bearer tok_live_9876')).toBe('authorization: Bearer [redacted]')
  })

  it('bounds long messages', () => {
    expect(redact('x'.repeat(2000)).length).toBe(501)
  })
})
