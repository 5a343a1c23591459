import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createProvider } from '../../../src/main/providers'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { judge, providerError } from './helpers'

let fake: FakeProviders
beforeAll(async () => {
  fake = await startFakeProviders()
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.reset())

const req = { system: 'Judge.', user: 'Score it.', timeoutMs: 5_000 }

describe('openai-compatible server', () => {
  it('reaches a keyless local server at its base URL with the settings as configured', async () => {
    const provider = createProvider('openai-compatible', { apiKey: '', baseUrl: fake.url('openai-compatible') })
    expect(provider.batch).toBeUndefined()
    const res = await provider.complete(judge('openai-compatible', { model: 'qwen3:8b', temperature: 0.7, maxTokens: 128, reasoningEffort: 'low' }), req)
    expect(res.text).toBe('{"ok":true}')
    const sent = fake.requestsTo('compatible.chat')[0]!
    expect(sent.path).toBe('/compatible/v1/chat/completions')
    // Local servers mostly know max_tokens only, and a temperature is theirs to refuse.
    expect(sent.body).toEqual({
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'Judge.' },
        { role: 'user', content: 'Score it.' }
      ],
      reasoning_effort: 'low',
      temperature: 0.7,
      max_tokens: 128
    })
  })

  it('sends a json_schema response format when asked', async () => {
    const schema = { type: 'object', properties: { v: { type: 'string' } }, required: ['v'], additionalProperties: false }
    const provider = createProvider('openai-compatible', { apiKey: 'xai-abcdef0123456789', baseUrl: fake.url('openai-compatible') })
    await provider.complete(judge('openai-compatible', { model: 'grok-4', structuredOutput: true }), { ...req, jsonSchema: schema })
    const sent = fake.requestsTo('compatible.chat')[0]!
    expect(sent.headers['authorization']).toBe('Bearer xai-abcdef0123456789')
    expect((sent.body as Record<string, unknown>)['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } })
  })

  it('needs a base URL', () => {
    expect(() => createProvider('openai-compatible', { apiKey: '' })).toThrow(expect.objectContaining({ kind: 'bad_request' }))
  })

  it('maps a server that is not listening to network', async () => {
    const { origin } = fake
    await fake.close()
    try {
      const provider = createProvider('openai-compatible', { apiKey: '', baseUrl: `${origin}/compatible/v1` })
      const err = await providerError(provider.complete(judge('openai-compatible'), req))
      expect(err.kind).toBe('network')
    } finally {
      fake = await startFakeProviders()
    }
  })
})

describe('createProvider', () => {
  it.each(['openai', 'anthropic', 'google'] as const)('refuses %s without a key', (kind) => {
    expect(() => createProvider(kind, { apiKey: '', baseUrl: 'http://127.0.0.1:9' })).toThrow(expect.objectContaining({ kind: 'auth', retryable: false }))
  })

  it('uses the fetch it is given', async () => {
    const seen: string[] = []
    const provider = createProvider('openai', {
      apiKey: 'sk-test-0123456789abcdef',
      baseUrl: fake.url('openai'),
      fetch: (input, init) => {
        seen.push(String(input))
        return fetch(input, init)
      }
    })
    await provider.complete(judge('openai'), req)
    expect(seen).toEqual([`${fake.url('openai')}/chat/completions`])
  })
})
